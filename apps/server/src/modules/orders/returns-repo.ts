import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { orderReturnItems, orderReturns, orders, refunds, users } from '../../db/schema.ts';
import { readTogether } from '../../db/reads.ts';

export type ReturnRow = typeof orderReturns.$inferSelect;
export type ReturnItemRow = typeof orderReturnItems.$inferSelect;

export async function returnsOf(db: DbOrTx, orderId: string): Promise<ReturnRow[]> {
  return db
    .select()
    .from(orderReturns)
    .where(eq(orderReturns.orderId, orderId))
    .orderBy(orderReturns.requestedAt);
}

export async function itemsOfReturns(db: DbOrTx, returnIds: readonly string[]): Promise<ReturnItemRow[]> {
  if (returnIds.length === 0) return [];
  return db
    .select()
    .from(orderReturnItems)
    .where(inArray(orderReturnItems.returnId, [...returnIds]));
}

export async function findByReturnNo(
  db: DbOrTx,
  returnNo: string,
  opts: { forUpdate?: boolean } = {},
): Promise<ReturnRow | null> {
  const q = db.select().from(orderReturns).where(eq(orderReturns.returnNo, returnNo)).limit(1);
  const [row] = opts.forUpdate ? await q.for('update') : await q;
  return row ?? null;
}

export async function insertReturn(
  db: DbOrTx,
  values: typeof orderReturns.$inferInsert,
  items: ReadonlyArray<Omit<typeof orderReturnItems.$inferInsert, 'returnId'>>,
): Promise<ReturnRow> {
  const [row] = await db.insert(orderReturns).values(values).returning();
  await db.insert(orderReturnItems).values(items.map((i) => ({ ...i, returnId: row!.id })));
  return row!;
}

/** Moves a return from one status to the next; false when it had moved already. */
export async function setReturnStatus(
  db: DbOrTx,
  id: string,
  from: ReturnRow['status'],
  values: Partial<typeof orderReturns.$inferInsert> & { status: ReturnRow['status'] },
): Promise<boolean> {
  const rows = await db
    .update(orderReturns)
    .set(values)
    .where(and(eq(orderReturns.id, id), eq(orderReturns.status, from)))
    .returning({ id: orderReturns.id });
  return rows.length > 0;
}

export async function setRestock(
  db: DbOrTx,
  returnId: string,
  orderItemId: string,
  restock: boolean,
): Promise<void> {
  await db
    .update(orderReturnItems)
    .set({ restock })
    .where(and(eq(orderReturnItems.returnId, returnId), eq(orderReturnItems.orderItemId, orderItemId)));
}

export async function refundStates(db: DbOrTx, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: refunds.id, status: refunds.status, doneAt: refunds.doneAt })
    .from(refunds)
    .where(inArray(refunds.id, [...ids]));
}

const OPEN: ReturnRow['status'][] = ['requested', 'approved'];

/** The console's list: newest first, open ones (waiting for a decision or for the goods) by default. */
export async function listReturns(
  db: DbOrTx,
  status: ReturnRow['status'] | 'open' | 'all',
  limit: number,
  offset: number,
) {
  const where =
    status === 'all'
      ? undefined
      : status === 'open'
        ? inArray(orderReturns.status, OPEN)
        : eq(orderReturns.status, status);
  const [rowsOf, [total]] = await readTogether(db, [
    () =>
      db
        .select({
          ret: orderReturns,
          orderNo: orders.orderNo,
          memberName: users.displayName,
          memberEmail: users.email,
          refundStatus: refunds.status,
          itemCount: sql<number>`(select coalesce(sum(quantity), 0)::int from order_return_items i where i.return_id = ${orderReturns.id})`,
        })
        .from(orderReturns)
        .innerJoin(orders, eq(orders.id, orderReturns.orderId))
        .innerJoin(users, eq(users.id, orders.userId))
        .leftJoin(refunds, eq(refunds.id, orderReturns.refundId))
        .where(where)
        .orderBy(desc(orderReturns.requestedAt))
        .limit(limit)
        .offset(offset),
    () => db.select({ n: count() }).from(orderReturns).where(where),
  ]);
  return { rows: rowsOf, total: Number(total?.n ?? 0) };
}
