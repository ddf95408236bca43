import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sandboxEinvoices } from '../../db/schema.ts';

/**
 * The SQL of the e-invoice sandbox's database store (sandbox-store.ts): invoices kept as JSON in
 * sandbox_einvoices. relate_number holds the RelateNumber in upper case, which makes its unique
 * constraint case-insensitive.
 */

type InvoiceJson = Record<string, unknown>;

export async function invoiceByNo(db: Db, invoiceNo: string): Promise<InvoiceJson | undefined> {
  const [row] = await db
    .select({ invoice: sandboxEinvoices.invoice })
    .from(sandboxEinvoices)
    .where(eq(sandboxEinvoices.invoiceNo, invoiceNo))
    .limit(1);
  return row?.invoice;
}

/** By RelateNumber in any letter case. */
export async function invoiceByRelateNumber(db: Db, relateNumber: string): Promise<InvoiceJson | undefined> {
  const [row] = await db
    .select({ invoice: sandboxEinvoices.invoice })
    .from(sandboxEinvoices)
    .where(eq(sandboxEinvoices.relateNumber, relateNumber.toUpperCase()))
    .limit(1);
  return row?.invoice;
}

/** Keeps a new invoice; false when its number or RelateNumber (in any case) is taken. */
export async function insertInvoice(
  db: Db,
  invoiceNo: string,
  relateNumber: string,
  invoice: InvoiceJson,
): Promise<boolean> {
  const inserted = await db
    .insert(sandboxEinvoices)
    .values({ invoiceNo, relateNumber: relateNumber.toUpperCase(), invoice })
    .onConflictDoNothing()
    .returning({ invoiceNo: sandboxEinvoices.invoiceNo });
  return inserted.length > 0;
}

export async function saveInvoice(db: Db, invoiceNo: string, invoice: InvoiceJson): Promise<void> {
  await db.update(sandboxEinvoices).set({ invoice }).where(eq(sandboxEinvoices.invoiceNo, invoiceNo));
}

/** Whether an allowance number was ever given out, on any invoice. */
export async function allowanceNoTaken(db: Db, allowanceNo: string): Promise<boolean> {
  const probe = JSON.stringify([{ allowanceNo }]);
  const [row] = await db
    .select({ invoiceNo: sandboxEinvoices.invoiceNo })
    .from(sandboxEinvoices)
    .where(sql`${sandboxEinvoices.invoice}->'allowances' @> ${probe}::jsonb`)
    .limit(1);
  return row !== undefined;
}
