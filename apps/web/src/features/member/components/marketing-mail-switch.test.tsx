import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-error.ts';
import { MarketingMailSwitch } from './marketing-mail-switch.tsx';

const { fetchConsent, saveConsent } = vi.hoisted(() => ({ fetchConsent: vi.fn(), saveConsent: vi.fn() }));
vi.mock('../api/member-api.ts', () => ({
  marketingConsentQueryOptions: () => ({
    queryKey: ['membership', 'marketing-consent'],
    queryFn: () => fetchConsent(),
  }),
  setMarketingConsent: (granted: boolean) => saveConsent(granted),
}));

function renderSwitch() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MarketingMailSwitch />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  fetchConsent.mockReset().mockResolvedValue({ granted: false, at: null });
  saveConsent.mockReset();
});

describe('the 新品與優惠通知 switch', () => {
  it('starts off, saves the opposite on a click and shows what the server answered', async () => {
    saveConsent.mockResolvedValue({ granted: true, at: '2026-11-28T02:00:00.000Z' });
    renderSwitch();
    const toggle = await screen.findByRole('switch', { name: '新品與優惠通知' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(screen.getByTestId('marketing-consent-state').textContent).toBe('未開啟');
    await userEvent.click(toggle);
    expect(saveConsent).toHaveBeenCalledWith(true);
    await vi.waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'));
    expect(screen.getByTestId('marketing-consent-state').textContent).toBe('已開啟（2026/11/28 同意）');
  });

  it('a refused change leaves it as it was, with the reason', async () => {
    fetchConsent.mockResolvedValue({ granted: true, at: '2026-11-01T02:00:00.000Z' });
    saveConsent.mockRejectedValue(
      new ApiError(503, 'unavailable', '系統暫時無法處理您的請求，請稍候幾秒再試一次。'),
    );
    renderSwitch();
    const toggle = await screen.findByRole('switch', { name: '新品與優惠通知' });
    await userEvent.click(toggle);
    expect(saveConsent).toHaveBeenCalledWith(false);
    expect(await screen.findByText('系統暫時無法處理您的請求，請稍候幾秒再試一次。')).toBeTruthy();
    expect(toggle.getAttribute('aria-checked')).toBe('true');
  });
});
