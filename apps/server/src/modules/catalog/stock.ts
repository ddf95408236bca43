import type { PageOf } from '@shop/shared/admin';
import type { StockHistoryResponse, StockLedgerEntry, StockMoveKind } from '@shop/shared/admin-products';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { noticeRestocked } from './restock.ts';
import * as repo from './stock-repo.ts';
import { pageCount, pageWindow } from '@shop/shared/paging';

/**
 * The stock service: the one place a variant's stock changes. Every change (a sale, an order's
 * cancellation, expiry or refund giving stock back, a CSV import, a console adjustment, a new
 * variant's starting stock) writes its ledger row in the caller's transaction, so the rows of a
 * variant always add up to its stock (docs/product-rules.md, docs/decisions/009-orders-one-door-and-stock-ledger.md).
 * A change that brings a sold-out variant back claims its 貨到通知 requests in the same
 * transaction (restock.ts).
 */

export interface StockMove {
  readonly kind: StockMoveKind;
  /** The words shown in the history; a default for the kind when absent. */
  readonly reason?: string | undefined;
  readonly orderNo?: string | null | undefined;
  readonly actorId?: string | null | undefined;
  /** Also keep it among the console's adjustments the product editor lists (staff changes). */
  readonly consoleNote?: boolean | undefined;
}

const DEFAULT_REASONS: Readonly<Record<StockMoveKind, string>> = {
  opening: '期初庫存',
  initial: '起始庫存',
  sale: '訂單售出',
  cancellation: '訂單取消，商品放回庫存',
  expiry: '逾期未付款，商品放回庫存',
  refund: '訂單退款，商品放回庫存',
  import: 'CSV 匯入',
  adjustment: '手動調整',
};

export interface StockChange {
  readonly variantId: string;
  readonly sku: string;
  readonly productId: string;
  readonly stock: number;
  readonly before: number;
  readonly entryId: number;
  /** The console's adjustment row, when the move asked for one. */
  readonly adjustmentId: number | null;
}

/**
 * Changes a variant's stock by delta in one conditional update (never below zero, whoever else
 * takes stock at the same moment) and writes the ledger row. Null when there was not enough
 * stock (or, with `onSaleOnly`, the variant is off sale); nothing is written then.
 */
export async function changeStock(
  tx: Tx,
  variantId: string,
  delta: number,
  move: StockMove,
  opts: { onSaleOnly?: boolean } = {},
): Promise<StockChange | null> {
  if (delta === 0) {
    const current = await repo.variantStock(tx, variantId);
    return current
      ? {
          variantId,
          sku: current.sku,
          productId: current.productId,
          stock: current.stock,
          before: current.stock,
          entryId: 0,
          adjustmentId: null,
        }
      : null;
  }
  const reason = move.reason ?? DEFAULT_REASONS[move.kind];
  // The update and its ledger row in one statement; the console's own note, when asked for, after it.
  const row = await repo.moveStock(
    tx,
    variantId,
    delta,
    { kind: move.kind, reason, orderNo: move.orderNo, actorId: move.actorId },
    opts,
  );
  if (!row) return null;
  if (row.stock > 0 && row.stock - delta <= 0) await noticeRestocked(tx, variantId);
  const adjustmentId = move.consoleNote
    ? await repo.insertAdjustment(tx, {
        variantId,
        delta,
        stockAfter: row.stock,
        reason,
        actorId: move.actorId ?? null,
      })
    : null;
  return {
    variantId,
    sku: row.sku,
    productId: row.productId,
    stock: row.stock,
    before: row.stock - delta,
    entryId: row.entryId,
    adjustmentId,
  };
}

/** Takes stock for a sale, only if enough is left and the variant is on sale; false otherwise. */
export async function takeStock(
  tx: Tx,
  variantId: string,
  quantity: number,
  move: StockMove,
): Promise<boolean> {
  return (await changeStock(tx, variantId, -quantity, move, { onSaleOnly: true })) !== null;
}

/** One line of a new order, as it is written (with its variant: a sale always has one). */
export type SoldLine = repo.OrderLineInsert & { readonly variantId: string };

/**
 * Takes stock for a new order's lines (a `sale` in the ledger under the order's number) and writes
 * the lines themselves with the last sale, in its statement. The variants are taken in a fixed
 * order, so two orders never wait on each other's rows. The lines come last because their foreign
 * keys lock the variants' rows, which this order holds by then; written earlier, every buyer
 * waiting for a variant would hold that lock too, and PostgreSQL would share the row among them
 * all (a multixact per buyer and sale, which made the database the bottleneck; decision 022).
 * Answers the lines as written (JSON rows), or the first line short of stock: nothing is written
 * for it and the caller rolls back.
 */
export async function takeStockForOrderLines(
  tx: Tx,
  orderNo: string,
  lines: readonly SoldLine[],
): Promise<{ written: Array<Record<string, unknown>> } | { short: SoldLine }> {
  const sorted = [...lines].sort((a, b) => a.variantId.localeCompare(b.variantId));
  const sale = { kind: 'sale' as const, reason: DEFAULT_REASONS.sale, orderNo };
  for (const [n, line] of sorted.entries()) {
    if (n < sorted.length - 1) {
      if (!(await takeStock(tx, line.variantId, line.quantity, sale))) return { short: line };
      continue;
    }
    const row = await repo.moveStock(tx, line.variantId, -line.quantity, sale, {
      onSaleOnly: true,
      orderLines: lines,
    });
    if (!row) return { short: line };
    return { written: row.orderLines };
  }
  return { written: [] };
}

/** Gives an order's lines back to stock (a variant deleted since is skipped). */
export async function giveBack(
  tx: Tx,
  lines: readonly { variantId: string | null; quantity: number }[],
  move: StockMove,
): Promise<void> {
  for (const line of lines) if (line.variantId) await changeStock(tx, line.variantId, line.quantity, move);
}

/** A variant's current stock and SKU, or null. */
export async function stockOf(db: DbOrTx, variantId: string) {
  return repo.variantStock(db, variantId);
}

/** Whether a variant's ledger adds up to its stock (checks and tests). */
export async function ledgerBalances(
  db: DbOrTx,
  variantId: string,
): Promise<{ stock: number; ledger: number }> {
  const current = await repo.variantStock(db, variantId);
  return { stock: current?.stock ?? 0, ledger: await repo.ledgerSum(db, variantId) };
}

const toEntry = (r: Awaited<ReturnType<typeof repo.ledgerPage>>['items'][number]): StockLedgerEntry => ({
  id: String(r.id),
  kind: r.kind,
  delta: r.delta,
  stockAfter: r.stockAfter,
  reason: r.reason,
  orderNo: r.orderNo,
  actorEmail: r.actorEmail,
  at: new Date(r.at).toISOString(),
});

/** One page of a variant's stock history, newest first. */
export async function stockHistory(
  db: DbOrTx,
  productId: string,
  variantId: string,
  page: number,
  pageSize: number,
): Promise<StockHistoryResponse> {
  const variant = await repo.variantStock(db, variantId);
  if (!variant || variant.productId !== productId) throw new NotFoundError('找不到這個規格。');
  const { limit, offset } = pageWindow(page, pageSize);
  const { items, total } = await repo.ledgerPage(db, variantId, limit, offset);
  const paged: PageOf<StockLedgerEntry> = {
    items: items.map(toEntry),
    page,
    pageSize,
    total,
    totalPages: pageCount(total, pageSize),
  };
  return { ...paged, variantId, sku: variant.sku, stock: variant.stock };
}
