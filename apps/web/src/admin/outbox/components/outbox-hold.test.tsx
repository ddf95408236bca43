import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { OutboxHold } from './outbox-hold.tsx';

vi.mock('../api.ts', () => ({ outboxApi: { hold: vi.fn(), release: vi.fn() } }));

function renderHold(canRelease: boolean) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <OutboxHold canRelease={canRelease} />
    </QueryClientProvider>,
  );
}

beforeEach(async () => {
  const { outboxApi } = await import('../api.ts');
  vi.mocked(outboxApi.hold).mockResolvedValue({
    held: true,
    since: '2026-11-28T02:00:00Z',
    reason: 'restored',
    pending: 185,
  });
  vi.mocked(outboxApi.release).mockReset();
});

describe('a restored shop’s held outbox in the console', () => {
  it('says what waits and why, and lets the owner release it only after confirming', async () => {
    const { outboxApi } = await import('../api.ts');
    vi.mocked(outboxApi.release).mockResolvedValue({ held: false, since: null, reason: null, pending: 185 });
    renderHold(true);
    const banner = await screen.findByText('寄送已暫停：這個商店是從備份還原的');
    expect(banner.closest('[role="status"]')?.textContent).toContain(
      '從 2026/11/28 10:00 起，185 則待送的通知信與金流、發票、退款作業都暫停送出',
    );
    await userEvent.click(screen.getByRole('button', { name: '恢復寄送' }));
    expect((await screen.findByRole('dialog', { name: '恢復寄送？' })).textContent).toContain(
      '暫停中的 185 則項目會立刻送出',
    );
    expect(outboxApi.release).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: '確定恢復寄送' }));
    await vi.waitFor(() => expect(outboxApi.release).toHaveBeenCalledTimes(1));
  });

  it('gives other roles the notice without the button', async () => {
    renderHold(false);
    await screen.findByText('寄送已暫停：這個商店是從備份還原的');
    expect(screen.queryByRole('button', { name: '恢復寄送' })).toBeNull();
    expect(screen.getByText(/只有店主可以恢復寄送/)).toBeTruthy();
  });

  it('shows nothing while the outbox sends', async () => {
    const { outboxApi } = await import('../api.ts');
    vi.mocked(outboxApi.hold).mockResolvedValue({ held: false, since: null, reason: null, pending: 0 });
    renderHold(true);
    await vi.waitFor(() => expect(outboxApi.hold).toHaveBeenCalled());
    expect(screen.queryByText('寄送已暫停：這個商店是從備份還原的')).toBeNull();
  });
});
