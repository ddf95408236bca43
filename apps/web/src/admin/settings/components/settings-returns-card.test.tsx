import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ReturnsCard } from './settings-returns-card.tsx';

vi.mock('../api.ts', () => ({ settingsApi: { returns: vi.fn(), saveReturns: vi.fn() } }));

function renderCard(canWrite: boolean) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ReturnsCard canWrite={canWrite} />
    </QueryClientProvider>,
  );
}

beforeEach(async () => {
  const { settingsApi } = await import('../api.ts');
  vi.mocked(settingsApi.returns).mockResolvedValue({ days: 7 });
  vi.mocked(settingsApi.saveReturns).mockReset();
});

describe('the 退貨期限 card', () => {
  it('keeps the days within 7–60 with the error beside the field, and saves a valid number', async () => {
    const { settingsApi } = await import('../api.ts');
    vi.mocked(settingsApi.saveReturns).mockResolvedValue({ days: 14 });
    renderCard(true);
    const field = await screen.findByRole('spinbutton', { name: '到貨後可申請退貨的天數' });
    await userEvent.clear(field);
    await userEvent.type(field, '5');
    await userEvent.click(screen.getByRole('button', { name: '儲存退貨期限' }));
    await vi.waitFor(() =>
      expect(document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
        '至少 7 天（七天鑑賞期）',
      ),
    );
    expect(settingsApi.saveReturns).not.toHaveBeenCalled();

    await userEvent.clear(field);
    await userEvent.type(field, '14');
    await userEvent.click(screen.getByRole('button', { name: '儲存退貨期限' }));
    await vi.waitFor(() => expect(settingsApi.saveReturns).toHaveBeenCalledWith({ days: 14 }));
  });

  it('is read only for a role that cannot change settings', async () => {
    renderCard(false);
    const field = await screen.findByRole('spinbutton', { name: '到貨後可申請退貨的天數' });
    expect((field as HTMLInputElement).readOnly).toBe(true);
    expect((field as HTMLInputElement).value).toBe('7');
    expect(screen.queryByRole('button', { name: '儲存退貨期限' })).toBeNull();
    expect(screen.getByText('您的角色只能檢視退貨期限；如需修改，請洽店主。')).toBeTruthy();
  });
});
