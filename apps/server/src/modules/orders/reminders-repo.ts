import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { rows } from '../../db/rows.ts';

/** How long before an ATM account's deadline its reminder goes. */
export const ATM_REMINDER_HOURS = 24;

/**
 * Unpaid card orders whose hold ends within `leadMinutes` and that have had no reminder: the ones
 * the card reminder may claim now (docs/product-rules.md#reminders).
 */
export async function cardReminderCandidates(
  db: DbOrTx,
  now: Date,
  leadMinutes: number,
  limit = 200,
): Promise<string[]> {
  return rows<{ id: string }>(
    await db.execute(sql`
      select id from orders
      where status in ('pending_payment', 'payment_failed') and payment_method = 'credit_card'
        and payment_reminder_at is null
        and expires_at > ${now}::timestamptz and expires_at <= ${now}::timestamptz + make_interval(mins => ${leadMinutes}::int)
      order by expires_at limit ${limit}`),
  ).map((r) => r.id);
}

/**
 * Unpaid ATM orders whose account closes within a day and that have had no reminder. Only an
 * account issued more than a day before its deadline: one issued later was just mailed with the
 * same words.
 */
export async function atmReminderCandidates(db: DbOrTx, now: Date, limit = 200): Promise<string[]> {
  return rows<{ id: string }>(
    await db.execute(sql`
      select o.id from orders o
      where o.status = 'pending_payment' and o.payment_method = 'atm' and o.payment_reminder_at is null
        and o.expires_at > ${now}::timestamptz
        and o.expires_at <= ${now}::timestamptz + make_interval(hours => ${ATM_REMINDER_HOURS}::int)
        and exists (
          select 1 from payments p
          where p.order_id = o.id and p.status = 'waiting_transfer' and p.atm is not null
            and p.created_at <= o.expires_at - make_interval(hours => ${ATM_REMINDER_HOURS}::int))
      order by o.expires_at limit ${limit}`),
  ).map((r) => r.id);
}

export interface ClaimedReminder {
  id: string;
  order_no: string;
  user_id: string;
  total: number;
  expires_at: Date | string;
}

/**
 * Claims an order's one payment reminder: sets `payment_reminder_at` only while no reminder was
 * claimed and the order is still unpaid, of this method, and inside its window, in one conditional
 * update. PostgreSQL re-reads the row after a concurrent change commits (a payment, a cancel, the
 * other instance's claim), so at most one claim wins and an order paid meanwhile is never claimed.
 * Null when nothing was claimed.
 */
export async function claimPaymentReminder(
  db: DbOrTx,
  orderId: string,
  method: 'credit_card' | 'atm',
  now: Date,
  windowMinutes: number,
): Promise<ClaimedReminder | null> {
  const statuses =
    method === 'credit_card' ? sql`('pending_payment', 'payment_failed')` : sql`('pending_payment')`;
  const [row] = rows<ClaimedReminder>(
    await db.execute(sql`
      update orders set payment_reminder_at = ${now}::timestamptz
      where id = ${orderId}::uuid and payment_reminder_at is null and payment_method = ${method}
        and status in ${statuses}
        and expires_at > ${now}::timestamptz and expires_at <= ${now}::timestamptz + make_interval(mins => ${windowMinutes}::int)
      returning id, order_no, user_id, total, expires_at`),
  );
  return row ?? null;
}

/** The ATM account the member is to pay into: the newest attempt waiting for a transfer. */
export async function waitingAtmAccount(
  db: DbOrTx,
  orderId: string,
): Promise<{ bankCode: string; account: string; expireDate: string } | null> {
  const [row] = rows<{ atm: { bankCode: string; account: string; expireDate: string } | null }>(
    await db.execute(sql`
      select atm from payments where order_id = ${orderId}::uuid and status = 'waiting_transfer' and atm is not null
      order by created_at desc limit 1`),
  );
  return row?.atm ?? null;
}
