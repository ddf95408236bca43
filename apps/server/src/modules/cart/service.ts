import { variantLabel } from '@shop/shared/catalog-constants';
import type { CartLine, CartResponse } from '@shop/shared/cart';
import type { DbOrTx } from '../../db/client.ts';
import { AppError, ConflictError, NotFoundError } from '../../lib/errors.ts';
import { imageView } from '../catalog/service.ts';
import * as repo from './repo.ts';
import { MAX_LINE_QUANTITY } from '@shop/shared/cart';

export function toLine(row: repo.CartRow): CartLine {
  const available = row.status === 'active' && !row.variantArchived;
  const problem: CartLine['problem'] = !available
    ? 'unavailable'
    : row.stock <= 0
      ? 'sold-out'
      : row.quantity > row.stock
        ? 'insufficient-stock'
        : null;
  const cover = row.images[0];
  return {
    variantId: row.variantId,
    productId: row.productId,
    slug: row.slug,
    name: row.name,
    variantLabel: variantLabel(row.options),
    sku: row.sku,
    image: cover ? imageView(cover) : null,
    unitPrice: row.price,
    compareAtPrice: row.compareAtPrice !== null && row.compareAtPrice > row.price ? row.compareAtPrice : null,
    quantity: row.quantity,
    lineTotal: row.price * row.quantity,
    stock: Math.max(0, row.stock),
    priceChangedFrom: row.addedPrice !== row.price ? row.addedPrice : null,
    problem,
  };
}

/** The member's cart as it stands now: current prices, stock, and what changed since adding. */
export async function getCart(db: DbOrTx, userId: string): Promise<CartResponse> {
  const lines = (await repo.cartRows(db, userId)).map(toLine);
  const buyable = lines.filter((l) => l.problem === null);
  return {
    lines,
    itemCount: lines.reduce((n, l) => n + l.quantity, 0),
    subtotal: buyable.reduce((n, l) => n + l.lineTotal, 0),
  };
}

async function purchasableVariant(db: DbOrTx, variantId: string) {
  const variant = await repo.findVariantForCart(db, variantId);
  if (!variant || variant.archived || variant.status !== 'active')
    throw new NotFoundError('這項商品目前無法購買。');
  if (variant.stock <= 0) throw new AppError(409, 'sold-out', `「${variant.name}」這個規格已經售完。`);
  return variant;
}

function stockError(name: string, stock: number): AppError {
  return new AppError(409, 'insufficient-stock', `「${name}」目前只剩 ${stock} 件，無法再加入更多。`);
}

/** Adds to a line (or starts one); the quantity never goes past the stock. */
export async function addItem(
  db: DbOrTx,
  userId: string,
  variantId: string,
  quantity: number,
): Promise<CartResponse> {
  // The usual case in one statement; a refusal is explained by the checks below (which read again).
  if (await repo.addWithinStock(db, userId, variantId, quantity, MAX_LINE_QUANTITY))
    return getCart(db, userId);
  const variant = await purchasableVariant(db, variantId);
  const next = (await repo.currentQuantity(db, userId, variantId)) + quantity;
  if (next > MAX_LINE_QUANTITY) throw new ConflictError(`每項商品最多購買 ${MAX_LINE_QUANTITY} 件。`);
  if (next > variant.stock) throw stockError(variant.name, variant.stock);
  await repo.setQuantity(db, userId, variantId, next, variant.price);
  return getCart(db, userId);
}

export async function updateItem(
  db: DbOrTx,
  userId: string,
  variantId: string,
  quantity: number,
): Promise<CartResponse> {
  if ((await repo.currentQuantity(db, userId, variantId)) === 0)
    throw new NotFoundError('購物車裡沒有這項商品。');
  const variant = await purchasableVariant(db, variantId);
  if (quantity > variant.stock) throw stockError(variant.name, variant.stock);
  await repo.setQuantity(db, userId, variantId, quantity, variant.price);
  return getCart(db, userId);
}

export async function removeItem(db: DbOrTx, userId: string, variantId: string): Promise<CartResponse> {
  await repo.removeItem(db, userId, variantId);
  return getCart(db, userId);
}

export type CartRow = repo.CartRow;

/** The member's cart rows as checkout prices them, inside its transaction. */
export async function cartRows(db: DbOrTx, userId: string): Promise<CartRow[]> {
  return repo.cartRows(db, userId);
}

/** Takes the lines an order bought out of the cart, inside the checkout's transaction. */
export async function removeBought(db: DbOrTx, userId: string, variantIds: string[]): Promise<void> {
  await repo.removeItems(db, userId, variantIds);
}

/** One line of an order going back to its buyer's cart. */
export interface ReturningLine {
  /** Null when the variant no longer exists. */
  readonly variantId: string | null;
  readonly name: string;
  readonly variantLabel: string;
  readonly quantity: number;
}

/** What went back to the cart: whether anything is in it now, and the lines that could not go back in full. */
export interface CartReturn {
  readonly inCart: boolean;
  readonly short: ReadonlyArray<{
    readonly name: string;
    readonly variantLabel: string;
    readonly reason: 'stock' | 'limit' | 'sold-out' | 'unavailable';
    readonly inCart: number;
  }>;
}

/**
 * An unpaid order that ended puts its lines back in its buyer's cart (docs/product-rules.md#orders-stock-holds-and-coupons),
 * inside the order's own transaction: added to what the cart already holds, never past the stock
 * (given back a moment before) or the per-line limit; a variant that left the shop stays out.
 */
export async function putBack(
  db: DbOrTx,
  userId: string,
  lines: readonly ReturningLine[],
): Promise<CartReturn> {
  const short: Array<CartReturn['short'][number]> = [];
  let inCart = false;
  for (const line of lines) {
    const variant = line.variantId ? await repo.findVariantForCart(db, line.variantId) : null;
    const named = { name: line.name, variantLabel: line.variantLabel };
    if (!variant || !line.variantId || variant.archived || variant.status !== 'active') {
      short.push({ ...named, reason: 'unavailable', inCart: 0 });
      continue;
    }
    const current = await repo.currentQuantity(db, userId, line.variantId);
    const cap = Math.min(Math.max(0, variant.stock), MAX_LINE_QUANTITY);
    const next = Math.max(current, Math.min(current + line.quantity, cap));
    if (next > current) await repo.setQuantity(db, userId, line.variantId, next, variant.price);
    if (next > 0) inCart = true;
    if (next < current + line.quantity)
      short.push({
        ...named,
        reason:
          next === 0
            ? 'sold-out'
            : cap === MAX_LINE_QUANTITY && variant.stock > MAX_LINE_QUANTITY
              ? 'limit'
              : 'stock',
        inCart: next,
      });
  }
  return { inCart, short };
}

/** The sentence that tells the buyer what went back to the cart (order history, mails, the cancel notice). */
export function describeCartReturn(r: CartReturn): string {
  const what = (l: CartReturn['short'][number]) =>
    `「${l.name}${l.variantLabel && l.variantLabel !== '標準' ? `（${l.variantLabel}）` : ''}」`;
  if (!r.inCart)
    return `${r.short.map((l) => `${what(l)}${l.reason === 'unavailable' ? '已下架' : '已售完'}`).join('、')}，沒有放回購物車。`;
  const notes = r.short.map((l) =>
    l.reason === 'unavailable'
      ? `${what(l)}已下架，沒有放回`
      : l.reason === 'sold-out'
        ? `${what(l)}已售完，沒有放回`
        : l.reason === 'limit'
          ? `${what(l)}每項最多 ${MAX_LINE_QUANTITY} 件，購物車裡共 ${l.inCart} 件`
          : `${what(l)}庫存只剩 ${l.inCart} 件，購物車裡共 ${l.inCart} 件`,
  );
  return notes.length > 0 ? `商品已放回購物車；${notes.join('；')}。` : '商品已放回購物車。';
}

/**
 * A late payment restored an order whose lines expiry had put back in the cart: the cart gives
 * them up again (never below nothing), so they are not bought twice.
 */
export async function takeBack(
  db: DbOrTx,
  userId: string,
  lines: ReadonlyArray<{ variantId: string | null; quantity: number }>,
): Promise<boolean> {
  let changed = false;
  for (const line of lines) {
    if (!line.variantId) continue;
    const current = await repo.currentQuantity(db, userId, line.variantId);
    if (current === 0) continue;
    changed = true;
    if (current > line.quantity)
      await repo.setQuantity(db, userId, line.variantId, current - line.quantity, 0);
    else await repo.removeItem(db, userId, line.variantId);
  }
  return changed;
}

/** Empties a member's cart, in the caller's transaction (a deleted account). */
export function forgetCart(db: DbOrTx, userId: string): Promise<void> {
  return repo.deleteAllOf(db, userId);
}
