import { z } from 'zod';
import { ProductCard, VariantView } from './catalog.ts';

/** How many products one member may keep in 收藏 (a list, not an archive). */
export const WISHLIST_MAX = 200;

/** One kept product as it is now: its card, its variants' prices and stock, and when it was kept. */
export const WishlistItem = z.object({
  product: ProductCard,
  variants: z.array(VariantView),
  addedAt: z.string(),
});
export type WishlistItem = z.infer<typeof WishlistItem>;

export const WishlistResponse = z.object({ items: z.array(WishlistItem) });
export type WishlistResponse = z.infer<typeof WishlistResponse>;

/** The ids of the kept products: what a heart needs to know, cheaply. */
export const WishlistIdsResponse = z.object({ productIds: z.array(z.string()) });
export type WishlistIdsResponse = z.infer<typeof WishlistIdsResponse>;

/** Moves a kept product's variant to the cart (one tap), taking it off the list. */
export const WishlistToCartBody = z.object({
  variantId: z.uuid('請選擇規格'),
});
export type WishlistToCartBody = z.infer<typeof WishlistToCartBody>;

/** The variants this member waits for (貨到通知). */
export const RestockRequestsResponse = z.object({ variantIds: z.array(z.string()) });
export type RestockRequestsResponse = z.infer<typeof RestockRequestsResponse>;

export const RestockRequestBody = z.object({
  variantId: z.uuid('商品規格代碼不正確'),
});
export type RestockRequestBody = z.infer<typeof RestockRequestBody>;
