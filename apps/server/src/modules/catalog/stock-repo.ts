import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { StockMoveKind } from '@shop/shared/admin-products';
import type { DbOrTx } from '../../db/client.ts';
import { productVariants, stockAdjustments, stockLedger, users } from '../../db/schema.ts';

/**
 * The SQL of the stock ledger. Only the stock service calls it; it is the only code that writes
 * `product_variants.stock`.
 */

export interface LedgerInsert {
  readonly variantId: string;
  readonly delta: number;
  readonly stockAfter: number;
  readonly kind: StockMoveKind;
  readonly reason: string;
  readonly orderNo?: string | null | undefined;
  readonly actorId?: string | null | undefined;
}

/**
 * Adds delta to a variant's stock in one conditional update: never below zero, and when
 * `onSaleOnly` only while the variant is on sale. Null when the condition refused it.
 */
export async function addToStock(db: DbOrTx, variantId: string, delta: number, opts: { onSaleOnly?: boolean } = {}) {
  const [row] = await db
    .update(productVariants)
    .set({ stock: sql`${productVariants.stock} + ${delta}`, updatedAt: new Date() })
    .where(and(eq(productVariants.id, variantId), sql`${productVariants.stock} + ${delta} >= 0`, opts.onSaleOnly ? eq(productVariants.archived, false) : undefined))
    .returning({ stock: productVariants.stock, sku: productVariants.sku, productId: productVariants.productId });
  return row ?? null;
}

export async function variantStock(db: DbOrTx, variantId: string) {
  const [row] = await db
    .select({ id: productVariants.id, stock: productVariants.stock, sku: productVariants.sku, productId: productVariants.productId })
    .from(productVariants)
    .where(eq(productVariants.id, variantId))
    .limit(1);
  return row ?? null;
}

export async function insertLedgerRow(db: DbOrTx, row: LedgerInsert): Promise<number> {
  const [inserted] = await db
    .insert(stockLedger)
    .values({ variantId: row.variantId, delta: row.delta, stockAfter: row.stockAfter, kind: row.kind, reason: row.reason, orderNo: row.orderNo ?? null, actorId: row.actorId ?? null })
    .returning({ id: stockLedger.id });
  return inserted!.id;
}

/** The console's own note of a staff change (the editor lists these). */
export async function insertAdjustment(db: DbOrTx, row: { variantId: string; delta: number; stockAfter: number; reason: string; actorId: string | null }): Promise<number> {
  const [inserted] = await db.insert(stockAdjustments).values(row).returning({ id: stockAdjustments.id });
  return inserted!.id;
}

/** One page of a variant's ledger, newest first, with the acting staff member's address. */
export async function ledgerPage(db: DbOrTx, variantId: string, limit: number, offset: number) {
  const [items, [total]] = await Promise.all([
    db
      .select({
        id: stockLedger.id,
        kind: stockLedger.kind,
        delta: stockLedger.delta,
        stockAfter: stockLedger.stockAfter,
        reason: stockLedger.reason,
        orderNo: stockLedger.orderNo,
        actorEmail: users.email,
        at: stockLedger.at,
      })
      .from(stockLedger)
      .leftJoin(users, eq(users.id, stockLedger.actorId))
      .where(eq(stockLedger.variantId, variantId))
      .orderBy(desc(stockLedger.at), desc(stockLedger.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(stockLedger).where(eq(stockLedger.variantId, variantId)),
  ]);
  return { items, total: Number(total?.n ?? 0) };
}

/** The sum of a variant's ledger rows (what its stock must be). */
export async function ledgerSum(db: DbOrTx, variantId: string): Promise<number> {
  const [row] = await db.select({ n: sql<number>`coalesce(sum(${stockLedger.delta}), 0)::int` }).from(stockLedger).where(eq(stockLedger.variantId, variantId));
  return Number(row?.n ?? 0);
}
