import { sql, type SQL } from 'drizzle-orm';
import { COD_COLLECTED } from '@shop/shared/order-status';

/**
 * The shop's money words as SQL over an order aliased `o` (docs/product-rules.md, "Money words"),
 * each written once for every figure that counts money: the tier rule and the console's member
 * list, the dashboard, the shop's morning digest. The same words in TypeScript are in
 * @shop/shared/order-status (`COD_COLLECTED`, `moneyReceived`, `moneyArrivesAt`). Here, below the
 * modules, so that any repository may use them.
 */

const statusList = (statuses: readonly string[]) => sql.raw(statuses.map((s) => `'${s}'`).join(', '));

/** Money collected, for cash on delivery: the parcel was delivered (the money changes hands then). */
export const COD_MONEY_COLLECTED = sql`(o.payment_method = 'cod' and o.status in (${statusList(COD_COLLECTED)}))`;

/** When a cash-on-delivery order was delivered: its move to delivered in the order's history. */
const DELIVERED_AT = sql`(select min(e.created_at) from order_events e where e.order_id = o.id and e.kind = 'status' and e.status = 'delivered')`;

/**
 * Paid: when the buyer's money reached the shop, or null while it has not: a card or ATM order's
 * payment (`paid_at`), a cash-on-delivery order's delivery once its money is collected. An order
 * cancelled or refunded since stays paid: it is no longer a sale.
 */
export const PAID_AT = sql<Date | null>`(case when o.payment_method = 'cod' then case when ${COD_MONEY_COLLECTED} then ${DELIVERED_AT} end else o.paid_at end)`;

/**
 * Refunded: the money given back for the order, in whole or in part (a return), as TWD: every
 * refund written for it, waiting or done; one ECPay refused waits for staff and is not counted.
 */
export const REFUNDED = sql<number>`(select coalesce(sum(r.amount), 0) from refunds r where r.order_id = o.id and r.status <> 'failed')::int`;

/** A sale: a paid order that was not cancelled or refunded as a whole. */
export const IS_SALE = sql`(${PAID_AT} is not null and o.status not in ('cancelled', 'refunded'))`;

/** What a sale is worth: its total less the money given back for part of it. */
export const SALE_AMOUNT = sql<number>`(o.total - ${REFUNDED})`;

/**
 * Spend that counts for a tier: what the member `userRef` names (a user id, or a column such as
 * `"users"."id"`) kept of their sales paid since `since`, as one SQL expression.
 */
export function tierSpendSql(userRef: SQL, since: Date): SQL<number> {
  return sql<number>`coalesce((select sum(${SALE_AMOUNT}) from orders o where o.user_id = ${userRef}
    and ${IS_SALE} and ${PAID_AT} >= ${since.toISOString()}::timestamptz), 0)::int`;
}
