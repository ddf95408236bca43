import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_REMINDERS } from '@shop/shared/admin-settings';
import { RemindersCard } from './settings-reminders-card.tsx';

vi.mock('../api.ts', () => ({ settingsApi: { reminders: vi.fn(), saveReminders: vi.fn() } }));

function renderCard(canWrite: boolean) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RemindersCard canWrite={canWrite} />
    </QueryClientProvider>,
  );
}

const describedBy = (field: HTMLElement) =>
  document.getElementById(
    field
      .getAttribute('aria-describedby')
      ?.split(' ')
      .find((id) => id.endsWith('-error')) ?? '',
  )?.textContent;

beforeEach(async () => {
  const { settingsApi } = await import('../api.ts');
  vi.mocked(settingsApi.reminders).mockResolvedValue(DEFAULT_REMINDERS);
  vi.mocked(settingsApi.saveReminders).mockReset();
});

describe('the 提醒信 card', () => {
  it('turns a reminder off and sets the cart delay; a lead time the hold cannot give is refused beside its field', async () => {
    const { settingsApi } = await import('../api.ts');
    vi.mocked(settingsApi.saveReminders).mockImplementation(async (body) => body);
    renderCard(true);
    const lead = await screen.findByRole('spinbutton', { name: '在保留時間結束前幾分鐘寄出' });
    await userEvent.clear(lead);
    await userEvent.type(lead, '25');
    await userEvent.click(screen.getByRole('button', { name: '儲存提醒信設定' }));
    await vi.waitFor(() => expect(describedBy(lead)).toBe('最多 20 分鐘（保留時間共 30 分鐘）'));
    expect(settingsApi.saveReminders).not.toHaveBeenCalled();

    await userEvent.clear(lead);
    await userEvent.type(lead, '15');
    await userEvent.click(screen.getByRole('checkbox', { name: /^購物車提醒/ }));
    const delay = screen.getByRole('spinbutton', { name: '購物車最後一次變動後幾小時寄出' });
    await userEvent.clear(delay);
    await userEvent.type(delay, '48');
    await userEvent.click(screen.getByRole('button', { name: '儲存提醒信設定' }));
    await vi.waitFor(() =>
      expect(settingsApi.saveReminders).toHaveBeenCalledWith({
        ...DEFAULT_REMINDERS,
        cardLeadMinutes: 15,
        abandonedCart: false,
        abandonedCartHours: 48,
      }),
    );
  });

  it('is read only for a role that cannot change settings', async () => {
    renderCard(false);
    const lead = await screen.findByRole('spinbutton', { name: '在保留時間結束前幾分鐘寄出' });
    expect((lead as HTMLInputElement).readOnly).toBe(true);
    expect((screen.getByRole('checkbox', { name: /^ATM 轉帳提醒/ }) as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: '儲存提醒信設定' })).toBeNull();
  });
});
