import { and, count, desc, eq, gte, ilike, lt, or, sql, type SQL } from 'drizzle-orm';
import type { AdminOrderFilters, PaymentState } from '@shop/shared/admin-orders';
import type { DbOrTx } from '../../db/client.ts';
import { auditLog, orders, payments, users } from '../../db/schema.ts';
import { containsPattern } from '../../db/like.ts';
import { readTogether } from '../../db/reads.ts';

/** The console's order queries: the filtered list, its CSV rows, and one order's payments, customer and audit rows. */

const DAY_MS = 86_400_000;
/** Midnight of a Taipei calendar day (yyyy-mm-dd). */
const taipeiMidnight = (day: string) => new Date(`${day}T00:00:00+08:00`);

// drizzle leaves the table name off columns in some selects; the correlated subqueries name it by hand.
const ORDER_ID = sql.raw('"orders"."id"');
const itemCountSql = sql<number>`(select coalesce(sum(i.quantity), 0)::int from order_items i where i.order_id = ${ORDER_ID})`;
const paymentStateSql = sql<PaymentState | null>`(select p.status from payments p where p.order_id = ${ORDER_ID} order by p.created_at desc, p.id desc limit 1)`;
const latestShipment = (column: 'carrier' | 'tracking_no') =>
  sql<
    string | null
  >`(select e.${sql.raw(column)} from order_events e where e.order_id = ${ORDER_ID} and e.kind = 'shipment' and e.${sql.raw(column)} is not null order by e.created_at desc, e.id desc limit 1)`;

/** The SQL condition for the list's filters (the customer is joined as `users`). */
function filterWhere(f: AdminOrderFilters): SQL | undefined {
  const where: SQL[] = [];
  if (f.status) where.push(eq(orders.status, f.status));
  if (f.payment) where.push(eq(orders.paymentMethod, f.payment));
  if (f.shipping) where.push(sql`${orders.shipping}->>'method' = ${f.shipping}`);
  if (f.from) where.push(gte(orders.createdAt, taipeiMidnight(f.from)));
  if (f.to) where.push(lt(orders.createdAt, new Date(taipeiMidnight(f.to).getTime() + DAY_MS)));
  const q = f.q?.trim();
  if (q) {
    const pattern = containsPattern(q);
    const anyOf: SQL[] = [
      ilike(orders.orderNo, pattern),
      ilike(users.email, pattern),
      ilike(users.displayName, pattern),
      sql`${orders.shipping}->>'recipientName' ilike ${pattern}`,
    ];
    // Phones are stored as digits: 「0912-345-678」 finds 0912345678.
    const digits = q.replace(/[\s()-]/g, '');
    if (/^\+?\d{3,}$/.test(digits)) {
      const local = digits.startsWith('+886') ? `0${digits.slice(4)}` : digits;
      anyOf.push(sql`${orders.shipping}->>'phone' like ${`%${local}%`}`);
      anyOf.push(sql`coalesce(${users.phone}, '') like ${`%${local}%`}`);
    }
    where.push(or(...anyOf)!);
  }
  return where.length ? and(...where) : undefined;
}

/** One page of orders matching the filters, newest first, and how many match in all. */
export async function listPage(db: DbOrTx, filters: AdminOrderFilters, limit: number, offset: number) {
  const where = filterWhere(filters);
  const [rows, [total]] = await readTogether(db, [
    () =>
      db
        .select({
          orderNo: orders.orderNo,
          createdAt: orders.createdAt,
          status: orders.status,
          paymentMethod: orders.paymentMethod,
          shipping: orders.shipping,
          total: orders.total,
          customerName: users.displayName,
          customerEmail: users.email,
          itemCount: itemCountSql,
          paymentState: paymentStateSql,
        })
        .from(orders)
        .innerJoin(users, eq(users.id, orders.userId))
        .where(where)
        .orderBy(desc(orders.createdAt), desc(orders.id))
        .limit(limit)
        .offset(offset),
    () => db.select({ n: count() }).from(orders).innerJoin(users, eq(users.id, orders.userId)).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

/** The CSV export's rows for the filters, newest first. */
export async function exportRows(db: DbOrTx, filters: AdminOrderFilters, limit: number) {
  return db
    .select({
      orderNo: orders.orderNo,
      createdAt: orders.createdAt,
      status: orders.status,
      paymentMethod: orders.paymentMethod,
      shipping: orders.shipping,
      subtotal: orders.subtotal,
      discountTotal: orders.discountTotal,
      shippingFee: orders.shippingFee,
      total: orders.total,
      note: orders.note,
      customerName: users.displayName,
      customerEmail: users.email,
      itemCount: itemCountSql,
      paymentState: paymentStateSql,
      carrier: latestShipment('carrier'),
      trackingNo: latestShipment('tracking_no'),
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(filterWhere(filters))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit);
}

export async function paymentsOf(db: DbOrTx, orderId: string) {
  return db
    .select()
    .from(payments)
    .where(eq(payments.orderId, orderId))
    .orderBy(payments.createdAt, payments.id);
}

export async function customerOf(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({ id: users.id, name: users.displayName, email: users.email, phone: users.phone })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

/** The console's audit rows about one order, newest first. */
export async function auditOf(db: DbOrTx, orderNo: string, limit: number) {
  return db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'order'), eq(auditLog.entityId, orderNo)))
    .orderBy(desc(auditLog.id))
    .limit(limit);
}
