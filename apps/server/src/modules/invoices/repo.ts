import { and, asc, desc, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { invoiceAllowances, invoices, orders } from '../../db/schema.ts';

export type InvoiceRow = typeof invoices.$inferSelect;
export type AllowanceRow = typeof invoiceAllowances.$inferSelect;

export async function findByOrder(
  db: DbOrTx,
  orderId: string,
  opts: { forUpdate?: boolean } = {},
): Promise<InvoiceRow | null> {
  const query = db.select().from(invoices).where(eq(invoices.orderId, orderId)).limit(1);
  const [row] = opts.forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

/** Keeps an issued invoice; false when the order already has one (a repeated delivery). */
export async function insertInvoice(db: DbOrTx, values: typeof invoices.$inferInsert): Promise<boolean> {
  const rows = await db.insert(invoices).values(values).onConflictDoNothing().returning({ id: invoices.id });
  return rows.length > 0;
}

export async function markVoid(db: DbOrTx, id: string, reason: string, at: Date): Promise<void> {
  await db
    .update(invoices)
    .set({ status: 'void', voidReason: reason, voidedAt: at })
    .where(and(eq(invoices.id, id), eq(invoices.status, 'issued')));
}

export async function allowancesOf(db: DbOrTx, invoiceId: string): Promise<AllowanceRow[]> {
  return db
    .select()
    .from(invoiceAllowances)
    .where(eq(invoiceAllowances.invoiceId, invoiceId))
    .orderBy(desc(invoiceAllowances.createdAt));
}

export async function insertAllowance(
  db: DbOrTx,
  values: typeof invoiceAllowances.$inferInsert,
): Promise<boolean> {
  const rows = await db
    .insert(invoiceAllowances)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: invoiceAllowances.id });
  return rows.length > 0;
}

/** The buyer agreed to a pending online allowance: it is issued. Returns the row the first time only. */
export async function markAllowanceIssued(
  db: DbOrTx,
  invoiceId: string,
  allowanceNo: string,
  at: Date,
): Promise<AllowanceRow | null> {
  const [row] = await db
    .update(invoiceAllowances)
    .set({ state: 'issued', issuedAt: at })
    .where(
      and(
        eq(invoiceAllowances.invoiceId, invoiceId),
        eq(invoiceAllowances.allowanceNo, allowanceNo),
        eq(invoiceAllowances.state, 'pending'),
      ),
    )
    .returning();
  return row ?? null;
}

export async function findByInvoiceNo(db: DbOrTx, invoiceNo: string): Promise<InvoiceRow | null> {
  const [row] = await db.select().from(invoices).where(eq(invoices.invoiceNo, invoiceNo)).limit(1);
  return row ?? null;
}

/** Issued invoices dated from `fromDay` up to `beforeDay` (YYYY-MM-DD) whose award is not known yet, oldest first. */
export async function unawardedIssued(
  db: DbOrTx,
  fromDay: string,
  beforeDay: string,
  limit: number,
): Promise<InvoiceRow[]> {
  return db
    .select()
    .from(invoices)
    .where(
      and(
        eq(invoices.status, 'issued'),
        isNull(invoices.awardFlag),
        gte(invoices.invoiceDate, fromDay),
        lt(invoices.invoiceDate, beforeDay),
      ),
    )
    .orderBy(asc(invoices.invoiceDate))
    .limit(limit);
}

/** Records an invoice's award once; false when another run recorded it first. */
export async function markAward(
  db: DbOrTx,
  id: string,
  award: Pick<InvoiceRow, 'awardFlag' | 'awardType' | 'awardCheckedAt'>,
): Promise<boolean> {
  const [marked] = await db
    .update(invoices)
    .set(award)
    .where(and(eq(invoices.id, id), isNull(invoices.awardFlag)))
    .returning({ id: invoices.id });
  return marked !== undefined;
}

/**
 * Drops the personal carrier numbers (mobile barcode, citizen certificate) from the invoices of a
 * member's orders (a deleted account). Numbers, dates, amounts and a company's tax ID stay: the
 * shop must keep its invoices, and ECPay keeps the carrier on its side.
 */
export async function forgetCarriersOf(db: DbOrTx, userId: string): Promise<void> {
  await db
    .update(invoices)
    .set({ issuedTo: sql`${invoices.issuedTo} - 'mobileBarcode' - 'certificate'` })
    .where(
      inArray(invoices.orderId, db.select({ id: orders.id }).from(orders).where(eq(orders.userId, userId))),
    );
}
