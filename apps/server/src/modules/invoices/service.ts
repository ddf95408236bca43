import type { IssuedInvoiceView } from '@shop/shared/orders';
import { moneyArrivesAt, type OrderStatus } from '@shop/shared/order-status';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { InvoiceDetails } from '../../db/schema.ts';
import { PermanentDeliveryError, enqueueOutbox, outboxStatus } from '../../plugins/outbox.ts';
import { readAllowanceNotice, refundLine, voidDeadline, type InvoiceChoice } from './ecpay-invoice-fields.ts';
import { type EinvoiceError, type EinvoiceSettings } from './ecpay-invoice-protocol.ts';
import { type InvoiceClient, type IssuedInvoice } from './ecpay-invoice-client.ts';
import {
  allowanceMail,
  allowanceRequestedMail,
  invoiceIssuedMail,
  invoiceVoidedMail,
  type MailInvoice,
} from './mails.ts';
import { periodOf, prizeOf } from './awards.ts';
import type { InvoiceDeps, InvoiceSubject } from './invoice-deps.ts';
import * as repo from './repo.ts';

export type { InvoiceDeps, InvoiceSubject } from './invoice-deps.ts';

/**
 * The shop's uniform e-invoices (docs/decisions/015-e-invoices.md): issued through ECPay's B2C API
 * when a sale is final enough (an order paid by card or ATM; a cash-on-delivery order delivered),
 * voided when the whole order is cancelled or refunded within the invoice's filing period, and
 * credited with an allowance (折讓) after it or for part of the money. Each call follows the change
 * through the outbox (written in the change's transaction), so none is lost or made twice.
 */

const clock = (deps: Pick<InvoiceDeps, 'now'>) => (deps.now ? deps.now() : new Date());

/** Where ECPay posts the buyer's consent to an online allowance (its ReturnURL). */
export const ALLOWANCE_RESULT_PATH = '/api/invoices/ecpay/allowance-result';

/** How long ECPay's consent link stays valid, used when its answer carries no expiry (?p=15391: 72 hours). */
const CONSENT_MS = 72 * 3600_000;

export type AllowanceState = 'pending' | 'issued' | 'expired';

/** Issued; waiting for the buyer's consent; or lapsed, the buyer not having agreed within 72 hours. */
export function allowanceState(a: Pick<repo.AllowanceRow, 'state' | 'expiresAt'>, now: Date): AllowanceState {
  if (a.state === 'issued') return 'issued';
  return a.expiresAt && now.getTime() > a.expiresAt.getTime() ? 'expired' : 'pending';
}

/** What the allowances take off the invoice: issued ones and those still waiting (ECPay holds their amount). */
const creditedSum = (allowances: readonly repo.AllowanceRow[], now: Date) =>
  allowances.filter((a) => allowanceState(a, now) !== 'expired').reduce((sum, a) => sum + a.amount, 0);

/** 'yyyy-MM-dd HH:mm:ss' in Taiwan time (as ECPay writes dates) as an instant; null when it is not one. */
function taipeiInstant(text: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text)) return null;
  const at = new Date(`${text.replace(' ', 'T')}+08:00`);
  return Number.isNaN(at.getTime()) ? null : at;
}

export { voidDeadline };

export const INVOICE_KINDS = {
  issue: 'invoice.issue',
  void: 'invoice.void',
  allowance: 'invoice.allowance',
} as const;
export const issueKey = (orderNo: string) => `${INVOICE_KINDS.issue}:${orderNo}`;

/** Statuses in which nothing is sold (yet, or any more): no invoice is issued for them. */
const NOTHING_SOLD: readonly OrderStatus[] = [
  'pending_payment',
  'payment_failed',
  'expired',
  'cancelled',
  'refunded',
];

/**
 * Called by the orders' one door inside the transaction of every status change: writes the
 * invoice work the change brings. A card or ATM order is invoiced when paid, a cash-on-delivery
 * order when delivered (the money changes hands then); a cancelled or refunded order has its
 * invoice voided, if one was ever asked for.
 */
export async function invoiceFollowUp(
  tx: Tx,
  order: { id: string; orderNo: string; paymentMethod: string },
  to: OrderStatus,
  reason: string | null,
): Promise<void> {
  if (to === moneyArrivesAt(order.paymentMethod)) {
    await enqueueOutbox(tx, {
      kind: INVOICE_KINDS.issue,
      key: issueKey(order.orderNo),
      payload: { orderId: order.id, orderNo: order.orderNo },
      summary: `開立發票：訂單 ${order.orderNo}`,
    });
  }
  if (
    (to === 'cancelled' || to === 'refunded') &&
    (await outboxStatus(tx, issueKey(order.orderNo))) !== null
  ) {
    await enqueueOutbox(tx, {
      kind: INVOICE_KINDS.void,
      key: `${INVOICE_KINDS.void}:${order.orderNo}`,
      payload: {
        orderId: order.id,
        orderNo: order.orderNo,
        reason: reason ?? (to === 'cancelled' ? '訂單取消' : '訂單退款'),
      },
      summary: `作廢發票：訂單 ${order.orderNo}`,
    });
  }
}

/** A credit on the order's invoice for `amount` (a partial refund), once per `key`. */
export async function requestAllowance(
  tx: Tx,
  order: { id: string; orderNo: string },
  key: string,
  amount: number,
  reason: string,
): Promise<void> {
  await enqueueOutbox(tx, {
    kind: INVOICE_KINDS.allowance,
    key: `${INVOICE_KINDS.allowance}:${key}`,
    payload: { orderId: order.id, orderNo: order.orderNo, key, amount, reason },
    summary: `發票折讓 ${amount} 元：訂單 ${order.orderNo}`,
  });
}

function choiceOf(details: InvoiceDetails): InvoiceChoice {
  switch (details.type) {
    case 'mobile':
      return { type: 'mobile', barcode: details.mobileBarcode ?? '' };
    case 'certificate':
      return { type: 'certificate', certificate: details.certificate ?? '' };
    case 'donation':
      return { type: 'donation', loveCode: details.donationCode ?? '' };
    case 'company':
      return { type: 'company', taxId: details.taxId ?? '', title: details.companyTitle ?? '' };
    case 'member':
      return { type: 'member' };
  }
}

/** A failure to retry (the service is away, the answer unreadable), or one that no retry mends. */
function failure(error: EinvoiceError): Error {
  const text = `${error.kind}: ${error.message}`;
  return error.kind === 'unavailable' || error.kind === 'malformed'
    ? new Error(text)
    : new PermanentDeliveryError(text);
}

const mailInvoice = (
  s: InvoiceSubject,
  row: Pick<repo.InvoiceRow, 'invoiceNo' | 'invoiceDate' | 'randomNumber' | 'amount' | 'issuedTo'>,
): MailInvoice => ({
  orderNo: s.orderNo,
  email: s.buyer.email,
  name: s.buyer.name,
  invoiceNo: row.invoiceNo,
  invoiceDate: row.invoiceDate,
  randomNumber: row.randomNumber,
  amount: row.amount,
  issuedTo: row.issuedTo,
});

/** The outbox handler of `invoice.issue`: issues the order's invoice once, or finds the one already issued. */
export async function issueInvoice(
  deps: InvoiceDeps,
  payload: { orderId: string },
  attempt: number,
): Promise<void> {
  const subject = await deps.subject(deps.db, payload.orderId);
  if (!subject || NOTHING_SOLD.includes(subject.status)) return;
  if (await repo.findByOrder(deps.db, subject.orderId)) return;

  let issuedTo = subject.invoice;
  let note: string | null = null;
  if (issuedTo.unverified && (issuedTo.type === 'mobile' || issuedTo.type === 'donation')) {
    // Accepted at checkout while ECPay's check was down: checked now. One that does not exist
    // goes to the member carrier instead, and the mail says so; a check still down does not hold
    // the invoice back (ECPay's own advice).
    const check =
      issuedTo.type === 'mobile'
        ? await deps.client.checkBarcode(issuedTo.mobileBarcode ?? '')
        : await deps.client.checkLoveCode(issuedTo.donationCode ?? '');
    if (check.ok && !check.value.exists) {
      note =
        issuedTo.type === 'mobile'
          ? `您填寫的手機條碼 ${issuedTo.mobileBarcode} 查無資料，發票改存入綠界會員載具。`
          : `您填寫的愛心碼 ${issuedTo.donationCode} 查無受贈單位，發票改存入綠界會員載具。`;
      issuedTo = { type: 'member' };
    } else {
      const { unverified: _checked, ...rest } = issuedTo;
      issuedTo = rest;
    }
  }

  // A try after a failure first asks whether the last one went through (ECPay keeps RelateNumber unique).
  if (attempt > 1) {
    const found = await deps.client.getIssue({ relateNumber: subject.orderNo });
    if (found.ok) return keepIssued(deps, subject, issuedTo, found.value, note);
  }
  const result = await deps.client.issue({
    relateNumber: subject.orderNo,
    lines: subject.lines,
    shippingFee: subject.shippingFee,
    discountTotal: subject.discountTotal,
    buyer: {
      name: subject.buyer.name,
      email: subject.buyer.email,
      phone: subject.buyer.phone,
      address: subject.buyer.address,
    },
    invoice: choiceOf(issuedTo),
    // The term goes on the invoice too, so the buyer's records and the card statement agree.
    remark: `山嵐茶事訂單 ${subject.orderNo}${subject.installments ? `；信用卡分 ${subject.installments} 期` : ''}`,
  });
  if (result.ok) return keepIssued(deps, subject, issuedTo, result.value, note);
  if (result.error.kind === 'rejected') {
    // Refused as a repeat, perhaps: an earlier try that answered too late did issue it.
    const found = await deps.client.getIssue({ relateNumber: subject.orderNo });
    if (found.ok) return keepIssued(deps, subject, issuedTo, found.value, note);
  }
  throw failure(result.error);
}

async function keepIssued(
  deps: InvoiceDeps,
  subject: InvoiceSubject,
  issuedTo: InvoiceDetails,
  issued: IssuedInvoice,
  note: string | null,
): Promise<void> {
  const row = {
    orderId: subject.orderId,
    relateNumber: subject.orderNo,
    invoiceNo: issued.invoiceNo,
    invoiceDate: issued.invoiceDate,
    randomNumber: issued.randomNumber,
    amount: subject.total,
    issuedTo,
  };
  await deps.db.transaction(async (tx) => {
    if (!(await repo.insertInvoice(tx, row))) return;
    if (subject.buyer.verified)
      await deps.mailer.enqueue(tx, invoiceIssuedMail(mailInvoice(subject, row), deps.publicUrl, note));
  });
  deps.mailer.flush();
}

/** The outbox handler of `invoice.void`: voids within the filing period, credits the rest after it. */
export async function voidInvoice(
  deps: InvoiceDeps,
  payload: { orderId: string; orderNo: string; reason: string },
): Promise<void> {
  const invoice = await repo.findByOrder(deps.db, payload.orderId);
  if (!invoice) {
    // Still being issued: wait for it (the issue itself skips an order that is no longer sold).
    if ((await outboxStatus(deps.db, issueKey(payload.orderNo))) === 'pending')
      throw new Error('the invoice is still being issued; it is voided once issued');
    return;
  }
  if (invoice.status === 'void') return;
  const subject = await deps.subject(deps.db, payload.orderId);
  if (!subject) return;
  const now = clock(deps);
  // After its filing period, or once part of it was credited (ECPay voids no invoice with
  // allowances), what is left is credited instead of voided.
  const credited = creditedSum(await repo.allowancesOf(deps.db, invoice.id), now);
  if (credited > 0 || now.getTime() > voidDeadline(invoice.invoiceDate).getTime()) {
    if (invoice.amount - credited > 0)
      await creditInvoice(
        deps,
        subject,
        invoice,
        `void:${payload.orderNo}`,
        invoice.amount - credited,
        payload.reason,
      );
    return;
  }
  const result = await deps.client.invalid({
    invoiceNo: invoice.invoiceNo,
    invoiceDate: invoice.invoiceDate,
    reason: payload.reason,
  });
  if (!result.ok) {
    const found =
      result.error.kind === 'rejected'
        ? await deps.client.getIssue({ invoiceNo: invoice.invoiceNo, invoiceDate: invoice.invoiceDate })
        : null;
    // Voided by an earlier try whose answer was lost.
    if (!found?.ok || !found.value.voided) {
      // Refused because ECPay's deadline passed while the request was on its way: credit instead.
      if (
        result.error.kind === 'rejected' &&
        clock(deps).getTime() > voidDeadline(invoice.invoiceDate).getTime()
      ) {
        return creditInvoice(
          deps,
          subject,
          invoice,
          `void:${payload.orderNo}`,
          invoice.amount - credited,
          payload.reason,
        );
      }
      throw failure(result.error);
    }
  }
  await deps.db.transaction(async (tx) => {
    await repo.markVoid(tx, invoice.id, payload.reason, now);
    if (subject.buyer.verified)
      await deps.mailer.enqueue(
        tx,
        invoiceVoidedMail(mailInvoice(subject, invoice), payload.reason, deps.publicUrl),
      );
  });
  deps.mailer.flush();
}

/** The outbox handler of `invoice.allowance`: a credit for part of the money, never above what is left. */
export async function allowInvoice(
  deps: InvoiceDeps,
  payload: { orderId: string; orderNo: string; key: string; amount: number; reason: string },
): Promise<void> {
  const invoice = await repo.findByOrder(deps.db, payload.orderId);
  if (!invoice) {
    if ((await outboxStatus(deps.db, issueKey(payload.orderNo))) === 'pending')
      throw new Error('the invoice is still being issued; the allowance follows it');
    throw new PermanentDeliveryError('這筆訂單沒有開立發票，無法折讓');
  }
  if (invoice.status === 'void') throw new PermanentDeliveryError('發票已作廢，無法折讓');
  const subject = await deps.subject(deps.db, payload.orderId);
  if (!subject) return;
  await creditInvoice(deps, subject, invoice, payload.key, payload.amount, payload.reason);
}

/**
 * Asks ECPay for an online-consent allowance (線上開立折讓): ECPay mails the buyer, who agrees online
 * within 72 hours; only then is it issued (`allowanceResult`). Until then it is kept as pending and
 * holds its amount. The buyer's signed paper 折讓證明單 the paper call needs is never collected, so
 * the shop does not use that call.
 */
async function creditInvoice(
  deps: InvoiceDeps,
  subject: InvoiceSubject,
  invoice: repo.InvoiceRow,
  key: string,
  amount: number,
  reason: string,
): Promise<void> {
  const earlier = await repo.allowancesOf(deps.db, invoice.id);
  if (earlier.some((a) => a.key === key)) return;
  const now = clock(deps);
  const left = invoice.amount - creditedSum(earlier, now);
  if (!Number.isInteger(amount) || amount <= 0 || amount > left)
    throw new PermanentDeliveryError(`折讓金額 ${amount} 元超過發票剩餘可折讓的 ${left} 元`);
  const result = await deps.client.allowanceByCollegiate({
    invoiceNo: invoice.invoiceNo,
    invoiceDate: invoice.invoiceDate,
    lines: [refundLine(amount)],
    customerName: subject.buyer.name,
    notifyEmail: subject.buyer.email,
    returnUrl: `${deps.publicUrl}${ALLOWANCE_RESULT_PATH}`,
  });
  if (!result.ok) throw failure(result.error);
  const expiresAt = taipeiInstant(result.value.expiresAt) ?? new Date(now.getTime() + CONSENT_MS);
  await deps.db.transaction(async (tx) => {
    if (
      !(await repo.insertAllowance(tx, {
        invoiceId: invoice.id,
        key,
        allowanceNo: result.value.allowanceNo,
        amount,
        reason,
        state: 'pending',
        expiresAt,
      }))
    )
      return;
    if (subject.buyer.verified)
      await deps.mailer.enqueue(
        tx,
        allowanceRequestedMail(
          mailInvoice(subject, invoice),
          { no: result.value.allowanceNo, amount, expiresAt },
          deps.publicUrl,
        ),
      );
  });
  deps.mailer.flush();
}

/**
 * ECPay's post to ReturnURL once the buyer agreed to an online allowance: checked (CheckMacValue),
 * the allowance marked issued once, and the member told. Answers what ECPay expects: `1|OK` when
 * the notice was taken (also for one already taken), `0|…` when it is not ECPay's.
 */
export async function allowanceResult(
  deps: InvoiceDeps,
  settings: Pick<EinvoiceSettings, 'hashKey' | 'hashIV'>,
  form: Readonly<Record<string, string>>,
): Promise<string> {
  const notice = readAllowanceNotice(form, settings);
  if (!notice) return '0|CheckMacValue Error';
  if (!notice.agreed) return '1|OK';
  const invoice = await repo.findByInvoiceNo(deps.db, notice.invoiceNo);
  if (!invoice) return '0|Unknown invoice';
  const subject = await deps.subject(deps.db, invoice.orderId);
  await deps.db.transaction(async (tx) => {
    const issued = await repo.markAllowanceIssued(
      tx,
      invoice.id,
      notice.allowanceNo,
      taipeiInstant(notice.date) ?? clock(deps),
    );
    if (issued && subject?.buyer.verified)
      await deps.mailer.enqueue(
        tx,
        allowanceMail(
          mailInvoice(subject, invoice),
          { no: issued.allowanceNo, amount: issued.amount },
          deps.publicUrl,
        ),
      );
  });
  deps.mailer.flush();
  return '1|OK';
}

/** The order's invoice as the member and staff see it: issued (with its allowances), voided, being issued, or none. */
export async function invoiceView(
  db: DbOrTx,
  order: { id: string; orderNo: string },
  now: () => Date = () => new Date(),
): Promise<IssuedInvoiceView | null> {
  const invoice = await repo.findByOrder(db, order.id);
  if (!invoice) {
    const pending = await outboxStatus(db, issueKey(order.orderNo));
    return pending === 'pending' || pending === 'failed' ? { status: 'pending' } : null;
  }
  const allowances = await repo.allowancesOf(db, invoice.id);
  const at = now();
  return {
    status: invoice.status,
    invoiceNo: invoice.invoiceNo,
    invoiceDate: invoice.invoiceDate,
    randomNumber: invoice.randomNumber,
    amount: invoice.amount,
    voidReason: invoice.voidReason,
    award: invoice.awardFlag === '1' ? awardView(invoice) : null,
    allowances: allowances.map((a) => ({
      allowanceNo: a.allowanceNo,
      amount: a.amount,
      reason: a.reason,
      state: allowanceState(a, at),
      createdAt: a.createdAt.toISOString(),
      expiresAt: a.expiresAt?.toISOString() ?? null,
      issuedAt: (a.issuedAt ?? (a.state === 'issued' ? a.createdAt : null))?.toISOString() ?? null,
    })),
  };
}

function awardView(invoice: repo.InvoiceRow) {
  const prize = prizeOf(invoice.awardType ?? '');
  const period = periodOf(Number(invoice.invoiceDate.slice(0, 4)), Number(invoice.invoiceDate.slice(5, 7)));
  return { label: '已中獎' as const, prize: prize.name, amount: prize.amount, claimUntil: period.claimUntil };
}

export type CarrierCheck = 'valid' | 'invalid' | 'unverified';

/**
 * Asks ECPay whether a mobile barcode or donation code exists, answering from a cache: a code
 * found is trusted for a day, one not found for ten minutes (it may just have been registered).
 * While the checking service is down the answer is `unverified`: checkout accepts the code and the
 * invoice checks it again before it is issued.
 */
export function carrierChecker(client: InvoiceClient, now: () => number = Date.now) {
  const cache = new Map<string, { result: 'valid' | 'invalid'; until: number }>();
  const LIMIT = 5_000;
  return async (kind: 'mobile' | 'donation', code: string): Promise<CarrierCheck> => {
    const key = `${kind}:${code}`;
    const hit = cache.get(key);
    if (hit && hit.until > now()) return hit.result;
    const answer = kind === 'mobile' ? await client.checkBarcode(code) : await client.checkLoveCode(code);
    if (!answer.ok) return 'unverified';
    const result = answer.value.exists ? 'valid' : 'invalid';
    cache.delete(key);
    cache.set(key, { result, until: now() + (result === 'valid' ? 24 * 3600_000 : 10 * 60_000) });
    // Oldest out first: a Map keeps insertion order.
    while (cache.size > LIMIT) cache.delete(cache.keys().next().value!);
    return result;
  };
}

/** Drops personal carrier numbers from a member's invoices, in the caller's transaction (repo.ts). */
export function forgetCarriers(db: DbOrTx, userId: string): Promise<void> {
  return repo.forgetCarriersOf(db, userId);
}
