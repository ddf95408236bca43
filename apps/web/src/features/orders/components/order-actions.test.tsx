import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { OrderDetail } from '@shop/shared/orders';
import { OrderActions } from './order-parts.tsx';

vi.mock('../api/orders-api.ts', () => ({ cancelOrder: vi.fn(async () => ({})), payOrderAgain: vi.fn() }));

const order = {
  orderNo: 'TW20261123000001',
  status: 'pending_payment',
  canPay: false,
  canCancel: true,
} as unknown as OrderDetail;

function renderActions(shown: OrderDetail = order) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <OrderActions order={shown} />
    </QueryClientProvider>,
  );
}

/** A paragraph whose whole text is `text` (the time sits in its own span). */
const sentence = (text: string) =>
  screen.getByText((_, el) => el?.tagName === 'P' && el.textContent === text);

describe("actions on a member's order", () => {
  it("asks in the shop's own dialog, never the browser's confirm(), and cancels only on 確定取消", async () => {
    const native = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { cancelOrder } = await import('../api/orders-api.ts');
    renderActions();
    fireEvent.click(screen.getByRole('button', { name: '取消訂單' }));
    expect(native).not.toHaveBeenCalled();
    const dialog = await screen.findByRole('dialog', { name: '取消這筆訂單？' });
    expect(dialog.textContent).toContain('取消後無法復原，商品會放回您的購物車。');
    fireEvent.click(screen.getByRole('button', { name: '保留訂單' }));
    expect(cancelOrder).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: '取消訂單' }));
    fireEvent.click(await screen.findByRole('button', { name: '確定取消' }));
    await vi.waitFor(() => expect(cancelOrder).toHaveBeenCalledWith('TW20261123000001'));
  });

  it('says what cancelling a paid or a cash-on-delivery order does with the money', async () => {
    renderActions({ ...order, status: 'paid', paymentMethod: 'credit_card', total: 1080 } as OrderDetail);
    fireEvent.click(screen.getByRole('button', { name: '取消訂單' }));
    expect((await screen.findByRole('dialog', { name: '取消這筆訂單？' })).textContent).toContain(
      '已付的 NT$1,080 會退回您付款的信用卡',
    );
    fireEvent.click(screen.getByRole('button', { name: '保留訂單' }));
    renderActions({
      ...order,
      orderNo: 'TW20261123000002',
      status: 'processing',
      paymentMethod: 'cod',
      total: 1110,
    } as OrderDetail);
    fireEvent.click(screen.getAllByRole('button', { name: '取消訂單' })[1]!);
    expect((await screen.findByRole('dialog', { name: '取消這筆訂單？' })).textContent).toContain(
      '商品不會寄出，您也不需付款。',
    );
  });

  it('tells a pending card order until when it can be paid (Taipei time)', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-23T15:13:00Z'));
    renderActions({ ...order, canPay: true, expiresAt: '2026-11-23T15:43:00Z' } as OrderDetail);
    expect(sentence('請於 23:43 前完成付款，逾時訂單會自動取消。')).toBeTruthy();
    vi.useRealTimers();
  });

  it('names the day when the deadline is not today', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-23T15:50:00Z'));
    renderActions({ ...order, canPay: true, expiresAt: '2026-11-23T16:20:00Z' } as OrderDetail);
    expect(sentence('請於 2026/11/24 00:20 前完成付款，逾時訂單會自動取消。')).toBeTruthy();
    vi.useRealTimers();
  });
});

describe('a failed payment under its heading', () => {
  it('gives the reason without repeating 付款未成功', async () => {
    const { failureReason } = await import('./pay-outcome.tsx');
    expect(failureReason('付款未成功：卡片餘額不足。')).toBe('原因：卡片餘額不足。');
    expect(failureReason('付款未成功。')).toBe('');
    expect(failureReason(null)).toBe('');
  });
});

describe('an order that ended, on its payment page', () => {
  it('says it was cancelled, and offers the cart its lines went back to', async () => {
    const { PayOutcome } = await import('./pay-outcome.tsx');
    const { MemoryRouter } = await import('react-router');
    const ended = {
      orderNo: 'TW20261128000009',
      status: 'cancelled',
      paymentMethod: 'credit_card',
      payment: { status: 'pending', paidAt: null },
      total: 600,
      subtotal: 480,
      shippingFee: 120,
      discounts: [],
      discountTotal: 0,
      items: [],
      canPay: false,
      canCancel: false,
      expiresAt: null,
    } as unknown as OrderDetail;
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <PayOutcome order={ended} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(screen.getByTestId('pay-outcome').textContent).toBe('訂單已取消');
    expect(screen.getByRole('link', { name: '前往購物車' }).getAttribute('href')).toBe('/cart');
  });
});

describe('cash on delivery at a pickup store, on the payment page', () => {
  it('is paid at the store counter, and names the store', async () => {
    const { PayOutcome } = await import('./pay-outcome.tsx');
    const { MemoryRouter } = await import('react-router');
    const cod = {
      orderNo: 'TW20261128000010',
      status: 'processing',
      paymentMethod: 'cod',
      payment: null,
      shipping: { method: 'cvs', store: '7-ELEVEN 鹿谷門市' },
      total: 540,
      subtotal: 480,
      shippingFee: 60,
      discounts: [],
      discountTotal: 0,
      items: [],
      canPay: false,
      canCancel: true,
      expiresAt: null,
    } as unknown as OrderDetail;
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <PayOutcome order={cod} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(
      screen.getByText(
        /商品到達「7-ELEVEN 鹿谷門市」後會寄信通知您，請在門市櫃台付款 NT\$540 取貨（取貨付款）/,
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/交給配送人員/)).toBeNull();
  });
});
