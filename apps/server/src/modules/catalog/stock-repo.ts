import { count, desc, eq, sql } from 'drizzle-orm';
import type { StockMoveKind } from '@shop/shared/admin-products';
import type { DbOrTx } from '../../db/client.ts';
import { orderItems, productVariants, stockAdjustments, stockLedger, users } from '../../db/schema.ts';
import { rows } from '../../db/rows.ts';
import { readTogether } from '../../db/reads.ts';

/**
 * The SQL of the stock ledger. Only the stock service calls it; it is the only code that writes
 * `product_variants.stock`.
 */

/** A new order's line, written with its last sale (`moveStock`'s `orderLines`). */
export type OrderLineInsert = typeof orderItems.$inferInsert;

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
 * Adds delta to a variant's stock in one conditional update (never below zero, and when
 * `onSaleOnly` only while the variant is on sale) and writes its ledger row in the same statement
 * (one round trip, so a sale holds the variant's row lock as briefly as it can): the row's
 * `stock_after` is the stock the update left. Null when the condition refused it (the caller rolls
 * back). `orderLines`, a new order's lines, are inserted in the same statement and come back as
 * JSON rows (stock.ts's `takeStockForOrderLines` says why there).
 */
export async function moveStock(
  db: DbOrTx,
  variantId: string,
  delta: number,
  entry: Omit<LedgerInsert, 'variantId' | 'delta' | 'stockAfter'>,
  opts: { onSaleOnly?: boolean; orderLines?: readonly OrderLineInsert[] } = {},
) {
  const alongside = opts.orderLines?.length
    ? sql`${db
        .insert(orderItems)
        .values([...opts.orderLines])
        .getSQL()} returning *`
    : null;
  const result = await db.execute(sql`
    with moved as (
      update product_variants set stock = stock + ${delta}, updated_at = ${new Date().toISOString()}::timestamptz
      where id = ${variantId} and stock + ${delta} >= 0${opts.onSaleOnly ? sql` and not archived` : sql``}
      returning id, stock, sku, product_id
    ), entered as (
      insert into stock_ledger (variant_id, delta, stock_after, kind, reason, order_no, actor_id)
      select id, ${delta}::int, stock, ${entry.kind}::text, ${entry.reason}::text, ${entry.orderNo ?? null}::text, ${entry.actorId ?? null}::uuid from moved
      returning id
    )${alongside ? sql`, alongside as (${alongside})` : sql``}
    select moved.stock, moved.sku, moved.product_id, entered.id::text as entry_id,
      ${alongside ? sql`(select json_agg(row_to_json(a)) from alongside a)` : sql`null::json`} as alongside
    from moved, entered`);
  const [row] = rows<{
    stock: number;
    sku: string;
    product_id: string;
    entry_id: string;
    alongside: Array<Record<string, unknown>> | null;
  }>(result);
  return row
    ? {
        stock: Number(row.stock),
        sku: row.sku,
        productId: row.product_id,
        entryId: Number(row.entry_id),
        orderLines: row.alongside ?? [],
      }
    : null;
}

export async function variantStock(db: DbOrTx, variantId: string) {
  const [row] = await db
    .select({
      id: productVariants.id,
      stock: productVariants.stock,
      sku: productVariants.sku,
      productId: productVariants.productId,
    })
    .from(productVariants)
    .where(eq(productVariants.id, variantId))
    .limit(1);
  return row ?? null;
}

/** The console's own note of a staff change (the editor lists these). */
export async function insertAdjustment(
  db: DbOrTx,
  row: { variantId: string; delta: number; stockAfter: number; reason: string; actorId: string | null },
): Promise<number> {
  const [inserted] = await db.insert(stockAdjustments).values(row).returning({ id: stockAdjustments.id });
  return inserted!.id;
}

/** One page of a variant's ledger, newest first, with the acting staff member's address. */
export async function ledgerPage(db: DbOrTx, variantId: string, limit: number, offset: number) {
  const [items, [total]] = await readTogether(db, [
    () =>
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
    () => db.select({ n: count() }).from(stockLedger).where(eq(stockLedger.variantId, variantId)),
  ]);
  return { items, total: Number(total?.n ?? 0) };
}

/** The sum of a variant's ledger rows (what its stock must be). */
export async function ledgerSum(db: DbOrTx, variantId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${stockLedger.delta}), 0)::int` })
    .from(stockLedger)
    .where(eq(stockLedger.variantId, variantId));
  return Number(row?.n ?? 0);
}
