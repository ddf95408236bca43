import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminOrderDetail } from '@shop/shared/admin-orders';
import type { ReturnView } from '@shop/shared/returns';
import { adminOrderKeys } from '../queries.ts';
import { OrderReturns } from './order-returns.tsx';

vi.mock('../../../lib/api-client.ts', () => ({ apiPost: vi.fn(), apiGet: vi.fn() }));
const can = vi.hoisted(() => ({ write: true }));
vi.mock('../../shared/use-admin-me.ts', () => ({ useCan: () => can.write }));

const ORDER_NO = 'TW20261122000001';
const ITEM_A = '6f1c1f0e-8a5e-4c53-9a43-2a1d0c0b1a01';
const ITEM_B = '6f1c1f0e-8a5e-4c53-9a43-2a1d0c0b1a02';

const baseReturn: ReturnView = {
  returnNo: `${ORDER_NO}-R1`,
  status: 'requested',
  reason: '商品瑕疵或運送損壞',
  detail: '罐子凹了',
  photos: ['/api/storage/b/returns/o/a.jpg?alt=media'],
  amount: 1480,
  items: [
    // A coupon took 150 off the order: each item's share comes off its price.
    { itemId: ITEM_A, name: '阿里山高山烏龍（150g）', quantity: 1, price: 1080, amount: 980, restock: null },
    { itemId: ITEM_B, name: '白瓷品茗杯（單只）', quantity: 1, price: 550, amount: 500, restock: null },
  ],
  staffMessage: null,
  bank: '812 台新銀行 末四碼 1234（林小嵐）',
  refund: null,
  requestedAt: '2026-11-25T06:05:00Z',
  decidedAt: null,
  receivedAt: null,
};

const orderWith = (ret: Partial<ReturnView>): AdminOrderDetail =>
  ({
    orderNo: ORDER_NO,
    status: 'delivered',
    paymentMethod: 'cod',
    items: [
      { id: ITEM_A, quantity: 2 },
      { id: ITEM_B, quantity: 1 },
    ],
    returns: [{ ...baseReturn, ...ret }],
  }) as unknown as AdminOrderDetail;

function renderCard(order: AdminOrderDetail) {
  const client = new QueryClient();
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <OrderReturns order={order} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return client;
}

beforeEach(async () => {
  can.write = true;
  const { apiPost } = await import('../../../lib/api-client.ts');
  vi.mocked(apiPost).mockReset();
});

describe("the 退貨申請 card on the console's order page", () => {
  it('shows the return: number, status, Taiwan time, reason, photo, items, refund and the masked account', () => {
    renderCard(orderWith({}));
    const card = screen.getByRole('region', { name: '退貨申請' });
    const text = card.textContent ?? '';
    expect(text).toContain(`${ORDER_NO}-R1`);
    expect(text).toContain('等待審核');
    expect(text).toContain('2026/11/25 14:05');
    expect(text).toContain('商品瑕疵或運送損壞');
    expect(text).toContain('罐子凹了');
    expect(text).toContain('812 台新銀行 末四碼 1234（林小嵐）');
    const photo = within(card).getByRole('link', { name: '退貨照片 1（另開新視窗看原圖）' });
    expect(photo.getAttribute('href')).toBe('/api/storage/b/returns/o/a.jpg?alt=media');
    const items = within(card).getByRole('list', { name: `${ORDER_NO}-R1 退回的商品` });
    expect(items.textContent).toContain('阿里山高山烏龍（150g） × 1');
    expect(items.textContent).toContain('NT$1,480');
  });

  it('says how the refund is reached from the items’ prices: their share of the coupon comes off', () => {
    renderCard(orderWith({}));
    const sum = within(screen.getByRole('region', { name: '退貨申請' })).getByTestId('return-amounts');
    const rows = [...sum.querySelectorAll('div')].map((d) => d.textContent);
    expect(rows).toEqual(['退貨商品金額NT$1,630', '扣除訂單優惠分攤−NT$150', '退款金額NT$1,480']);
  });

  it("approves with the optional message, in the console's dialog, and puts the answered order in the cache", async () => {
    const native = vi.spyOn(window, 'confirm');
    const { apiPost } = await import('../../../lib/api-client.ts');
    const updated = orderWith({ status: 'approved' });
    vi.mocked(apiPost).mockResolvedValue(updated);
    const client = renderCard(orderWith({}));
    await userEvent.click(screen.getByRole('button', { name: '核准' }));
    const dialog = await screen.findByRole('dialog', { name: `核准退貨：${ORDER_NO}-R1` });
    await userEvent.type(within(dialog).getByRole('textbox', { name: '給會員的留言' }), '請用原包裝寄回');
    await userEvent.click(within(dialog).getByRole('button', { name: '核准退貨' }));
    await vi.waitFor(() =>
      expect(apiPost).toHaveBeenCalledWith(`/api/admin/returns/${ORDER_NO}-R1/approve`, {
        message: '請用原包裝寄回',
      }),
    );
    expect(native).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(client.getQueryData(adminOrderKeys.detail(ORDER_NO))).toBe(updated));
  });

  it('refusing without a reason shows the error beside the field and calls nothing; with one, it refuses', async () => {
    const { apiPost } = await import('../../../lib/api-client.ts');
    vi.mocked(apiPost).mockResolvedValue(orderWith({ status: 'refused', staffMessage: '已超過鑑賞期' }));
    renderCard(orderWith({}));
    await userEvent.click(screen.getByRole('button', { name: '不核准' }));
    const dialog = await screen.findByRole('dialog', { name: `不核准退貨：${ORDER_NO}-R1` });
    await userEvent.click(within(dialog).getByRole('button', { name: '確定不核准' }));
    const field = within(dialog).getByRole('textbox', { name: '不核准的原因' });
    await vi.waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      '請說明不核准的原因，會寄給會員',
    );
    expect(apiPost).not.toHaveBeenCalled();

    await userEvent.type(field, '已超過鑑賞期');
    await userEvent.click(within(dialog).getByRole('button', { name: '確定不核准' }));
    await vi.waitFor(() =>
      expect(apiPost).toHaveBeenCalledWith(`/api/admin/returns/${ORDER_NO}-R1/refuse`, {
        message: '已超過鑑賞期',
      }),
    );
  });

  it('receiving asks for a stock choice on every item (none made in advance) and sends each item with it', async () => {
    const { apiPost } = await import('../../../lib/api-client.ts');
    vi.mocked(apiPost).mockResolvedValue(orderWith({ status: 'received' }));
    renderCard(orderWith({ status: 'approved' }));
    await userEvent.click(screen.getByRole('button', { name: '確認收到退貨' }));
    const dialog = await screen.findByRole('dialog', { name: `確認收到退貨：${ORDER_NO}-R1` });
    expect(
      within(dialog)
        .getAllByRole('radio')
        .every((r) => !(r as HTMLInputElement).checked),
    ).toBe(true);
    // What goes back, and where: a cash-on-delivery order's refund is a transfer to the member's account.
    expect(dialog.textContent).toContain('將退款 NT$1,480，匯款到 812 台新銀行');
    await userEvent.click(within(dialog).getByRole('button', { name: '確認收貨並退款' }));
    expect(await within(dialog).findAllByText('請選擇是否放回庫存')).toHaveLength(2);
    expect(apiPost).not.toHaveBeenCalled();

    const tea = within(dialog).getByRole('group', { name: '阿里山高山烏龍（150g） × 1' });
    const cup = within(dialog).getByRole('group', { name: '白瓷品茗杯（單只） × 1' });
    await userEvent.click(within(tea).getByRole('radio', { name: '放回庫存' }));
    await userEvent.click(within(cup).getByRole('radio', { name: '不放回（瑕疵、損壞）' }));
    await userEvent.click(within(dialog).getByRole('button', { name: '確認收貨並退款' }));
    await vi.waitFor(() =>
      expect(apiPost).toHaveBeenCalledWith(`/api/admin/returns/${ORDER_NO}-R1/receive`, {
        items: [
          { itemId: ITEM_A, restock: true },
          { itemId: ITEM_B, restock: false },
        ],
      }),
    );
  });

  it('offers no actions to a role that only reads orders', () => {
    can.write = false;
    renderCard(orderWith({}));
    expect(screen.queryByRole('button', { name: '核准' })).toBeNull();
    expect(screen.queryByRole('button', { name: '不核准' })).toBeNull();
  });
});
