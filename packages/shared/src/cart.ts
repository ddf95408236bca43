import { z } from 'zod';
import { ImageView } from './catalog.ts';
import { MAX_LINE_QUANTITY } from './limits.ts';

export { MAX_LINE_QUANTITY };

export const AddCartItemBody = z
  .object({
    variantId: z.uuid('商品規格代碼不正確'),
    quantity: z
      .number()
      .int('數量必須是整數')
      .min(1, '數量至少為 1')
      .max(MAX_LINE_QUANTITY, `數量不能超過 ${MAX_LINE_QUANTITY}`),
  })
  .strict();
export type AddCartItemBody = z.infer<typeof AddCartItemBody>;

export const UpdateCartItemBody = z
  .object({
    quantity: z
      .number()
      .int('數量必須是整數')
      .min(1, '數量至少為 1')
      .max(MAX_LINE_QUANTITY, `數量不能超過 ${MAX_LINE_QUANTITY}`),
  })
  .strict();
export type UpdateCartItemBody = z.infer<typeof UpdateCartItemBody>;

export const CartLine = z.object({
  variantId: z.string(),
  productId: z.string(),
  slug: z.string(),
  name: z.string(),
  variantLabel: z.string(),
  sku: z.string(),
  image: ImageView.nullable(),
  unitPrice: z.number().int(),
  compareAtPrice: z.number().int().nullable(),
  quantity: z.number().int(),
  lineTotal: z.number().int(),
  stock: z.number().int(),
  /** Price when added, when it has changed since. */
  priceChangedFrom: z.number().int().nullable(),
  /** The line cannot be bought as it is: not enough stock, sold out, or the product left the shop. */
  problem: z.enum(['insufficient-stock', 'sold-out', 'unavailable']).nullable(),
});
export type CartLine = z.infer<typeof CartLine>;

export const CartResponse = z.object({
  lines: z.array(CartLine),
  itemCount: z.number().int(),
  subtotal: z.number().int(),
});
export type CartResponse = z.infer<typeof CartResponse>;
