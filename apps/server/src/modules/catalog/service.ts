import { hash } from 'node:crypto';
import type { DescriptionBlock, ProductSpec } from '@shop/shared/catalog-blocks';
import {
  stockState,
  variantLabel,
  type CatalogListQuery,
  type CategoryTreeResponse,
  type ImageView,
  type ProductCard,
  type ProductDetail,
  type ProductListResponse,
  type VariantView,
} from '@shop/shared/catalog';
import { imageSrcSet, objectUrl, variantName } from '@shop/shared/storage-paths';
import type { DbOrTx } from '../../db/client.ts';
import type { ProductImage } from '../../db/schema.ts';
import { ConflictError, NoDataError, NotFoundError } from '../../lib/errors.ts';
import { asCachedBody, type CachedBody } from '../../lib/response-cache.ts';
import { deleteRedirect, saveRedirect } from '../redirects/service.ts';
import * as repo from './repo.ts';
import type { CatalogIndex } from './catalog-index.ts';
import * as stock from './stock.ts';
import type { StockMove } from './stock.ts';
import { pageCount } from '@shop/shared/paging';

export const productPath = (slug: string) => `/mall/${slug}`;

export function imageView(image: ProductImage): ImageView {
  return {
    src: objectUrl(image.bucket, variantName(image.name, 640)),
    srcSet: imageSrcSet(image.bucket, image.name),
    width: image.width,
    height: image.height,
    alt: image.alt,
  };
}

function toCard(row: repo.CardRow): ProductCard {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    summary: row.summary,
    category: { slug: row.category_slug, name: row.category_name },
    tags: row.tags,
    priceMin: row.min_price,
    priceMax: row.max_price,
    compareAtPrice: row.compare_at,
    inStock: row.stock > 0,
    image: row.cover ? imageView(row.cover) : null,
  };
}

/** The product list for the mall (spec: one database round trip). */
export async function listProducts(db: DbOrTx, query: CatalogListQuery): Promise<ProductListResponse> {
  const { total, items } = await repo.listProducts(db, query);
  return {
    items: items.map(toCard),
    page: query.page,
    pageSize: query.pageSize,
    total,
    totalPages: pageCount(total, query.pageSize),
  };
}

/** Every product on sale by slug, with when it last changed (the sitemap). */
export function productsOnSale(db: DbOrTx) {
  return repo.activeProductSlugs(db);
}

/** Every product on sale as the in-memory list holds it. */
export function catalogIndexRows(db: DbOrTx) {
  return repo.indexRows(db);
}

/**
 * Cards of the index's rows as JSON, made once per row (a stock change puts a new row in place, and
 * so a new card): a list is written by joining them, not serialised card by card for every answer.
 */
const cards = new WeakMap<repo.CardRow, { json: string; tag: string }>();
function cardJson(row: repo.CardRow): { json: string; tag: string } {
  let card = cards.get(row);
  if (card === undefined) {
    const json = JSON.stringify(toCard(row));
    card = { json, tag: hash('sha1', json, 'base64url') };
    cards.set(row, card);
  }
  return card;
}

/**
 * The product list for the mall, answered by the in-memory index: the same JSON, byte for byte, as
 * `listProducts`' answer serialised (ProductListResponse), written from the cards' own JSON.
 */
export async function listFromIndex(index: CatalogIndex, query: CatalogListQuery): Promise<CachedBody> {
  const { total, items } = await index.list(query);
  const meta: Omit<ProductListResponse, 'items'> = {
    page: query.page,
    pageSize: query.pageSize,
    total,
    totalPages: pageCount(total, query.pageSize),
  };
  const parts = items.map(cardJson);
  const rest = JSON.stringify(meta).slice(1);
  // The ETag from the cards' own hashes and the rest: the same whenever the JSON is.
  return asCachedBody(
    `{"items":[${parts.map((c) => c.json).join(',')}],${rest}`,
    `${parts.map((c) => c.tag).join(',')}|${rest}`,
  );
}

/** An active product's page data; drafts and archived products are not found. */
export async function getProduct(db: DbOrTx, idOrSlug: string): Promise<ProductDetail> {
  const row = await repo.findProduct(db, idOrSlug);
  if (!row || row.product.status !== 'active') throw new NotFoundError('找不到這項商品，可能已經下架。');
  const variants = await repo.variantsOf(db, row.product.id);
  const optionNames = [...new Set(variants.flatMap((v) => Object.keys(v.options)))];
  return {
    id: row.product.id,
    slug: row.product.slug,
    name: row.product.name,
    summary: row.product.summary,
    category: { ...row.category, parent: row.parent },
    tags: row.product.tags,
    specs: row.product.specs,
    description: row.product.description,
    images: row.product.images.map(imageView),
    optionNames,
    variants: variants.map(toVariantView),
  };
}

function toVariantView(v: Awaited<ReturnType<typeof repo.variantsOf>>[number]): VariantView {
  return {
    id: v.id,
    sku: v.sku,
    options: v.options,
    label: variantLabel(v.options),
    price: v.price,
    compareAtPrice: v.compareAtPrice !== null && v.compareAtPrice > v.price ? v.compareAtPrice : null,
    stock: v.stock,
    stockState: stockState(v.stock, v.lowStockThreshold),
  };
}

/** Active products by id, each with its card and its variants on sale as they are now (收藏). */
export async function productsWithVariants(
  db: DbOrTx,
  ids: readonly string[],
): Promise<Map<string, { product: ProductCard; variants: VariantView[] }>> {
  const cards = await repo.cardsByIds(db, ids);
  const variants = await repo.variantsOfProducts(db, ids);
  const out = new Map<string, { product: ProductCard; variants: VariantView[] }>();
  for (const card of cards) out.set(card.id, { product: toCard(card), variants: [] });
  for (const v of variants) out.get(v.productId)?.variants.push(toVariantView(v));
  return out;
}

/** An active product's row and its variants on sale (for page metadata); null when not on sale. */
export async function activeProductWithVariants(db: DbOrTx, idOrSlug: string) {
  const row = await repo.findProduct(db, idOrSlug);
  if (!row || row.product.status !== 'active') return null;
  return { product: row.product, variants: await repo.variantsOf(db, row.product.id) };
}

export async function productCards(db: DbOrTx, slugs: readonly string[]): Promise<ProductCard[]> {
  return (await repo.cardsBySlugs(db, slugs)).map(toCard);
}

export async function relatedProducts(db: DbOrTx, idOrSlug: string, limit = 4): Promise<ProductCard[]> {
  const row = await repo.findProduct(db, idOrSlug);
  if (!row || row.product.status !== 'active') throw new NotFoundError('找不到這項商品，可能已經下架。');
  return (await repo.relatedProducts(db, row.product.id, limit)).map(toCard);
}

export async function categoryTree(db: DbOrTx): Promise<CategoryTreeResponse> {
  const all = await repo.categoryTree(db);
  return {
    categories: all
      .filter((c) => c.parent_slug === null)
      .map((c) => ({
        slug: c.slug,
        name: c.name,
        description: c.description,
        productCount: c.product_count,
        children: all
          .filter((k) => k.parent_slug === c.slug)
          .map((k) => ({
            slug: k.slug,
            name: k.name,
            description: k.description,
            productCount: k.product_count,
          })),
      })),
  };
}

// ── writes (seed now, operations console later) ───────────────────────────────────────────────

/** What changed in the catalog: anything (names, prices, products, categories), or only the stock of some products. */
export type CatalogChange =
  { readonly kind: 'all' } | { readonly kind: 'stock'; readonly productIds: readonly string[] };

const listeners = new Set<(change: CatalogChange) => void>();

/** Called after every catalog write in this process (the read caches and the in-memory list listen). */
export function onCatalogChange(listener: (change: CatalogChange) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const ALL: CatalogChange = { kind: 'all' };

/** Tells the listeners the catalog changed; writers outside this module (stock, orders) call it too. */
export function catalogChanged(): void {
  for (const listener of listeners) listener(ALL);
}

/**
 * Tells the listeners that only the stock or sales counts of these products changed (a sale, a
 * payment, a cancellation, an adjustment), after the commit: the in-memory list puts them in place
 * instead of loading everything again (docs/decisions/022, 047).
 */
export function stockChanged(productIds: Iterable<string>): void {
  const ids = [...new Set(productIds)];
  if (ids.length === 0) return;
  const change: CatalogChange = { kind: 'stock', productIds: ids };
  for (const listener of listeners) listener(change);
}

/**
 * Which of the lists (their API address, `/api/catalog/products?…`) may show otherwise; absent:
 * every list, and every related-products list.
 */
export interface ListsNews {
  /** A list asked at this address may show otherwise. */
  shows(listUrl: string): boolean;
  /** Related-products lists may show otherwise (they leave out sold-out products). */
  related: boolean;
}

const listListeners = new Set<(news: ListsNews | null) => void>();

/**
 * Called when this instance's lists may show otherwise without a write of their own (a product went
 * in or out of stock, a sale moved its sales count): each instance learns it from its own
 * in-memory list. `null`: any list may.
 */
export function onListsChange(listener: (news: ListsNews | null) => void): () => void {
  listListeners.add(listener);
  return () => listListeners.delete(listener);
}

export function listsChanged(news: ListsNews | null = null): void {
  for (const listener of listListeners) listener(news);
}

/** The stock and sales counts the list holds for these products (the in-memory list reads them after a sale). */
export function productCounts(db: DbOrTx, productIds: string[]) {
  return repo.productCounts(db, productIds);
}

export interface CategoryInput {
  slug: string;
  name: string;
  description?: string;
  sortOrder: number;
  parentId?: string | null;
}

/** Creates a category (a child when it names its parent); returns its id. */
export async function createCategory(db: DbOrTx, input: CategoryInput): Promise<string> {
  const id = await repo.insertCategory(db, {
    slug: input.slug,
    name: input.name,
    description: input.description ?? '',
    sortOrder: input.sortOrder,
    parentId: input.parentId ?? null,
  });
  catalogChanged();
  return id;
}

export interface ProductInput {
  slug: string;
  name: string;
  summary: string;
  categoryId: string;
  tags: string[];
  specs: ProductSpec[];
  description: DescriptionBlock[];
  images: ProductImage[];
  status: 'draft' | 'active' | 'archived';
  sortWeight: number;
  soldCount?: number;
  createdAt?: Date;
}

export interface VariantInput {
  sku: string;
  options: Record<string, string>;
  price: number;
  compareAtPrice?: number | null;
  stock: number;
  lowStockThreshold: number;
}

export function searchText(p: Pick<ProductInput, 'name' | 'summary' | 'tags'>): string {
  return [p.name, p.summary, ...p.tags].join(' ').toLowerCase();
}

/**
 * Creates a product with its variants. Each variant starts at zero and its starting stock is
 * added through the stock service, so the stock ledger has the row that explains it
 * (`initialStock` gives its words, the staff member and whether the editor lists it too).
 */
export async function createProduct(
  db: DbOrTx,
  input: ProductInput,
  variants: VariantInput[],
  initialStock: Omit<StockMove, 'kind'> = {},
): Promise<string> {
  const id = await db.transaction(async (tx) => {
    const productId = await repo.insertProduct(tx, {
      ...input,
      slug: input.slug.toLowerCase(),
      searchText: searchText(input),
      createdAt: input.createdAt ?? new Date(),
      updatedAt: input.createdAt ?? new Date(),
    });
    if (!productId) throw new ConflictError('這個商品網址代碼已經有商品使用。');
    const created = await repo.insertVariants(
      tx,
      variants.map((v, i) => ({ ...v, stock: 0, productId, sortOrder: i })),
    );
    for (const [i, v] of variants.entries()) {
      if (v.stock > 0)
        await stock.changeStock(tx, created[i]!.id, v.stock, { ...initialStock, kind: 'initial' });
    }
    return productId;
  });
  catalogChanged();
  return id;
}

/**
 * Changes a product's slug; the old page address keeps working through a redirect row, written
 * in the same transaction.
 */
export async function changeProductSlug(db: DbOrTx, productId: string, newSlug: string): Promise<void> {
  await db.transaction(async (tx) => {
    const oldSlug = await repo.findProductSlug(tx, productId);
    if (oldSlug === null) throw new NotFoundError('找不到這項商品。');
    const slug = newSlug.toLowerCase();
    if (slug === oldSlug) return;
    if (!(await repo.setProductSlug(tx, productId, slug)))
      throw new NoDataError('這項商品在儲存時已被刪除，請重新整理後再試。');
    // The new address belongs to this product now, even if it once redirected elsewhere.
    await deleteRedirect(tx, productPath(slug));
    await saveRedirect(tx, productPath(oldSlug), productPath(slug), true);
  });
  catalogChanged();
}

/** Archives a product; with a replacement, its page sends shoppers to the replacement's page. */
export async function archiveProduct(
  db: DbOrTx,
  productId: string,
  replacementId: string | null,
): Promise<void> {
  await db.transaction(async (tx) => {
    const slug = await repo.findProductSlug(tx, productId);
    if (slug === null) throw new NotFoundError('找不到這項商品。');
    await repo.setArchived(tx, productId, replacementId);
    if (replacementId) {
      const target = await repo.findProductSlug(tx, replacementId);
      if (target === null) throw new NotFoundError('找不到替代商品。');
      await saveRedirect(tx, productPath(slug), productPath(target), true);
    }
  });
  catalogChanged();
}
