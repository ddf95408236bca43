import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { ApiError } from '../../../lib/api-error.ts';
import { ReauthDialog } from './reauth-dialog.tsx';

const LOCKED =
  '嘗試次數過多，為了保護您的帳號，請於 15 分鐘後再試。若忘記目前的密碼，可以登出後使用「忘記密碼」重設，完成後即解除鎖定。';

vi.mock('../api/auth-api.ts', () => ({
  authApi: {
    reauthenticate: vi.fn(),
    logout: vi.fn(async () => ({ ok: true })),
  },
}));

function renderDialog() {
  return render(
    <MemoryRouter initialEntries={['/member']}>
      <Routes>
        <Route path="/member" element={<ReauthDialog open onClose={() => {}} onConfirmed={() => {}} />} />
        <Route path="/forgetPassword" element={<h1>忘記密碼</h1>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('confirming the current password before a change', () => {
  it('a wrong password shows one error, beside the field it was asked for', async () => {
    const { authApi } = await import('../api/auth-api.ts');
    vi.mocked(authApi.reauthenticate).mockRejectedValueOnce(
      new ApiError(400, 'wrong-password', '電子郵件或密碼不正確，請再試一次。', {
        password: '目前的密碼不正確。',
      }),
    );
    renderDialog();
    fireEvent.input(screen.getByLabelText('目前的密碼'), { target: { value: '猜錯的密碼啦啦啦' } });
    fireEvent.click(screen.getByRole('button', { name: '確認' }));
    expect(await screen.findByText('目前的密碼不正確。')).toBeTruthy();
    expect(screen.queryByText(/電子郵件/)).toBeNull();
  });

  it('locked, it says how long to wait and offers to sign out and reset the password, which lifts the lock', async () => {
    const { authApi } = await import('../api/auth-api.ts');
    vi.mocked(authApi.reauthenticate).mockRejectedValueOnce(new ApiError(429, 'too-many-requests', LOCKED));
    renderDialog();
    fireEvent.input(screen.getByLabelText('目前的密碼'), { target: { value: '我的第一個茶密碼' } });
    fireEvent.click(screen.getByRole('button', { name: '確認' }));
    expect(await screen.findByText(LOCKED)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '登出並重設密碼' }));
    expect(await screen.findByRole('heading', { name: '忘記密碼' })).toBeTruthy();
    expect(authApi.logout).toHaveBeenCalledTimes(1);
  });
});
