import { moneyReceived, type OrderStatus } from '@shop/shared/order-status';
import { refundsThroughGateway } from '@shop/shared/payment-methods';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import type { Mailer, MailMessage } from '../../plugins/mail.ts';
import { PermanentDeliveryError, enqueueOutbox } from '../../plugins/outbox.ts';
import { planRefund, type CardActions } from './ecpay/card-action.ts';
import type { LinePayClient } from './line-pay/client.ts';
import { describeReturn } from './line-pay/protocol.ts';
import * as repo from './refunds-repo.ts';
import { ConflictError } from '../../lib/errors.ts';

/**
 * Money given back on card orders (docs/decisions/016-refunds.md). When a paid card order is
 * cancelled or refunded, the order's one door writes a refund row and a `payment.refund` outbox
 * message in its transaction; the handler asks ECPay where the payment stands (trade query), picks
 * the action (give up the authorisation before the daily close, refund after it) and records the
 * outcome, and only then is the member told the money is on its way back.
 */

export const REFUND_KIND = 'payment.refund';

export interface RefundDeps {
  readonly db: Db;
  readonly card: CardActions;
  /** LINE Pay's Refund API; undefined when LINE Pay is not configured. */
  readonly linePay?: LinePayClient | undefined;
  readonly mailer: Mailer;
  /** The member's mail once the refund went through (none for an unverified address). */
  readonly doneMail: (db: DbOrTx, orderId: string, amount: number) => Promise<MailMessage | null>;
  readonly now?: () => Date;
}

export type BankAccount = { bankCode: string; account: string; holder: string };

/** What a refund is asked for: once per key, by card when the order was paid by card, else by transfer. */
export interface RefundAsk {
  readonly key: string;
  readonly amount: number;
  readonly reason: string;
  /** Transfers: the member's account, when already given. */
  readonly bank?: BankAccount | null | undefined;
}

/**
 * Writes a refund in the caller's transaction, never above what is left of the order's total: a
 * card refund also gets its `payment.refund` outbox message (ECPay's card action API); a transfer
 * (ATM, cash on delivery) waits for staff to make it and mark it done. Null when the key was
 * already used or nothing is left to give back.
 */
export async function requestRefund(
  tx: Tx,
  order: {
    id: string;
    orderNo: string;
    paymentMethod: string;
    total: number;
    installments?: number | null;
  },
  ask: RefundAsk,
): Promise<repo.RefundRow | null> {
  const left = order.total - (await repo.refundedTotal(tx, order.id));
  const amount = Math.min(ask.amount, left);
  if (!Number.isInteger(amount) || amount <= 0) return null;
  // Card and LINE Pay money goes back through the gateway; ATM, store payments and cash on delivery by transfer.
  const card = refundsThroughGateway(order.paymentMethod);
  // ECPay refunds a card paid in instalments only in full.
  if (order.paymentMethod === 'credit_card' && order.installments && amount !== order.total)
    throw installmentRefundRefused(order.installments);
  const refund = await repo.insertRefund(tx, {
    orderId: order.id,
    key: ask.key,
    method: order.paymentMethod === 'line_pay' ? 'line_pay' : card ? 'card' : 'transfer',
    amount,
    reason: ask.reason,
    bank: card ? null : (ask.bank ?? null),
  });
  if (refund && card) {
    await enqueueOutbox(tx, {
      kind: REFUND_KIND,
      key: `${REFUND_KIND}:${refund.id}`,
      payload: { refundId: refund.id },
      summary: `${order.paymentMethod === 'line_pay' ? 'LINE Pay' : '刷卡'}退款 ${amount} 元：訂單 ${order.orderNo}`,
    });
  }
  return refund;
}

/**
 * ECPay refunds an instalment (分期) card payment only in full (its card action page: 分期 and
 * 紅利折抵 trades cannot be refunded in part), so the shop refuses any part of one before asking.
 */
export const INSTALLMENT_REFUND_RULE = 'installment-refund-whole-only';
export const installmentRefundRefused = (terms: number) =>
  new ConflictError(
    `這筆訂單以信用卡分 ${terms} 期付款，綠界規定分期交易只能全額退刷，不能退部分金額。請改為整筆訂單退款（取消或全額退款），或與顧客另行約定。`,
    INSTALLMENT_REFUND_RULE,
  );

/**
 * Called by the orders' one door inside the transaction of a move to cancelled or refunded: an
 * order whose money was taken (a paid card or ATM order; a cash-on-delivery order refunded after
 * delivery) gets its whole remaining amount back. True when a refund was written: the member's
 * mail then waits for the money to move (ECPay's answer, or staff's transfer).
 */
export async function refundFollowUp(
  tx: Tx,
  order: {
    id: string;
    orderNo: string;
    paymentMethod: string;
    status: OrderStatus;
    paidAt: Date | null;
    total: number;
  },
  to: OrderStatus,
  reason: string | null,
  bank?: BankAccount | null,
): Promise<boolean> {
  if (to !== 'cancelled' && to !== 'refunded') return false;
  if (!moneyReceived(order)) return false;
  const refund = await requestRefund(tx, order, {
    key: `order:${order.orderNo}:whole`,
    amount: order.total,
    reason: reason ?? (to === 'cancelled' ? '訂單取消' : '訂單退款'),
    bank,
  });
  return refund !== null;
}

/** The member gives (or corrects) the account of their order's transfers still waiting for one. */
export async function setRefundAccount(tx: Tx, orderId: string, bank: BankAccount): Promise<number> {
  return repo.setTransferAccount(tx, orderId, bank);
}

/**
 * Staff made the transfer: the refund is done and the member told. False when it was not a
 * pending transfer with an account (done already, or still without one).
 */
export async function markTransferDone(
  deps: Pick<RefundDeps, 'db' | 'mailer' | 'doneMail' | 'now'>,
  refundId: string,
  note: string,
  inTransaction?: (tx: Tx, refund: repo.RefundRow) => Promise<void>,
): Promise<repo.RefundRow | null> {
  const done = await deps.db.transaction(async (tx) => {
    const refund = await repo.findRefund(tx, refundId);
    if (!refund || refund.method !== 'transfer' || refund.status !== 'pending' || !refund.bank) return null;
    if (
      !(await repo.settleRefund(tx, refund.id, 'done', note || '已轉帳', deps.now ? deps.now() : new Date()))
    )
      return null;
    await inTransaction?.(tx, refund);
    const mail = await deps.doneMail(tx, refund.orderId, refund.amount);
    if (mail) await deps.mailer.enqueue(tx, mail);
    return refund;
  });
  deps.mailer.flush();
  return done;
}

/** Transfers staff still have to make (or wait for the member's account for), oldest first. */
export async function transferTasks(db: DbOrTx) {
  return repo.pendingTransfers(db);
}

/** The outbox handler of `payment.refund`: once per refund, never more than the card paid. */
export async function refundCard(
  deps: RefundDeps,
  payload: { refundId: string },
  attempt: number,
): Promise<void> {
  const refund = await repo.findRefund(deps.db, payload.refundId);
  if (!refund || refund.status !== 'pending') return;
  if (refund.method === 'line_pay') return refundLinePay(deps, refund, attempt);
  const payment = await repo.paidPayment(deps.db, refund.orderId, 'credit_card');
  if (!payment?.tradeNo) throw new PermanentDeliveryError('找不到這筆訂單的刷卡紀錄，請到綠界廠商後台退款');
  if (!payment.gwsr)
    throw new PermanentDeliveryError('刷卡紀錄沒有授權碼（gwsr），無法向綠界查詢；請到綠界廠商後台退款');
  const trade = {
    merchantTradeNo: payment.merchantTradeNo,
    tradeNo: payment.tradeNo,
    gwsr: payment.gwsr,
    amount: payment.amount,
  };
  const query = await deps.card.query(trade);
  if (!query.ok) {
    if (query.code === 'unreachable') throw new Error(`trade query: ${query.message}`);
    throw new PermanentDeliveryError(`綠界查詢交易失敗：${query.message}`);
  }
  const earlier = await repo.refundedTotal(deps.db, refund.orderId, refund.id);
  // A try after an uncertain one: ECPay's own figures show whether it went through.
  if (
    attempt > 1 &&
    (query.trade.stage === 'void' ||
      ((query.trade.stage === 'closed' || query.trade.stage === 'closing') &&
        query.trade.closedAmount <= payment.amount - earlier - refund.amount))
  ) {
    return finish(deps, refund, `ECPay 已處理（重試前查詢：${query.trade.status}）`);
  }
  const plan = planRefund({
    stage: query.trade.stage,
    paidAmount: payment.amount,
    alreadyRefunded: earlier,
    amount: refund.amount,
  });
  if (!plan.ok) {
    // Waiting for the daily close or for ECPay to finish: tried again later. Anything else needs staff.
    if (plan.reason === 'partial_before_close' || plan.reason === 'in_progress')
      throw new Error(plan.message);
    throw new PermanentDeliveryError(plan.message);
  }
  const outcome = await deps.card.refund(trade, plan);
  if (outcome.ok)
    return finish(deps, refund, `${plan.steps.map((s) => s.action).join('→')}：${outcome.rtnMsg}`);
  if (outcome.uncertain) throw new Error(`${outcome.failedStep}: ${outcome.message}`);
  throw new PermanentDeliveryError(
    `綠界拒絕${outcome.failedStep === 'R' ? '退刷' : outcome.failedStep === 'N' ? '放棄授權' : '取消關帳'}：${outcome.message}`,
  );
}

/**
 * A LINE Pay refund (Refund API, `refundAmount`). A try after one whose answer was lost first reads
 * the payment's refundList (Payment Details): when LINE already gave back this refund's share, it is
 * recorded as done instead of being made twice.
 */
async function refundLinePay(deps: RefundDeps, refund: repo.RefundRow, attempt: number): Promise<void> {
  const payment = await repo.paidPayment(deps.db, refund.orderId, 'line_pay');
  if (!payment?.tradeNo)
    throw new PermanentDeliveryError('找不到這筆訂單的 LINE Pay 付款紀錄，請到 LINE Pay 商家後台退款');
  if (!deps.linePay) throw new PermanentDeliveryError('LINE Pay 未設定，請到 LINE Pay 商家後台退款');
  const earlier = await repo.refundedTotal(deps.db, refund.orderId, refund.id, 'done');
  if (attempt > 1) {
    const details = await deps.linePay.details(payment.tradeNo);
    if (!details.ok) throw new Error(`LINE Pay payment details: ${details.unreachable}`);
    const refundedAtLine = linePayRefunded(details.answer.info);
    if (details.answer.returnCode === '0000' && refundedAtLine >= earlier + refund.amount)
      return finish(deps, refund, `LINE Pay 已退款（重試前查詢：已退 ${refundedAtLine} 元）`);
  }
  const result = await deps.linePay.refund(payment.tradeNo, refund.amount);
  if (!result.ok) throw new Error(`LINE Pay refund: ${result.unreachable}`);
  const { returnCode } = result.answer;
  if (returnCode === '0000') {
    const info = (result.answer.info ?? {}) as { refundTransactionId?: unknown };
    const id = typeof info.refundTransactionId === 'string' ? info.refundTransactionId : '';
    return finish(deps, refund, `LINE Pay 退款完成${id ? `（退款交易 ${id}）` : ''}`);
  }
  // Busy or a duplicate in progress: tried again later (and asked about first).
  if (returnCode === '1198' || returnCode === '9000') throw new Error(`LINE Pay refund: ${returnCode}`);
  throw new PermanentDeliveryError(`LINE Pay 拒絕退款：${describeReturn(result.answer)}`);
}

/** What Payment Details says was refunded of a payment (the refundList's amounts, given as negatives or positives). */
function linePayRefunded(info: unknown): number {
  const first = Array.isArray(info) ? (info[0] as { refundList?: unknown } | undefined) : undefined;
  const list = Array.isArray(first?.refundList)
    ? (first.refundList as Array<{ refundAmount?: unknown }>)
    : [];
  return list.reduce((n, r) => n + (typeof r.refundAmount === 'number' ? Math.abs(r.refundAmount) : 0), 0);
}

async function finish(deps: RefundDeps, refund: repo.RefundRow, result: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    if (!(await repo.settleRefund(tx, refund.id, 'done', result, deps.now ? deps.now() : new Date()))) return;
    const mail = await deps.doneMail(tx, refund.orderId, refund.amount);
    if (mail) await deps.mailer.enqueue(tx, mail);
  });
  deps.mailer.flush();
}

/** The refunds of an order, for the member's and staff's order pages. */
export async function refundViews(db: DbOrTx, orderId: string) {
  return (await repo.refundsOf(db, orderId)).map((r) => ({
    method: r.method,
    amount: r.amount,
    reason: r.reason,
    status: r.status,
    createdAt: r.createdAt.toISOString(),
    doneAt: r.doneAt?.toISOString() ?? null,
    needsAccount: r.method === 'transfer' && r.status === 'pending' && !r.bank,
  }));
}
