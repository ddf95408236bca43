import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { StockHistoryResponse } from '@shop/shared/admin-products';
import { StockHistory } from './stock-history.tsx';

vi.mock('../api.ts', () => ({ productsApi: { stockHistory: vi.fn() } }));

const page = (n: number, items: StockHistoryResponse['items']): StockHistoryResponse => ({
  variantId: 'v1',
  sku: 'SL-LS-150',
  stock: 8,
  items,
  page: n,
  pageSize: 10,
  total: 11,
  totalPages: 2,
});

describe("a variant's 庫存紀錄", () => {
  it('lists each change in Taiwan time with its sign, reason, order link and staff, a page at a time', async () => {
    const { productsApi } = await import('../api.ts');
    vi.mocked(productsApi.stockHistory).mockImplementation(async (_p, _v, n) =>
      n === 1
        ? page(1, [
            {
              id: 'a',
              kind: 'sale',
              delta: -2,
              stockAfter: 8,
              reason: '訂單售出',
              orderNo: 'TW20261122000001',
              actorEmail: null,
              at: '2026-11-21T16:30:00Z',
            },
            {
              id: 'b',
              kind: 'adjustment',
              delta: 20,
              stockAfter: 10,
              reason: '春茶到貨',
              orderNo: null,
              actorEmail: 'staff@example.com',
              at: '2026-11-20T02:05:00Z',
            },
          ])
        : page(2, [
            {
              id: 'c',
              kind: 'opening',
              delta: 0,
              stockAfter: 0,
              reason: '',
              orderNo: null,
              actorEmail: null,
              at: '2026-11-01T00:00:00Z',
            },
          ]),
    );
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <StockHistory productId="p1" variantId="v1" />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const rows = await screen.findAllByRole('row');
    const sale = within(rows[1]!);
    expect(sale.getByText('2026/11/22 00:30')).toBeTruthy();
    expect(sale.getByText('−2')).toBeTruthy();
    expect(sale.getByText('訂單售出')).toBeTruthy();
    expect(sale.getByRole('link', { name: 'TW20261122000001' }).getAttribute('href')).toBe(
      '/admin/orders/TW20261122000001',
    );
    expect(sale.getByText('系統')).toBeTruthy();
    const adjustment = within(rows[2]!);
    expect(adjustment.getByText('+20')).toBeTruthy();
    expect(adjustment.getByText('手動調整：春茶到貨')).toBeTruthy();
    expect(adjustment.getByText('staff@example.com')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: '下一頁' }));
    expect(await screen.findByText('期初庫存')).toBeTruthy();
    expect(productsApi.stockHistory).toHaveBeenLastCalledWith('p1', 'v1', 2, expect.anything());
  });
});
