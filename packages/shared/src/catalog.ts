import { z } from 'zod';
import { DescriptionBlock, ProductSpec } from './catalog-blocks.ts';

import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, SORTS } from './catalog-constants.ts';
export {
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  SORT_LABELS,
  SORTS,
  type CatalogSort,
} from './catalog-constants.ts';

const intParam = (label: string, min: number, max: number) =>
  z
    .string()
    .max(9, { message: `${label}必須是整數`, abort: true })
    .regex(/^\d{1,9}$/, `${label}必須是整數`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${label}必須介於 ${min} 到 ${max}`);

/** Query string of the product list; every value arrives as text and is checked here. */
export const CatalogListQuery = z
  .object({
    category: z
      .string()
      .max(60, { message: '分類代碼格式不正確', abort: true })
      .regex(/^[a-z0-9-]{1,60}$/, '分類代碼格式不正確')
      .optional(),
    q: z.string().trim().max(50, '搜尋字詞不能超過 50 個字元').optional(),
    minPrice: intParam('最低價格', 0, 10_000_000).optional(),
    maxPrice: intParam('最高價格', 0, 10_000_000).optional(),
    inStock: z
      .enum(['1', '0', 'true', 'false'], { message: '只看有貨必須是 1 或 0' })
      .transform((v) => v === '1' || v === 'true')
      .optional(),
    sort: z.enum(SORTS, { message: `排序必須是 ${SORTS.join('、')} 之一` }).default('recommended'),
    page: intParam('頁碼', 1, 10_000).default(1),
    pageSize: intParam('每頁數量', 1, PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
  })
  .strict()
  .refine((q) => q.minPrice === undefined || q.maxPrice === undefined || q.minPrice <= q.maxPrice, {
    message: '最低價格不能高於最高價格',
    path: ['minPrice'],
  });
export type CatalogListQuery = z.infer<typeof CatalogListQuery>;

export const ImageView = z.object({
  src: z.string(),
  srcSet: z.string(),
  width: z.number(),
  height: z.number(),
  alt: z.string(),
});
export type ImageView = z.infer<typeof ImageView>;

export const CategoryRef = z.object({ slug: z.string(), name: z.string() });

export const ProductCard = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  summary: z.string(),
  category: CategoryRef,
  tags: z.array(z.string()),
  priceMin: z.number().int(),
  priceMax: z.number().int(),
  /** The struck-through price, when some variant is on sale. */
  compareAtPrice: z.number().int().nullable(),
  inStock: z.boolean(),
  image: ImageView.nullable(),
});
export type ProductCard = z.infer<typeof ProductCard>;

export const ProductListResponse = z.object({
  items: z.array(ProductCard),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
});
export type ProductListResponse = z.infer<typeof ProductListResponse>;

export const StockState = z.enum(['in-stock', 'low', 'sold-out']);
export type StockState = z.infer<typeof StockState>;

export const VariantView = z.object({
  id: z.string(),
  sku: z.string(),
  options: z.record(z.string(), z.string()),
  label: z.string(),
  price: z.number().int(),
  compareAtPrice: z.number().int().nullable(),
  stock: z.number().int(),
  stockState: StockState,
});
export type VariantView = z.infer<typeof VariantView>;

export const ProductDetail = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  summary: z.string(),
  category: CategoryRef.extend({ parent: CategoryRef.nullable() }),
  tags: z.array(z.string()),
  specs: z.array(ProductSpec),
  description: z.array(DescriptionBlock),
  images: z.array(ImageView),
  variants: z.array(VariantView),
  /** Option names in display order, e.g. ["規格"]. */
  optionNames: z.array(z.string()),
});
export type ProductDetail = z.infer<typeof ProductDetail>;

export const RelatedResponse = z.object({ items: z.array(ProductCard) });
export type RelatedResponse = z.infer<typeof RelatedResponse>;

export const CategoryNode = z.object({
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  productCount: z.number().int(),
  children: z.array(
    z.object({ slug: z.string(), name: z.string(), description: z.string(), productCount: z.number().int() }),
  ),
});
export const CategoryTreeResponse = z.object({ categories: z.array(CategoryNode) });
export type CategoryTreeResponse = z.infer<typeof CategoryTreeResponse>;

export { stockState, variantLabel } from './catalog-constants.ts';
