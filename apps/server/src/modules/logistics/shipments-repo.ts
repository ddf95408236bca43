import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { logisticsNotices, orders, shipments } from '../../db/schema.ts';

export type ShipmentRow = typeof shipments.$inferSelect;

export async function latestForOrder(db: DbOrTx, orderId: string): Promise<ShipmentRow | null> {
  const [row] = await db
    .select()
    .from(shipments)
    .where(eq(shipments.orderId, orderId))
    .orderBy(desc(shipments.createdAt))
    .limit(1);
  return row ?? null;
}

export async function attemptsForOrder(db: DbOrTx, orderId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(shipments)
    .where(eq(shipments.orderId, orderId));
  return row?.n ?? 0;
}

export async function insertShipment(
  db: DbOrTx,
  values: typeof shipments.$inferInsert,
): Promise<ShipmentRow> {
  const [row] = await db.insert(shipments).values(values).returning();
  return row!;
}

export async function byLogisticsId(
  db: DbOrTx,
  logisticsId: string,
  opts: { forUpdate?: boolean } = {},
): Promise<ShipmentRow | null> {
  const q = db.select().from(shipments).where(eq(shipments.logisticsId, logisticsId)).limit(1);
  const [row] = opts.forUpdate ? await q.for('update') : await q;
  return row ?? null;
}

export async function setStatus(
  db: DbOrTx,
  id: string,
  statusCode: number,
  statusMessage: string,
  at: Date,
): Promise<void> {
  await db.update(shipments).set({ statusCode, statusMessage, updatedAt: at }).where(eq(shipments.id, id));
}

/** Records a notice once; false when the same notice (logistics id, code, time) was recorded before. */
export async function recordNotice(
  db: DbOrTx,
  values: typeof logisticsNotices.$inferInsert,
): Promise<boolean> {
  const rows = await db
    .insert(logisticsNotices)
    .values(values)
    .onConflictDoNothing()
    .returning({ code: logisticsNotices.statusCode });
  return rows.length > 0;
}

export async function noticeSeen(
  db: DbOrTx,
  notice: { logisticsId: string; statusCode: number; statusDate: string },
): Promise<boolean> {
  const [row] = await db
    .select({ code: logisticsNotices.statusCode })
    .from(logisticsNotices)
    .where(
      and(
        eq(logisticsNotices.logisticsId, notice.logisticsId),
        eq(logisticsNotices.statusCode, notice.statusCode),
        eq(logisticsNotices.statusDate, notice.statusDate),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** The UpdateStatusDate of every notice recorded for a parcel. */
export async function noticeDates(db: DbOrTx, logisticsId: string): Promise<string[]> {
  const rows = await db
    .select({ date: logisticsNotices.statusDate })
    .from(logisticsNotices)
    .where(eq(logisticsNotices.logisticsId, logisticsId));
  return rows.map((r) => r.date);
}

/** The newest parcel of each of these orders (by order number), for printing labels. */
export async function latestForOrders(
  db: DbOrTx,
  orderNos: readonly string[],
): Promise<Array<ShipmentRow & { orderNo: string }>> {
  if (orderNos.length === 0) return [];
  const rows = await db
    .select({ shipment: shipments, orderNo: orders.orderNo })
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .where(inArray(orders.orderNo, [...orderNos]))
    .orderBy(desc(shipments.createdAt));
  const seen = new Set<string>();
  return rows
    .filter((r) => !seen.has(r.orderNo) && seen.add(r.orderNo))
    .map((r) => ({ ...r.shipment, orderNo: r.orderNo }));
}
