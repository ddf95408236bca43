import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { SignInMethodsResponse } from '@shop/shared/social-sign-in';
import { ApiError } from '../../../lib/api-error.ts';
import { SignInMethods } from './sign-in-methods.tsx';

const answers: SignInMethodsResponse[] = [];

vi.mock('../api/social-api.ts', () => ({
  signInMethodsQueryOptions: () => ({
    queryKey: ['auth', 'sign-in-methods'],
    queryFn: async () => answers.shift(),
  }),
  socialApi: { unlink: vi.fn() },
}));

function renderMethods(...replies: SignInMethodsResponse[]) {
  answers.splice(0, answers.length, ...replies);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <SignInMethods />
    </QueryClientProvider>,
  );
}

const line = { provider: 'line' as const, email: 'rain@example.com', linkedAt: '2026-11-28T02:00:00.000Z' };
const google = { provider: 'google' as const, email: null, linkedAt: '2026-11-20T02:00:00.000Z' };

describe('登入方式 in the member area', () => {
  it('lists the password and each linked provider with its date, and offers the ones not linked', async () => {
    renderMethods({ password: true, identities: [line], available: ['line', 'google'] });
    expect(await screen.findByText('2026/11/28 連結・rain@example.com')).toBeTruthy();
    expect(screen.getByText('已設定密碼')).toBeTruthy();
    expect(screen.getByRole('link', { name: '連結 Google' }).getAttribute('href')).toBe(
      '/api/auth/oidc/google/start?intent=link',
    );
    expect(screen.queryByRole('link', { name: '連結 LINE' })).toBeNull();
    expect((screen.getByRole('button', { name: '取消連結 LINE' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('never offers to unlink the last way in: no password and one provider', async () => {
    renderMethods({ password: false, identities: [line], available: ['line', 'google'] });
    const unlink = (await screen.findByRole('button', { name: '取消連結 LINE' })) as HTMLButtonElement;
    expect(unlink.disabled).toBe(true);
    expect(screen.getByText(/這是您唯一的登入方式/)).toBeTruthy();
  });

  it('unlinks one of two providers, and shows the server’s refusal in words when it refuses', async () => {
    const { socialApi } = await import('../api/social-api.ts');
    vi.mocked(socialApi.unlink).mockRejectedValueOnce(
      new ApiError(
        409,
        'last-sign-in-method',
        '這是您唯一的登入方式，請先設定密碼或連結其他登入方式，再取消連結。',
      ),
    );
    renderMethods(
      { password: false, identities: [line, google], available: ['line', 'google'] },
      { password: false, identities: [line, google], available: ['line', 'google'] },
    );
    fireEvent.click(await screen.findByRole('button', { name: '取消連結 Google' }));
    await waitFor(() => expect(socialApi.unlink).toHaveBeenCalledWith('google', expect.anything()));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('這是您唯一的登入方式');
  });
});
