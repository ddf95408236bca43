import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MaintenanceCard } from './settings-maintenance-card.tsx';

vi.mock('../api.ts', () => ({ settingsApi: { maintenance: vi.fn(), setMaintenance: vi.fn() } }));

beforeEach(async () => {
  const { settingsApi } = await import('../api.ts');
  vi.mocked(settingsApi.maintenance).mockResolvedValue({ enabled: false, endsAt: null, message: '' });
  vi.mocked(settingsApi.setMaintenance)
    .mockReset()
    .mockResolvedValue({ enabled: true, endsAt: null, message: '系統維護中。' });
});

describe('the 維護模式 switch', () => {
  it('turns red only once maintenance is confirmed on, and says so while it waits', async () => {
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MaintenanceCard canWrite />
      </QueryClientProvider>,
    );
    const toggle = await screen.findByRole('switch', { name: '維護模式' });
    await user.click(toggle);
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    expect(toggle.className).not.toContain('bg-danger');
    expect(screen.getByTestId('switch-pending').textContent).toBe('尚未開啟：按下方按鈕並確認後才會生效。');

    await user.click(screen.getByRole('button', { name: '開啟維護模式…' }));
    expect(toggle.className).not.toContain('bg-danger');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: '開啟維護模式' }));
    await vi.waitFor(() => expect(toggle.className).toContain('bg-danger'));
    expect(screen.queryByTestId('switch-pending')).toBeNull();
  });
});
