import { and, asc, desc, eq, isNull, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { orders, payments, refunds, users } from '../../db/schema.ts';

export type RefundRow = typeof refunds.$inferSelect;

export async function insertRefund(
  db: DbOrTx,
  values: typeof refunds.$inferInsert,
): Promise<RefundRow | null> {
  const [row] = await db.insert(refunds).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

export async function findRefund(db: DbOrTx, id: string): Promise<RefundRow | null> {
  const [row] = await db.select().from(refunds).where(eq(refunds.id, id)).limit(1);
  return row ?? null;
}

export async function refundsOf(db: DbOrTx, orderId: string): Promise<RefundRow[]> {
  return db.select().from(refunds).where(eq(refunds.orderId, orderId)).orderBy(refunds.createdAt);
}

/** What is asked for or given back already (failed refunds gave nothing); `only: 'done'` counts what went through. */
export async function refundedTotal(
  db: DbOrTx,
  orderId: string,
  except?: string,
  only?: 'done',
): Promise<number> {
  const rows = await db
    .select({ amount: refunds.amount, id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), only ? eq(refunds.status, only) : ne(refunds.status, 'failed')));
  return rows.filter((r) => r.id !== except).reduce((sum, r) => sum + r.amount, 0);
}

export async function settleRefund(
  db: DbOrTx,
  id: string,
  status: 'done' | 'failed',
  result: string,
  at: Date,
): Promise<boolean> {
  const rows = await db
    .update(refunds)
    .set({ status, result, doneAt: status === 'done' ? at : null })
    .where(and(eq(refunds.id, id), eq(refunds.status, 'pending')))
    .returning({ id: refunds.id });
  return rows.length > 0;
}

/** The card (or LINE Pay) payment that paid the order. */
export async function paidPayment(db: DbOrTx, orderId: string, method: 'credit_card' | 'line_pay') {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.status, 'paid'), eq(payments.method, method)))
    .orderBy(desc(payments.paidAt))
    .limit(1);
  return row ?? null;
}

export async function setTransferAccount(
  db: DbOrTx,
  orderId: string,
  bank: NonNullable<RefundRow['bank']>,
): Promise<number> {
  const rows = await db
    .update(refunds)
    .set({ bank })
    .where(
      and(
        eq(refunds.orderId, orderId),
        eq(refunds.method, 'transfer'),
        eq(refunds.status, 'pending'),
        isNull(refunds.bank),
      ),
    )
    .returning({ id: refunds.id });
  return rows.length;
}

export async function pendingTransfers(db: DbOrTx) {
  return db
    .select({ refund: refunds, orderNo: orders.orderNo, memberName: users.displayName })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(and(eq(refunds.method, 'transfer'), eq(refunds.status, 'pending')))
    .orderBy(asc(refunds.createdAt))
    .limit(200);
}
