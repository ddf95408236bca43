import { atmDeadline } from '@shop/shared/atm';
import { storeDeadline, storeDeadlineInstant } from '@shop/shared/store-payments';
import type { StoreCode } from '../../db/schema.ts';
import { OPEN_UNPAID } from '@shop/shared/order-status';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { stockChanged } from '../catalog/service.ts';
import { reclaimCouponUses } from '../membership/service.ts';
import { enqueueOrderMails, type ChangeExtra } from './notify.ts';
import { orderRefundedMail } from './mails.ts';
import * as repo from './repo.ts';
import { clock, type ChangeDeps } from './order-deps.ts';
import { failedPaymentMessage } from './read-models.ts';
import {
  afterChange,
  prepareParcelLater,
  cartChanged,
  moveRefusal,
  applyTransition,
  type MovedOrder,
} from './lifecycle.ts';

/**
 * What ECPay's payment notices do to an order (the payments module calls these): paid, failed, an
 * ATM account issued; a late payment restores an expired order only when everything can be taken
 * again. Each change goes through lifecycle.ts.
 */

export type PaymentOutcome = 'ok' | 'unknown-trade' | 'amount-mismatch' | 'method-mismatch';

export interface PaidNotice {
  merchantTradeNo: string;
  amount: number;
  tradeNo: string;
  rtnCode: string;
  rtnMsg: string;
  /** Card: the authorisation number (gwsr), for a later refund. */
  gwsr?: string | undefined;
}

/**
 * A successful payment notification. Idempotent: a repeated notice changes nothing. A payment
 * that arrives after its order expired takes the stock back if it is still there.
 */
export async function recordPaid(deps: ChangeDeps, notice: PaidNotice): Promise<PaymentOutcome> {
  const now = clock(deps);
  let cartTaken = false;
  let soldProducts: string[] = [];
  const result = await deps.db
    .transaction(async (tx) => {
      cartTaken = false;
      soldProducts = [];
      const payment = await repo.findPayment(tx, notice.merchantTradeNo, { forUpdate: true });
      if (!payment) return { outcome: 'unknown-trade' as const };
      if (payment.amount !== notice.amount) return { outcome: 'amount-mismatch' as const };
      if (payment.status === 'paid') return { outcome: 'ok' as const };
      await repo.updatePayment(tx, payment.id, {
        status: 'paid',
        tradeNo: notice.tradeNo,
        rtnCode: notice.rtnCode,
        rtnMsg: notice.rtnMsg,
        paidAt: now,
        gwsr: notice.gwsr ?? null,
      });
      const order = await repo.findById(tx, payment.orderId, { forUpdate: true });
      if (!order) return { outcome: 'ok' as const };
      const latePayment = order.status === 'expired';
      // Through the one door like every other change: a paid notice for an order that can no longer
      // be paid (cancelled, refunded, already paid) is refused there and changes nothing but its note.
      const refusal = moveRefusal(order, { to: 'paid', latePayment });
      if (refusal) {
        await repo.insertEvent(tx, {
          orderId: order.id,
          kind: 'status',
          status: order.status,
          note: '訂單取消後收到款項，客服會為您辦理退款',
          createdAt: now,
        });
        return { outcome: 'ok' as const, order };
      }
      if (latePayment) {
        // Back to paid only by taking again everything expiry gave back: the stock, and the coupon
        // uses within their limits. Otherwise the whole attempt rolls back (docs/product-rules.md).
        let restored: MovedOrder;
        try {
          restored = await applyTransition(
            tx,
            order,
            {
              to: 'paid',
              latePayment,
              note: '逾期後收到款項，商品仍有庫存，訂單恢復成立',
              extra: { paidAt: now },
            },
            now,
          );
        } catch (error) {
          if (error instanceof AppError && error.code === 'insufficient-stock')
            throw new LatePaymentNotRestored(order.id, '逾期後收到款項，但商品已售完，客服會為您辦理退款');
          throw error;
        }
        if (!(await reclaimCouponUses(tx, order)))
          throw new LatePaymentNotRestored(
            order.id,
            '逾期後收到款項，但訂單使用的優惠券已無法再使用，客服會為您辦理退款',
          );
        cartTaken = restored.cartChanged === true;
      } else {
        await applyTransition(tx, order, { to: 'paid', note: '付款完成', extra: { paidAt: now } }, now);
      }
      soldProducts = await repo.addSoldCount(tx, order.id);
      const paid = { ...order, status: 'paid' as const, paidAt: now };
      await enqueueOrderMails(tx, deps, paid, 'paid');
      await prepareParcelLater(tx, deps, paid);
      return { outcome: 'ok' as const, order: paid, paid: true };
    })
    .catch(async (error: unknown) => {
      // Not restored: keep the payment on record (outside the failed transaction) for a refund.
      if (!(error instanceof LatePaymentNotRestored)) throw error;
      const payment = await repo.findPayment(deps.db, notice.merchantTradeNo);
      if (payment)
        await repo.updatePayment(deps.db, payment.id, {
          status: 'paid',
          tradeNo: notice.tradeNo,
          rtnCode: notice.rtnCode,
          rtnMsg: notice.rtnMsg,
          paidAt: now,
        });
      await repo.insertEvent(deps.db, {
        orderId: error.orderId,
        kind: 'status',
        status: 'expired',
        note: error.note,
        createdAt: now,
      });
      return { outcome: 'ok' as const };
    });
  if ('order' in result && result.order) {
    // Sales counts (and, for a late payment, stock taken again) moved: only those products' lists change.
    if ('paid' in result && result.paid) stockChanged(soldProducts);
    await afterChange(deps, result.order, 'paid' in result && result.paid ? 'paid' : 'status');
    if (cartTaken) await cartChanged(deps, result.order.userId);
  }
  return result.outcome;
}

class LatePaymentNotRestored extends Error {
  constructor(
    readonly orderId: string,
    readonly note: string,
  ) {
    super('late payment could not restore the order');
  }
}

/**
 * A failed payment: the attempt and the order say why, and the member is mailed (`mail: false`
 * for a payment that never reached the gateway's page, e.g. LINE Pay refusing the request).
 */
export async function recordFailed(
  deps: ChangeDeps,
  notice: PaidNotice,
  opts: { mail?: boolean } = {},
): Promise<PaymentOutcome> {
  const now = clock(deps);
  const result = await deps.db.transaction(async (tx) => {
    const payment = await repo.findPayment(tx, notice.merchantTradeNo, { forUpdate: true });
    if (!payment) return { outcome: 'unknown-trade' as const };
    if (payment.amount !== notice.amount) return { outcome: 'amount-mismatch' as const };
    if (payment.status !== 'pending') return { outcome: 'ok' as const };
    await repo.updatePayment(tx, payment.id, {
      status: 'failed',
      tradeNo: notice.tradeNo,
      rtnCode: notice.rtnCode,
      rtnMsg: notice.rtnMsg,
    });
    const order = await repo.findById(tx, payment.orderId, { forUpdate: true });
    if (!order || order.status !== 'pending_payment') return { outcome: 'ok' as const };
    const failed = await applyTransition(
      tx,
      order,
      { to: 'payment_failed', note: failedPaymentMessage(notice.rtnMsg) },
      now,
    );
    if (opts.mail !== false)
      await enqueueOrderMails(tx, deps, failed, 'status', { note: failedPaymentMessage(notice.rtnMsg) });
    return { outcome: 'ok' as const, order: failed };
  });
  if ('order' in result && result.order) await afterChange(deps, result.order, 'status');
  return result.outcome;
}

/**
 * ATM virtual account issued: shown to the member and mailed, and the account's own deadline
 * becomes the order's (until then the order had only the short hold). An account issued for an
 * order that is no longer waiting for payment changes nothing and is not mailed: a transfer to it
 * is handled as a late payment (docs/product-rules.md).
 */
export async function recordAtmInfo(
  deps: ChangeDeps,
  notice: PaidNotice & { bankCode: string; account: string; expireDate: string },
): Promise<PaymentOutcome> {
  const atm = { bankCode: notice.bankCode, account: notice.account, expireDate: notice.expireDate };
  // ExpireDate is a Taiwan date (yyyy/MM/dd): the account closes at the end of that day.
  return recordIssued(deps, notice, {
    method: 'atm',
    patch: { atm },
    deadline: storeDeadlineInstant(notice.expireDate.slice(0, 10)),
    note: `已取得 ATM 虛擬帳號，請於 ${atmDeadline(notice.expireDate)} 前轉帳`,
    mail: { kind: 'atm-info', extra: { atm } },
  });
}

/**
 * A CVS code or the three barcodes issued (RtnCode 10100073): as for ATM, shown, mailed, and
 * ExpireDate (Taiwan time, to the minute) becomes the order's deadline, so the unpaid-order sweep
 * cancels the order and gives its stock back once the code can no longer be paid.
 */
export async function recordStoreCode(
  deps: ChangeDeps,
  notice: PaidNotice & StoreCode,
): Promise<PaymentOutcome> {
  const store: StoreCode = {
    paymentNo: notice.paymentNo,
    barcodes: notice.barcodes,
    expireDate: notice.expireDate,
  };
  const what = store.barcodes ? '超商繳費條碼' : `超商繳費代碼 ${store.paymentNo ?? ''}`;
  return recordIssued(deps, notice, {
    method: store.barcodes ? 'cvs_barcode' : 'cvs_code',
    patch: { store },
    deadline: storeDeadlineInstant(notice.expireDate),
    note: `已取得${what}，請於 ${storeDeadline(notice.expireDate)} 前到超商繳費`,
    mail: { kind: 'store-code', extra: { store } },
  });
}

/** What ATM accounts and store codes share: the attempt waits for the money, the order for its new deadline. */
async function recordIssued(
  deps: ChangeDeps,
  notice: PaidNotice,
  issued: {
    /** The attempt's method the notice must be about (a barcode notice for a code attempt is refused). */
    method: repo.PaymentRow['method'];
    patch: Pick<Parameters<typeof repo.updatePayment>[2], 'atm' | 'store'>;
    /** One we cannot read leaves the short hold in place. */
    deadline: Date | null;
    note: string;
    mail: { kind: 'atm-info' | 'store-code'; extra: ChangeExtra };
  },
): Promise<PaymentOutcome> {
  const result = await deps.db.transaction(async (tx) => {
    const payment = await repo.findPayment(tx, notice.merchantTradeNo, { forUpdate: true });
    if (!payment) return { outcome: 'unknown-trade' as const };
    if (payment.amount !== notice.amount) return { outcome: 'amount-mismatch' as const };
    if (payment.method !== issued.method) return { outcome: 'method-mismatch' as const };
    if (payment.status !== 'pending') return { outcome: 'ok' as const };
    const order = await repo.findById(tx, payment.orderId, { forUpdate: true });
    if (!order || !OPEN_UNPAID.includes(order.status)) return { outcome: 'ok' as const };
    await repo.updatePayment(tx, payment.id, {
      status: 'waiting_transfer',
      tradeNo: notice.tradeNo,
      rtnCode: notice.rtnCode,
      rtnMsg: notice.rtnMsg,
      ...issued.patch,
    });
    if (issued.deadline) await repo.setDeadline(tx, order.id, issued.deadline);
    await repo.insertEvent(tx, {
      orderId: order.id,
      kind: 'status',
      status: order.status,
      note: issued.note,
      createdAt: clock(deps),
    });
    await enqueueOrderMails(tx, deps, order, issued.mail.kind, issued.mail.extra);
    return { outcome: 'ok' as const, order, issued: true };
  });
  if ('order' in result && result.order && 'issued' in result)
    await afterChange(deps, result.order, issued.mail.kind);
  return result.outcome;
}

/** The member's mail once money went back to them (the payments module sends it when ECPay confirms). */
export async function refundDoneMail(db: DbOrTx, orderId: string, amount: number, publicUrl: string) {
  const order = await repo.findById(db, orderId);
  const owner = order && (await repo.ownerOf(db, order.userId));
  if (!order || !owner?.emailVerifiedAt) return null;
  return orderRefundedMail(
    {
      orderNo: order.orderNo,
      email: owner.email,
      name: owner.name,
      total: order.total,
      paymentMethod: order.paymentMethod,
      items: [],
    },
    amount,
    publicUrl,
  );
}

/** The order of a payment attempt, for the browser's return from the gateway. */
export async function orderNoOfTrade(db: DbOrTx, merchantTradeNo: string): Promise<string | null> {
  const payment = await repo.findPayment(db, merchantTradeNo);
  if (!payment) return null;
  return (await repo.findById(db, payment.orderId))?.orderNo ?? null;
}
