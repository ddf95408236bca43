import { LINE_PAY_CANCELLED } from '@shop/shared/line-pay';
import { formatTwd } from '@shop/shared/money';
import { OPEN_UNPAID } from '@shop/shared/order-status';
import type { LinePayClient, LinePayResult, RequestBody } from '../payments/line-pay/client.ts';
import { TRANSACTION_ID, describeReturn } from '../payments/line-pay/protocol.ts';
import { afterChange } from './lifecycle.ts';
import { openAttempt } from './checkout.ts';
import { clock, type ChangeDeps } from './order-deps.ts';
import { recordFailed, recordPaid } from './payment-results.ts';
import * as repo from './repo.ts';

/**
 * An order paid with LINE Pay (Online API v3, docs/decisions/045-line-pay.md). The shop asks LINE
 * for a payment (Request) when the member leaves for LINE Pay's page, and takes the money (Confirm)
 * when the browser comes back to the confirm URL, always for the amount of its own attempt. Each
 * attempt has its own orderId at LINE (the attempt's number), so paying again never meets 1172.
 */

/** How long one confirmation may be in flight before another request may take it over. */
const CONFIRM_CLAIM_MS = 60_000;

type Deps = ChangeDeps & { readonly linePay: LinePayClient };

/** Where the browser goes next. */
export type LinePayStep = { readonly redirect: string };

const payCompleteOf = (orderNo: string) => `/payComplete?order=${encodeURIComponent(orderNo)}`;

/**
 * What LINE is told was bought: one package whose products add up to its amount, which is the
 * order's total (LINE checks both sums). Lines are listed at their prices while no discount applies;
 * with a discount the goods are one product at their discounted sum (LINE has no discount line).
 */
export function linePayPackages(
  order: Pick<repo.OrderRow, 'orderNo' | 'subtotal' | 'discountTotal' | 'shippingFee' | 'total'>,
  items: ReadonlyArray<Pick<repo.OrderItemRow, 'productName' | 'variantLabel' | 'quantity' | 'unitPrice'>>,
): RequestBody['packages'] {
  const count = items.reduce((n, i) => n + i.quantity, 0);
  const goods =
    order.discountTotal === 0
      ? items.map((i) => ({
          name: `${i.productName}（${i.variantLabel}）`,
          quantity: i.quantity,
          price: i.unitPrice,
        }))
      : [
          {
            name: `商品共 ${count} 件（已折抵優惠 ${formatTwd(order.discountTotal)}）`,
            quantity: 1,
            price: order.subtotal - order.discountTotal,
          },
        ];
  const products = [
    ...goods,
    ...(order.shippingFee > 0 ? [{ name: '運費', quantity: 1, price: order.shippingFee }] : []),
  ];
  const amount = products.reduce((n, p) => n + p.price * p.quantity, 0);
  if (amount !== order.total)
    throw new Error(`LINE Pay packages add up to ${amount}, the order ${order.orderNo} to ${order.total}`);
  return [{ id: order.orderNo, amount, name: '山嵐茶事', products }];
}

/**
 * The member leaves for LINE Pay: the order's open attempt (or a new one, when the open one was
 * already sent to LINE) is requested, and the browser goes to LINE's payment page. A refusal by
 * LINE leaves the order payable with the reason (payment_failed, no mail: no payment was tried).
 */
export async function startLinePay(deps: Deps, userId: string, orderNo: string): Promise<LinePayStep> {
  const now = clock(deps);
  // The open attempt is reused until it was sent to LINE (each request needs an orderId of its own).
  const { order, attempt } = await deps.db.transaction((tx) =>
    openAttempt(tx, userId, orderNo, now, {
      method: 'line_pay',
      reuse: (latest) => latest.status === 'pending' && !latest.tradeNo,
    }),
  );
  const items = await repo.itemsOf(deps.db, order.id);
  const base = deps.publicUrl;
  const result = await deps.linePay.request({
    amount: attempt.amount,
    currency: 'TWD',
    orderId: attempt.merchantTradeNo,
    packages: linePayPackages(order, items),
    redirectUrls: {
      confirmUrl: `${base}/api/payments/linepay/confirm`,
      cancelUrl: `${base}/api/payments/linepay/cancel?orderId=${encodeURIComponent(attempt.merchantTradeNo)}`,
    },
    options: { display: { locale: 'zh_TW' } },
  });
  const info = result.ok
    ? (result.answer.info as { transactionId?: unknown; paymentUrl?: { web?: unknown } })
    : null;
  const transactionId = typeof info?.transactionId === 'string' ? info.transactionId : '';
  const web = typeof info?.paymentUrl?.web === 'string' ? info.paymentUrl.web : '';
  if (
    result.ok &&
    result.answer.returnCode === '0000' &&
    TRANSACTION_ID.test(transactionId) &&
    /^https?:\/\//.test(web)
  ) {
    await repo.updatePayment(deps.db, attempt.id, {
      tradeNo: transactionId,
      rtnCode: '0000',
      rtnMsg: '已向 LINE Pay 建立付款，等待付款',
    });
    return { redirect: web };
  }
  const why = result.ok ? describeReturn(result.answer) : '暫時無法連線';
  await recordFailed(
    deps,
    {
      merchantTradeNo: attempt.merchantTradeNo,
      amount: attempt.amount,
      tradeNo: transactionId,
      rtnCode: result.ok ? result.answer.returnCode : 'unreachable',
      rtnMsg: `LINE Pay 無法建立付款：${why}，請稍後再試或改用其他付款方式`,
    },
    { mail: false },
  );
  return { redirect: payCompleteOf(order.orderNo) };
}

/** What the browser's return to the confirm URL did. */
export type ConfirmOutcome = 'paid' | 'already-paid' | 'failed' | 'pending' | 'not-payable' | 'refused';

/**
 * The browser is back at the confirm URL with LINE's transactionId and our orderId. The pair must
 * be one the shop requested (else nothing changes: forged or replayed); the money is confirmed once
 * (a claim on the attempt; a paid attempt is answered as paid), for the attempt's own amount, and
 * only while the order can still be paid (a reservation completed after expiry is never taken).
 */
export async function confirmLinePay(
  deps: Deps,
  query: { transactionId: string; orderId: string },
): Promise<LinePayStep & { outcome: ConfirmOutcome }> {
  const { transactionId, orderId } = query;
  const refused = { redirect: payCompleteOf(''), outcome: 'refused' as const };
  if (!TRANSACTION_ID.test(transactionId) || !/^TW\d{14}P\d{1,3}$/.test(orderId)) return refused;
  const payment = await repo.findPayment(deps.db, orderId);
  if (!payment || payment.method !== 'line_pay' || payment.tradeNo !== transactionId) return refused;
  const order = await repo.findById(deps.db, payment.orderId);
  if (!order) return refused;
  const back = payCompleteOf(order.orderNo);
  if (payment.status === 'paid') return { redirect: back, outcome: 'already-paid' };
  if (payment.status !== 'pending') return { redirect: back, outcome: 'not-payable' };
  const now = clock(deps);
  if (!OPEN_UNPAID.includes(order.status) || (order.expiresAt && order.expiresAt <= now)) {
    // Paid by another attempt, cancelled or expired: LINE's reservation is left to lapse, unpaid.
    return { redirect: back, outcome: 'not-payable' };
  }
  if (!(await repo.claimConfirmation(deps.db, payment.id, now, new Date(now.getTime() - CONFIRM_CLAIM_MS))))
    return { redirect: back, outcome: 'pending' };
  try {
    const notice = { merchantTradeNo: orderId, amount: payment.amount, tradeNo: transactionId };
    const outcome = await settle(deps, notice, await deps.linePay.confirm(transactionId, payment.amount));
    return { redirect: back, outcome };
  } finally {
    await repo.releaseConfirmation(deps.db, payment.id);
  }
}

/** Confirm's answer made into the attempt's outcome; an unclear one is asked about (Check Payment Status). */
async function settle(
  deps: Deps,
  notice: { merchantTradeNo: string; amount: number; tradeNo: string },
  result: LinePayResult,
): Promise<ConfirmOutcome> {
  const paid = async () => {
    await recordPaid(deps, { ...notice, rtnCode: '0000', rtnMsg: 'LINE Pay 付款完成' });
    return 'paid' as const;
  };
  if (result.ok && result.answer.returnCode === '0000') {
    const info = (result.answer.info ?? {}) as {
      orderId?: unknown;
      transactionId?: unknown;
      payInfo?: unknown;
    };
    const payInfo = Array.isArray(info.payInfo) ? (info.payInfo as Array<{ amount?: unknown }>) : null;
    const total = payInfo?.reduce((n, p) => n + (typeof p.amount === 'number' ? p.amount : 0), 0);
    if (
      (info.orderId !== undefined && info.orderId !== notice.merchantTradeNo) ||
      (info.transactionId !== undefined && info.transactionId !== notice.tradeNo) ||
      (total !== undefined && total !== notice.amount)
    ) {
      return failed(deps, notice, 'mismatch', 'LINE Pay 回覆的付款資料與訂單不符，請聯絡客服');
    }
    return paid();
  }
  // 1172/1198 (done or in progress already) or no answer at all: LINE's own record decides.
  if (!result.ok || ['1172', '1198', '1152'].includes(result.answer.returnCode)) {
    const check = await deps.linePay.check(notice.tradeNo);
    const code = check.ok ? check.answer.returnCode : 'unreachable';
    if (code === '0123') return paid();
    if (code === '0121' || code === '0122')
      return failed(
        deps,
        notice,
        code,
        `LINE Pay ${describeReturn(check.ok ? check.answer : { returnCode: code, returnMessage: '' })}`,
      );
    return 'pending';
  }
  return failed(deps, notice, result.answer.returnCode, `LINE Pay ${describeReturn(result.answer)}`);
}

async function failed(
  deps: Deps,
  notice: { merchantTradeNo: string; amount: number; tradeNo: string },
  rtnCode: string,
  rtnMsg: string,
): Promise<'failed'> {
  await recordFailed(deps, { ...notice, rtnCode, rtnMsg });
  return 'failed';
}

/**
 * The member cancelled on LINE Pay's page (cancelUrl). Their own open attempt is closed with
 * 「已取消 LINE Pay 付款」 and a history note; the order stays as it was, payable until its
 * deadline. Anyone else's visit changes nothing.
 */
export async function cancelLinePay(
  deps: ChangeDeps,
  userId: string | null,
  orderId: string,
): Promise<LinePayStep> {
  const payment = /^TW\d{14}P\d{1,3}$/.test(orderId) ? await repo.findPayment(deps.db, orderId) : null;
  if (!payment || payment.method !== 'line_pay') return { redirect: payCompleteOf('') };
  const now = clock(deps);
  const changed = await deps.db.transaction(async (tx) => {
    const order = await repo.findById(tx, payment.orderId, { forUpdate: true });
    if (!order || order.userId !== userId) return { order, changed: false };
    const locked = await repo.findPayment(tx, orderId, { forUpdate: true });
    if (!locked || locked.status !== 'pending' || locked.confirmingAt) return { order, changed: false };
    await repo.updatePayment(tx, locked.id, {
      status: 'failed',
      rtnCode: 'cancelled',
      rtnMsg: LINE_PAY_CANCELLED,
    });
    await repo.insertEvent(tx, {
      orderId: order.id,
      kind: 'status',
      status: order.status,
      note: LINE_PAY_CANCELLED,
      createdAt: now,
    });
    return { order, changed: true };
  });
  if (changed.order && changed.changed) await afterChange(deps, changed.order, 'status');
  return { redirect: payCompleteOf(changed.order?.orderNo ?? '') };
}
