import { randomUUID } from 'node:crypto';
import { and, desc, eq, getTableColumns, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { OPEN_COD, OPEN_UNPAID } from '@shop/shared/order-status';
import type { DbOrTx } from '../../db/client.ts';
import { orderEvents, orderItems, orders, payments, products, users } from '../../db/schema.ts';
import { IS_SALE, PAID_AT, SALE_AMOUNT } from '../../db/money-rules.ts';
import { rows } from '../../db/rows.ts';

export type OrderRow = typeof orders.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type OrderEventRow = typeof orderEvents.$inferSelect;

/**
 * The order number as the insert draws it: the day's prefix (`TW20261126`) and the next number of
 * the sequence, at least 6 digits (formatOrderNo's format), in the insert itself, not a round trip of its own.
 */
const drawnOrderNo = (prefix: string) =>
  sql<string>`(select ${prefix} || case when length(n) < 6 then lpad(n, 6, '0') else n end from (select nextval('order_number_seq')::text as n) drawn)`;

/** Counts the order's lines as sold; answers the products whose counts moved. */
export async function addSoldCount(db: DbOrTx, orderId: string): Promise<string[]> {
  const result = await db.execute(sql`
    update products p set sold_count = p.sold_count + s.qty
    from (select product_id, sum(quantity)::int as qty from order_items where order_id = ${orderId} and product_id is not null group by product_id) s
    where p.id = s.product_id
    returning p.id`);
  return rows<{ id: string }>(result).map((r) => r.id);
}

/** A new order as checkout writes it: the order, its first event and, unless paid on delivery, its first payment attempt. */
export interface NewOrder {
  readonly order: Omit<typeof orders.$inferInsert, 'id' | 'orderNo'>;
  /** `TW` and the day: the order number is this and the next number of the sequence. */
  readonly orderNoPrefix: string;
  readonly event: Omit<typeof orderEvents.$inferInsert, 'orderId'>;
  /** Its trade number is the order's number and `P1`. */
  readonly payment: Omit<typeof payments.$inferInsert, 'orderId' | 'merchantTradeNo'> | null;
  /** The names of the lines to come, to be told the order `itemsOf` will list them in. */
  readonly itemNames: readonly string[];
}

/**
 * A row as `row_to_json` gives it, as drizzle would have read it: each column by its name, turned
 * into its TypeScript value by the column itself (timestamps into dates); JSON columns come parsed.
 */
function fromJson<T extends PgTable>(table: T, json: Record<string, unknown>): T['$inferSelect'] {
  const out: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = json[column.name];
    out[key] =
      value === null || value === undefined
        ? null
        : column.columnType === 'PgJsonb' || column.columnType === 'PgJson'
          ? value
          : column.mapFromDriverValue(value);
  }
  return out as T['$inferSelect'];
}

/**
 * Writes a new order, its first event and payment attempt in one statement (one round trip instead
 * of three) and answers the rows as written, with the positions of `itemNames` in the order
 * `itemsOf` lists lines (by name, as the database sorts text). The lines themselves are written by
 * the stock service with the sale (catalog/stock.ts, `takeStockForOrderLines`). The caller has checked the idempotency key under the account's lock, so the key is free.
 * (The rows come back as JSON: a select over the inserts' columns costs more to build than the
 * round trips it saves.)
 */
export async function insertNewOrder(
  db: DbOrTx,
  values: NewOrder,
): Promise<{ order: OrderRow; event: OrderEventRow; payment: PaymentRow | null; nameOrder: number[] }> {
  const orderId = randomUUID();
  const payment = values.payment
    ? sql`, p as (${db
        .insert(payments)
        .values({
          ...values.payment,
          orderId,
          merchantTradeNo: sql<string>`(select order_no from o) || 'P1'`,
        })
        .getSQL()} returning *)`
    : sql``;
  const result = await db.execute(sql`
    with o as (${db
      .insert(orders)
      .values({ ...values.order, id: orderId, orderNo: drawnOrderNo(values.orderNoPrefix) })
      .getSQL()} returning *),
    e as (${db
      .insert(orderEvents)
      .values({ ...values.event, orderId })
      .getSQL()} returning *)${payment}
    select (select row_to_json(o) from o) as "order", (select row_to_json(e) from e) as event,
      ${values.payment ? sql`(select row_to_json(p) from p)` : sql`null::json`} as payment,
      (select array_agg(n.i::int order by n.name, n.i) from unnest(${sql.param([...values.itemNames])}::text[]) with ordinality as n(name, i)) as name_order`);
  const [row] = rows<{
    order: Record<string, unknown>;
    event: Record<string, unknown>;
    payment: Record<string, unknown> | null;
    name_order: number[] | null;
  }>(result);
  return {
    order: fromJson(orders, row!.order),
    event: fromJson(orderEvents, row!.event),
    payment: row!.payment ? fromJson(payments, row!.payment) : null,
    nameOrder: (row!.name_order ?? []).map((i) => Number(i) - 1),
  };
}

/** Order lines as the stock service wrote them (JSON, `takeStockForOrderLines`), as drizzle reads them. */
export function itemsFromJson(json: ReadonlyArray<Record<string, unknown>>): OrderItemRow[] {
  return json.map((item) => fromJson(orderItems, item));
}

export type OrderItemRow = typeof orderItems.$inferSelect;

export async function insertEvent(db: DbOrTx, values: typeof orderEvents.$inferInsert): Promise<void> {
  await db.insert(orderEvents).values(values);
}

export async function findByIdempotencyKey(
  db: DbOrTx,
  userId: string,
  key: string,
): Promise<OrderRow | null> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)))
    .limit(1);
  return row ?? null;
}

export async function findByOrderNo(
  db: DbOrTx,
  orderNo: string,
  opts: { forUpdate?: boolean } = {},
): Promise<OrderRow | null> {
  const query = db.select().from(orders).where(eq(orders.orderNo, orderNo)).limit(1);
  const [row] = opts.forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

export async function findById(
  db: DbOrTx,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<OrderRow | null> {
  const query = db.select().from(orders).where(eq(orders.id, id)).limit(1);
  const [row] = opts.forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

/** Moves an order from one of `from` to `to`; false when another change got there first. */
export async function setStatus(
  db: DbOrTx,
  id: string,
  from: readonly OrderRow['status'][],
  to: OrderRow['status'],
  extra: Partial<typeof orders.$inferInsert> = {},
): Promise<boolean> {
  const result = await db
    .update(orders)
    .set({ ...extra, status: to, updatedAt: sql`now()` })
    .where(and(eq(orders.id, id), inArray(orders.status, [...from])))
    .returning({ id: orders.id });
  return result.length > 0;
}

/** An unpaid order's payment deadline (an issued ATM account brings its own). */
export async function setDeadline(db: DbOrTx, id: string, expiresAt: Date): Promise<void> {
  await db
    .update(orders)
    .set({ expiresAt, updatedAt: sql`now()` })
    .where(eq(orders.id, id));
}

export async function itemsOf(db: DbOrTx, orderId: string) {
  return db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(orderItems.productName);
}

export async function eventsOf(db: DbOrTx, orderId: string) {
  return db
    .select()
    .from(orderEvents)
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(orderEvents.createdAt, orderEvents.id);
}

export async function latestPayment(db: DbOrTx, orderId: string): Promise<PaymentRow | null> {
  const [row] = await db
    .select()
    .from(payments)
    .where(eq(payments.orderId, orderId))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return row ?? null;
}

export async function countPayments(db: DbOrTx, orderId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(payments)
    .where(eq(payments.orderId, orderId));
  return row?.n ?? 0;
}

export async function insertPayment(db: DbOrTx, values: typeof payments.$inferInsert): Promise<PaymentRow> {
  const [row] = await db.insert(payments).values(values).returning();
  if (!row) throw new Error('payment insert returned nothing');
  return row;
}

export async function findPayment(
  db: DbOrTx,
  merchantTradeNo: string,
  opts: { forUpdate?: boolean } = {},
): Promise<PaymentRow | null> {
  const query = db.select().from(payments).where(eq(payments.merchantTradeNo, merchantTradeNo)).limit(1);
  const [row] = opts.forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

export async function updatePayment(
  db: DbOrTx,
  id: string,
  values: Partial<typeof payments.$inferInsert>,
): Promise<void> {
  await db
    .update(payments)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(payments.id, id));
}

export async function listForUser(
  db: DbOrTx,
  userId: string,
  statuses: readonly OrderRow['status'][] | null,
  limit: number,
  offset: number,
) {
  const where = statuses
    ? and(eq(orders.userId, userId), inArray(orders.status, [...statuses]))
    : eq(orders.userId, userId);
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
  const [row] = await db
    .select({ shipping: orders.shipping })
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(1);
  return row?.shipping ?? null;
}

export async function countForUser(
  db: DbOrTx,
  userId: string,
  statuses: readonly OrderRow['status'][] | null,
): Promise<number> {
  const where = statuses
    ? and(eq(orders.userId, userId), inArray(orders.status, [...statuses]))
    : eq(orders.userId, userId);
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(where);
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
  const [row] = await db
    .select({ email: users.email, name: users.displayName, emailVerifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}

/**
 * Locks the ordering account's row for the rest of the transaction, so one account's checkouts
 * take turns: the open-order count and the cart each of them reads cannot change underneath it.
 * Answers what the order's mails need of the account too.
 */
export async function lockAccount(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({ email: users.email, name: users.displayName, emailVerifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1)
    .for('update');
  return row ?? null;
}

/** What holds stock without having been paid: unpaid card/ATM orders still in time, and cash on delivery not yet shipped. */
const openCounts = (now: Date) => ({
  unpaid: sql<number>`count(*) filter (where ${orders.paymentMethod} <> 'cod' and ${inArray(orders.status, [...OPEN_UNPAID])} and (${orders.expiresAt} is null or ${orders.expiresAt} > ${now.toISOString()}::timestamptz))::int`,
  cod: sql<number>`count(*) filter (where ${orders.paymentMethod} = 'cod' and ${inArray(orders.status, [...OPEN_COD])})::int`,
});

/** An account's orders that hold stock without having been paid: unpaid card/ATM ones still in time, and cash on delivery not yet shipped. */
export async function openOrderCounts(
  db: DbOrTx,
  userId: string,
  now: Date,
): Promise<{ unpaid: number; cod: number }> {
  const [row] = await db
    .select(openCounts(now))
    .from(orders)
    .where(and(eq(orders.userId, userId), inArray(orders.status, [...OPEN_UNPAID, ...OPEN_COD])));
  return { unpaid: Number(row?.unpaid ?? 0), cod: Number(row?.cod ?? 0) };
}

/**
 * What a checkout checks on the locked account, in one round trip: the order already made with
 * this idempotency key (its id), and the open orders the limits count.
 */
export async function checkoutState(
  db: DbOrTx,
  userId: string,
  idempotencyKey: string,
  now: Date,
): Promise<{ earlierId: string | null; unpaid: number; cod: number }> {
  const [row] = await db
    .select({
      ...openCounts(now),
      earlierId: sql<
        string | null
      >`(array_agg(${orders.id}) filter (where ${orders.idempotencyKey} = ${idempotencyKey}))[1]`,
    })
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        or(inArray(orders.status, [...OPEN_UNPAID, ...OPEN_COD]), eq(orders.idempotencyKey, idempotencyKey)),
      ),
    );
  return { earlierId: row?.earlierId ?? null, unpaid: Number(row?.unpaid ?? 0), cod: Number(row?.cod ?? 0) };
}

export async function productStatusOf(db: DbOrTx, productId: string) {
  const [row] = await db
    .select({ status: products.status })
    .from(products)
    .where(eq(products.id, productId))
    .limit(1);
  return row?.status ?? null;
}

/** A new pickup store for an order whose store closed (the rest of the shipping details stay). */
export async function setShipping(db: DbOrTx, id: string, shipping: OrderRow['shipping']): Promise<void> {
  await db
    .update(orders)
    .set({ shipping, updatedAt: sql`now()` })
    .where(eq(orders.id, id));
}

/**
 * The morning digest's figures for [from, to): sales paid then and what they are worth
 * (db/money-rules.ts), cash-on-delivery orders placed then, orders waiting to be shipped, and
 * messages the outbox gave up on.
 */
export async function digestFigures(db: DbOrTx, from: string, to: string) {
  const paidThen = sql`${IS_SALE} and ${PAID_AT} >= ${from}::timestamptz and ${PAID_AT} < ${to}::timestamptz`;
  const placedThen = sql`payment_method = 'cod' and created_at >= ${from}::timestamptz and created_at < ${to}::timestamptz`;
  const [figures] = rows<{
    paid: string | number;
    paid_total: string | number | null;
    cod: string | number;
    cod_total: string | number | null;
    to_ship: string | number;
    failed: string | number;
  }>(
    await db.execute(sql`select
      (select count(*) from orders o where ${paidThen}) as paid,
      (select sum(${SALE_AMOUNT}) from orders o where ${paidThen}) as paid_total,
      (select count(*) from orders where ${placedThen}) as cod,
      (select sum(total) from orders where ${placedThen}) as cod_total,
      (select count(*) from orders where status in ('paid', 'processing')) as to_ship,
      (select count(*) from outbox_messages where status = 'failed') as failed`),
  );
  return figures;
}

/**
 * LINE Pay: claims the confirmation of a pending attempt (docs/decisions/045). True for the one
 * request that may call Confirm now; a claim older than `staleBefore` (its request died) is taken over.
 */
export async function claimConfirmation(
  db: DbOrTx,
  paymentId: string,
  now: Date,
  staleBefore: Date,
): Promise<boolean> {
  const rows = await db
    .update(payments)
    .set({ confirmingAt: now, updatedAt: sql`now()` })
    .where(
      and(
        eq(payments.id, paymentId),
        eq(payments.status, 'pending'),
        or(isNull(payments.confirmingAt), lt(payments.confirmingAt, staleBefore)),
      ),
    )
    .returning({ id: payments.id });
  return rows.length > 0;
}

/** Ends a claim made by `claimConfirmation`, whatever the outcome. */
export async function releaseConfirmation(db: DbOrTx, paymentId: string): Promise<void> {
  await db.update(payments).set({ confirmingAt: null }).where(eq(payments.id, paymentId));
}
