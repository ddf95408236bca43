import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminOrderRow } from '@shop/shared/admin-orders';
import OrdersPage from './orders.tsx';

vi.mock('../api.ts', () => ({
  ordersApi: { list: vi.fn(), action: vi.fn(), printLabels: vi.fn(), csvUrl: () => '/x.csv' },
}));
vi.mock('../../shared/use-admin-me.ts', () => ({ useCan: () => true }));

const row = (orderNo: string, extra: Partial<AdminOrderRow>): AdminOrderRow => ({
  orderNo,
  placedAt: '2026-11-26T02:00:00Z',
  customerName: '林小嵐',
  customerEmail: 'lan@example.com',
  recipientName: '林小嵐',
  recipientPhone: '0912345678',
  itemCount: 1,
  total: 570,
  status: 'paid',
  paymentMethod: 'credit_card',
  paymentState: 'paid',
  shippingMethod: 'home',
  ...extra,
});
const rows = [
  row('TW20261126000001', {}),
  row('TW20261126000002', { recipientName: '陳文山' }),
  row('TW20261126000003', { status: 'processing', paymentMethod: 'cod', paymentState: null }),
];

function renderPage() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={['/admin/orders']}>
        <OrdersPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(async () => {
  const { ordersApi } = await import('../api.ts');
  vi.mocked(ordersApi.list).mockResolvedValue({
    items: rows,
    page: 1,
    pageSize: 20,
    total: 3,
    totalPages: 1,
  });
  vi.mocked(ordersApi.action)
    .mockReset()
    .mockResolvedValue({} as never);
});

describe('the order list’s batch moves', () => {
  it('starts preparing the selected paid orders only after a confirmation that names them', async () => {
    const { ordersApi } = await import('../api.ts');
    const user = userEvent.setup();
    renderPage();
    for (const no of ['TW20261126000001', 'TW20261126000002', 'TW20261126000003'])
      await user.click(await screen.findByLabelText(`選取 ${no}`));
    const bar = screen.getByRole('region', { name: '批次處理' });
    // A cash-on-delivery home order cannot go through ECPay: it is left out, and the bar says why.
    expect(within(bar).getByRole('button', { name: '以綠界物流出貨（0）' })).toHaveProperty('disabled', true);
    expect(bar.textContent).toContain('宅配貨到付款的訂單（1 筆）綠界不代收貨款');

    await user.click(within(bar).getByRole('button', { name: '開始備貨（2）' }));
    const dialog = screen.getByRole('dialog', { name: '開始備貨：2 筆訂單' });
    expect(within(dialog).getByText('TW20261126000001')).toBeTruthy();
    expect(within(dialog).getByText('TW20261126000002')).toBeTruthy();
    expect(within(dialog).queryByText('TW20261126000003')).toBeNull();
    expect(ordersApi.action).not.toHaveBeenCalled();

    await user.click(within(dialog).getByRole('button', { name: '開始備貨（2 筆）' }));
    await vi.waitFor(() => expect(ordersApi.action).toHaveBeenCalledTimes(2));
    expect(vi.mocked(ordersApi.action).mock.calls).toEqual([
      ['TW20261126000001', { action: 'process' }],
      ['TW20261126000002', { action: 'process' }],
    ]);
  });

  it('runs nothing when the confirmation is dismissed', async () => {
    const { ordersApi } = await import('../api.ts');
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByLabelText('選取 TW20261126000001'));
    await user.click(screen.getByRole('button', { name: '開始備貨（1）' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: '返回' }));
    expect(ordersApi.action).not.toHaveBeenCalled();
  });
});
