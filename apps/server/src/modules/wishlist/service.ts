import type { CartResponse } from '@shop/shared/cart';
import { WISHLIST_MAX, type WishlistResponse } from '@shop/shared/wishlist';
import type { DbOrTx } from '../../db/client.ts';
import { ConflictError, NotFoundError } from '../../lib/errors.ts';
import { addItem } from '../cart/service.ts';
import { productsWithVariants } from '../catalog/service.ts';
import * as repo from './repo.ts';

/**
 * 收藏 (docs/product-rules.md#wishlist): products a member keeps to come back to, shown with their
 * price and stock as they are now. A product that is no longer on sale stays kept but is not
 * listed, so it comes back if the shop puts it on sale again.
 */
export async function wishlist(db: DbOrTx, userId: string): Promise<WishlistResponse> {
  const kept = await repo.listFor(db, userId);
  const products = await productsWithVariants(
    db,
    kept.map((k) => k.productId),
  );
  return {
    items: kept.flatMap((k) => {
      const found = products.get(k.productId);
      return found ? [{ ...found, addedAt: new Date(k.createdAt).toISOString() }] : [];
    }),
  };
}

/** The ids of the products a member keeps (on sale or not: a heart only needs to know). */
export async function wishlistIds(db: DbOrTx, userId: string): Promise<string[]> {
  return (await repo.listFor(db, userId)).map((k) => k.productId);
}

async function productOnSale(db: DbOrTx, productId: string) {
  const found = (await productsWithVariants(db, [productId])).get(productId);
  if (!found) throw new NotFoundError('找不到這項商品，可能已經下架。');
  return found;
}

/** Keeps a product on sale; keeping it twice is keeping it once. */
export async function keep(db: DbOrTx, userId: string, productId: string): Promise<void> {
  await productOnSale(db, productId);
  if (!(await repo.add(db, userId, productId, WISHLIST_MAX)))
    throw new ConflictError(`收藏最多 ${WISHLIST_MAX} 項商品，請先移除一些再加入。`);
}

export async function drop(db: DbOrTx, userId: string, productId: string): Promise<void> {
  await repo.remove(db, userId, productId);
}

/** Puts one of a kept product's variant in the cart and takes the product off the list. */
export async function moveToCart(
  db: DbOrTx,
  userId: string,
  productId: string,
  variantId: string,
): Promise<CartResponse> {
  const { variants } = await productOnSale(db, productId);
  if (!variants.some((v) => v.id === variantId)) throw new NotFoundError('找不到這個規格。');
  const cart = await addItem(db, userId, variantId, 1);
  await repo.remove(db, userId, productId);
  return cart;
}

/** Forgets a member's 收藏, in the caller's transaction (a deleted account). */
export function forgetWishlist(db: DbOrTx, userId: string): Promise<void> {
  return repo.removeAll(db, userId);
}
