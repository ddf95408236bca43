import { variantLabel } from '@shop/shared/catalog-constants';
import type { CartLine, CartResponse } from '@shop/shared/cart';
import type { DbOrTx } from '../../db/client.ts';
import { AppError, ConflictError, NotFoundError } from '../../lib/errors.ts';
import { imageView } from '../catalog/service.ts';
import * as repo from './repo.ts';
import { MAX_LINE_QUANTITY } from '@shop/shared/cart';



export function toLine(row: repo.CartRow): CartLine {
  const available = row.status === 'active' && !row.variantArchived;
  const problem: CartLine['problem'] = !available ? 'unavailable' : row.stock <= 0 ? 'sold-out' : row.quantity > row.stock ? 'insufficient-stock' : null;
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
  if (!variant || variant.archived || variant.status !== 'active') throw new NotFoundError('這項商品目前無法購買。');
  if (variant.stock <= 0) throw new AppError(409, 'sold-out', `「${variant.name}」這個規格已經售完。`);
  return variant;
}

function stockError(name: string, stock: number): AppError {
  return new AppError(409, 'insufficient-stock', `「${name}」目前只剩 ${stock} 件，無法再加入更多。`);
}

/** Adds to a line (or starts one); the quantity never goes past the stock. */
export async function addItem(db: DbOrTx, userId: string, variantId: string, quantity: number): Promise<CartResponse> {
  const variant = await purchasableVariant(db, variantId);
  const next = (await repo.currentQuantity(db, userId, variantId)) + quantity;
  if (next > MAX_LINE_QUANTITY) throw new ConflictError(`每項商品最多購買 ${MAX_LINE_QUANTITY} 件。`);
  if (next > variant.stock) throw stockError(variant.name, variant.stock);
  await repo.setQuantity(db, userId, variantId, next, variant.price);
  return getCart(db, userId);
}

export async function updateItem(db: DbOrTx, userId: string, variantId: string, quantity: number): Promise<CartResponse> {
  if ((await repo.currentQuantity(db, userId, variantId)) === 0) throw new NotFoundError('購物車裡沒有這項商品。');
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
