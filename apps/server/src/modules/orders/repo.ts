import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { OPEN_COD, OPEN_UNPAID } from '@shop/shared/order-status';
import type { DbOrTx } from '../../db/client.ts';
import { orderEvents, orderItems, orders, payments, products, users } from '../../db/schema.ts';
import { rows } from '../../db/rows.ts';

export type OrderRow = typeof orders.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type OrderEventRow = typeof orderEvents.$inferSelect;

export async function nextOrderNumber(db: DbOrTx): Promise<number> {
  const result = rows<{ n: string }>(await db.execute(sql`select nextval('order_number_seq')::text as n`));
  return Number(result[0]?.n ?? 0);
}

export async function addSoldCount(db: DbOrTx, orderId: string): Promise<void> {
  await db.execute(sql`
    update products p set sold_count = p.sold_count + s.qty
    from (select product_id, sum(quantity)::int as qty from order_items where order_id = ${orderId} and product_id is not null group by product_id) s
    where p.id = s.product_id`);
}

export async function insertOrder(db: DbOrTx, values: typeof orders.$inferInsert): Promise<OrderRow | null> {
  const [row] = await db.insert(orders).values(values).onConflictDoNothing({ target: [orders.userId, orders.idempotencyKey] }).returning();
  return row ?? null;
}

export async function insertItems(db: DbOrTx, values: Array<typeof orderItems.$inferInsert>): Promise<void> {
  if (values.length > 0) await db.insert(orderItems).values(values);
}

export async function insertEvent(db: DbOrTx, values: typeof orderEvents.$inferInsert): Promise<void> {
  await db.insert(orderEvents).values(values);
}

export async function findByIdempotencyKey(db: DbOrTx, userId: string, key: string): Promise<OrderRow | null> {
  const [row] = await db.select().from(orders).where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key))).limit(1);
  return row ?? null;
}

export async function findByOrderNo(db: DbOrTx, orderNo: string, opts: { forUpdate?: boolean } = {}): Promise<OrderRow | null> {
  const query = db.select().from(orders).where(eq(orders.orderNo, orderNo)).limit(1);
  const [row] = opts.forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

export async function findById(db: DbOrTx, id: string, opts: { forUpdate?: boolean } = {}): Promise<OrderRow | null> {
  const query = db.select().from(orders).where(eq(orders.id, id)).limit(1);
  const [row] = opts.forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

/** Moves an order from one of `from` to `to`; false when another change got there first. */
export async function setStatus(db: DbOrTx, id: string, from: readonly OrderRow['status'][], to: OrderRow['status'], extra: Partial<typeof orders.$inferInsert> = {}): Promise<boolean> {
  const result = await db
    .update(orders)
    .set({ ...extra, status: to, updatedAt: sql`now()` })
    .where(and(eq(orders.id, id), inArray(orders.status, [...from])))
    .returning({ id: orders.id });
  return result.length > 0;
}

/** An unpaid order's payment deadline (an issued ATM account brings its own). */
export async function setDeadline(db: DbOrTx, id: string, expiresAt: Date): Promise<void> {
  await db.update(orders).set({ expiresAt, updatedAt: sql`now()` }).where(eq(orders.id, id));
}

export async function itemsOf(db: DbOrTx, orderId: string) {
  return db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(orderItems.productName);
}

export async function eventsOf(db: DbOrTx, orderId: string) {
  return db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId)).orderBy(orderEvents.createdAt, orderEvents.id);
}

export async function latestPayment(db: DbOrTx, orderId: string): Promise<PaymentRow | null> {
  const [row] = await db.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(desc(payments.createdAt)).limit(1);
  return row ?? null;
}

export async function countPayments(db: DbOrTx, orderId: string): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(payments).where(eq(payments.orderId, orderId));
  return row?.n ?? 0;
}

export async function insertPayment(db: DbOrTx, values: typeof payments.$inferInsert): Promise<PaymentRow> {
  const [row] = await db.insert(payments).values(values).returning();
  if (!row) throw new Error('payment insert returned nothing');
  return row;
}

export async function findPayment(db: DbOrTx, merchantTradeNo: string, opts: { forUpdate?: boolean } = {}): Promise<PaymentRow | null> {
  const query = db.select().from(payments).where(eq(payments.merchantTradeNo, merchantTradeNo)).limit(1);
  const [row] = opts.forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

export async function updatePayment(db: DbOrTx, id: string, values: Partial<typeof payments.$inferInsert>): Promise<void> {
  await db.update(payments).set({ ...values, updatedAt: sql`now()` }).where(eq(payments.id, id));
}

export async function listForUser(db: DbOrTx, userId: string, statuses: readonly OrderRow['status'][] | null, limit: number, offset: number) {
  const where = statuses ? and(eq(orders.userId, userId), inArray(orders.status, [...statuses])) : eq(orders.userId, userId);
  const result = await db
    .select({
      order: orders,
      // "orders"."id" by hand: drizzle leaves the table name off in a one-table select.
      itemCount: sql<number>`(select coalesce(sum(i.quantity), 0)::int from order_items i where i.order_id = "orders"."id")`,
      firstItemName: sql<string>`(select i.product_name from order_items i where i.order_id = "orders"."id" order by i.product_name limit 1)`,
      total: sql<number>`count(*) over ()`,
    })
    .from(orders)
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit)
    .offset(offset);
  return result;
}

/** Where the member's newest order went (its recipient and destination), or null. */
export async function lastShipping(db: DbOrTx, userId: string): Promise<OrderRow['shipping'] | null> {
  const [row] = await db.select({ shipping: orders.shipping }).from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.createdAt), desc(orders.id)).limit(1);
  return row?.shipping ?? null;
}

export async function countForUser(db: DbOrTx, userId: string, statuses: readonly OrderRow['status'][] | null): Promise<number> {
  const where = statuses ? and(eq(orders.userId, userId), inArray(orders.status, [...statuses])) : eq(orders.userId, userId);
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(orders).where(where);
  return row?.n ?? 0;
}

export async function overdueOrderIds(db: DbOrTx, now: Date, limit = 100): Promise<string[]> {
  const result = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(inArray(orders.status, ['pending_payment', 'payment_failed']), lt(orders.expiresAt, now)))
    .limit(limit);
  return result.map((r) => r.id);
}

/** The account an order mail would go to, with whether its address is verified. */
export async function ownerOf(db: DbOrTx, userId: string) {
  const [row] = await db.select({ email: users.email, name: users.displayName, emailVerifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, userId)).limit(1);
  return row ?? null;
}

/**
 * Locks the ordering account's row for the rest of the transaction, so one account's checkouts
 * take turns: the open-order count and the cart each of them reads cannot change underneath it.
 */
export async function lockAccount(db: DbOrTx, userId: string) {
  const [row] = await db.select({ email: users.email, emailVerifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, userId)).limit(1).for('update');
  return row ?? null;
}

/** An account's orders that hold stock without having been paid: unpaid card/ATM ones still in time, and cash on delivery not yet shipped. */
export async function openOrderCounts(db: DbOrTx, userId: string, now: Date): Promise<{ unpaid: number; cod: number }> {
  const [row] = await db
    .select({
      unpaid: sql<number>`count(*) filter (where ${orders.paymentMethod} <> 'cod' and ${inArray(orders.status, [...OPEN_UNPAID])} and (${orders.expiresAt} is null or ${orders.expiresAt} > ${now.toISOString()}::timestamptz))::int`,
      cod: sql<number>`count(*) filter (where ${orders.paymentMethod} = 'cod' and ${inArray(orders.status, [...OPEN_COD])})::int`,
    })
    .from(orders)
    .where(and(eq(orders.userId, userId), inArray(orders.status, [...OPEN_UNPAID, ...OPEN_COD])));
  return { unpaid: Number(row?.unpaid ?? 0), cod: Number(row?.cod ?? 0) };
}

export async function productStatusOf(db: DbOrTx, productId: string) {
  const [row] = await db.select({ status: products.status }).from(products).where(eq(products.id, productId)).limit(1);
  return row?.status ?? null;
}

/** A new pickup store for an order whose store closed (the rest of the shipping details stay). */
export async function setShipping(db: DbOrTx, id: string, shipping: OrderRow['shipping']): Promise<void> {
  await db.update(orders).set({ shipping, updatedAt: sql`now()` }).where(eq(orders.id, id));
}
