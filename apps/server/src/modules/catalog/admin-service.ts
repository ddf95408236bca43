import {
  type AdjustStockResponse,
  type AdminImage,
  type AdminProductDetail,
  type AdminProductListQuery,
  type AdminProductRow,
  type ArchiveProductResponse,
  type CreateProductBody,
  type DescriptionBlockInput,
  type StockAdjustmentView,
  type StockHistoryResponse,
  type UpdateProductBody,
} from '@shop/shared/admin-products';
import type { PageOf } from '@shop/shared/admin';
import { objectUrl, variantName } from '@shop/shared/storage-paths';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { ProductImage, productVariants } from '../../db/schema.ts';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '../../lib/errors.ts';
import { archiveProduct, changeProductSlug, createProduct, productPath, searchText } from './service.ts';
import { deleteRedirect, saveRedirect } from '../redirects/service.ts';
import { waitingPerVariant } from './restock.ts';
import * as repo from './admin-repo.ts';
import * as stock from './stock.ts';
import { pageCount, pageWindow } from '@shop/shared/paging';

/** Where an archived product without a replacement sends shoppers. */
export const MALL_PATH = '/mall';

const IMAGE_BUCKET = 'products';

const RECENT_ADJUSTMENTS = 30;

const iso = (d: Date | string) => new Date(d).toISOString();

/** Thumbnail URLs: the 320 px WebP copy when the storage service made one, else the original. */
async function thumbnailUrls(
  db: DbOrTx,
  images: readonly Pick<ProductImage, 'bucket' | 'name'>[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const names = [...new Set(images.map((i) => i.name))];
  if (names.length === 0) return out;
  const found = await repo.storedImages(db, IMAGE_BUCKET, names);
  for (const image of images) {
    const row = found.find((f) => f.bucket === image.bucket && f.name === image.name);
    out.set(
      image.name,
      row?.variants.includes(320)
        ? objectUrl(image.bucket, variantName(image.name, 320))
        : objectUrl(image.bucket, image.name),
    );
  }
  return out;
}

/**
 * The console's product table: every status, searched over name, slug and SKUs, filtered by
 * status, category (a parent category includes its children) and stock; newest edits first. One
 * round trip for the page and its total.
 */
export async function listAdminProducts(
  db: DbOrTx,
  q: AdminProductListQuery,
): Promise<PageOf<AdminProductRow>> {
  const { limit, offset } = pageWindow(q.page, q.pageSize);
  const all = await repo.listPage(db, q, limit, offset);
  const total = Number(all[0]?.total ?? 0);
  const items = all.filter((r) => r.id !== null);
  const urls = await thumbnailUrls(
    db,
    items.flatMap((r) => (r.cover ? [r.cover] : [])),
  );
  return {
    items: items.map((r) => ({
      id: r.id!,
      slug: r.slug,
      name: r.name,
      status: r.status,
      category: { slug: r.category_slug, name: r.category_name },
      priceMin: r.price_min,
      priceMax: r.price_max,
      totalStock: Number(r.total_stock),
      lowStock: Boolean(r.low_stock),
      variantCount: Number(r.variant_count),
      coverUrl: r.cover ? (urls.get(r.cover.name) ?? null) : null,
      updatedAt: iso(r.updated_at),
    })),
    page: q.page,
    pageSize: q.pageSize,
    total,
    totalPages: pageCount(total, q.pageSize),
  };
}

async function recentAdjustments(
  db: DbOrTx,
  of: repo.AdjustmentFilter,
  limit = RECENT_ADJUSTMENTS,
): Promise<StockAdjustmentView[]> {
  const found = await repo.adjustments(db, of, limit);
  return found.map((a) => ({ ...a, id: String(a.id), at: iso(a.at) }));
}

/** Everything the editor needs: fields, all variants (deactivated ones too), pictures, recent stock moves. */
export async function getAdminProduct(db: DbOrTx, productId: string): Promise<AdminProductDetail> {
  const row = await repo.productWithCategory(db, productId);
  if (!row) throw new NotFoundError('找不到這項商品。');
  const p = row.product;
  const variants = await repo.variantsWithOrders(db, productId);
  const waiting = await waitingPerVariant(
    db,
    variants.map((v) => v.id),
  );
  const adjustments = await recentAdjustments(db, { productId });
  const urls = await thumbnailUrls(db, p.images);
  const found = p.replacementId ? await repo.productRef(db, p.replacementId) : null;
  const replacement = found ? { id: found.id, slug: found.slug, name: found.name } : undefined;
  return {
    id: p.id,
    slug: p.slug,
    name: p.name,
    summary: p.summary,
    status: p.status,
    category: row.category,
    tags: p.tags,
    specs: p.specs,
    description: p.description as DescriptionBlockInput[],
    images: p.images.map((i): AdminImage => ({ ...i, url: urls.get(i.name) ?? objectUrl(i.bucket, i.name) })),
    variants: variants.map((v) => ({
      ...variantFields(v),
      ordered: Boolean(v.ordered),
      restockWaiting: waiting.get(v.id) ?? 0,
    })),
    adjustments,
    replacement: replacement ?? null,
    createdAt: iso(p.createdAt),
    updatedAt: iso(p.updatedAt),
  };
}

/** A variant's editable fields, shared by the editor's view and the audit snapshot. */
function variantFields(
  v: Pick<
    typeof productVariants.$inferSelect,
    'id' | 'sku' | 'options' | 'price' | 'compareAtPrice' | 'stock' | 'lowStockThreshold' | 'archived'
  >,
) {
  return {
    id: v.id,
    sku: v.sku,
    options: v.options,
    price: v.price,
    compareAtPrice: v.compareAtPrice,
    stock: v.stock,
    lowStockThreshold: v.lowStockThreshold,
    active: !v.archived,
  };
}

export type ProductSnapshot = Awaited<ReturnType<typeof snapshot>>;

/** What the audit trail keeps of a product before and after a change. */
export async function snapshot(db: DbOrTx, productId: string) {
  const row = await repo.productWithCategory(db, productId);
  if (!row) throw new NotFoundError('找不到這項商品。');
  const p = row.product;
  const variants = await repo.variantsBySortOrder(db, productId);
  return {
    slug: p.slug,
    name: p.name,
    status: p.status,
    categorySlug: row.category.slug,
    summary: p.summary,
    tags: p.tags,
    specs: p.specs,
    description: p.description,
    images: p.images.map((i) => ({ name: i.name, alt: i.alt })),
    replacementId: p.replacementId,
    variants: variants.map(variantFields),
  };
}

/** Option maps compared by content (jsonb keeps its own key order). */
export const sameOptions = (a: Record<string, string>, b: Record<string, string>) =>
  JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

export async function categoryId(db: DbOrTx, slug: string): Promise<string> {
  const id = await repo.categoryIdBySlug(db, slug);
  if (!id) throw new BadRequestError('找不到這個分類。', { categorySlug: '找不到這個分類，請重新選擇' });
  return id;
}

async function assertSlugFree(db: DbOrTx, slug: string, exceptProductId: string | null): Promise<void> {
  const taken = await repo.productWithSlug(db, slug, exceptProductId);
  if (taken)
    throw new BadRequestError('網址代碼已有其他商品使用。', {
      slug: `這個網址代碼已經由「${taken.name}」使用`,
    });
}

/** SKUs are unique across the shop (compared without regard to case). */
async function assertSkusFree(
  db: DbOrTx,
  variants: readonly { sku: string }[],
  exceptProductId: string | null,
): Promise<void> {
  const wanted = variants.map((v) => v.sku.toUpperCase());
  if (wanted.length === 0) return;
  const clash = await repo.skuClashes(db, wanted, exceptProductId);
  if (clash.length === 0) return;
  const fields: Record<string, string> = {};
  variants.forEach((v, i) => {
    const hit = clash.find((c) => c.sku.toUpperCase() === v.sku.toUpperCase());
    if (hit) fields[`variants.${i}.sku`] = `SKU「${hit.sku}」已經由「${hit.productName}」使用`;
  });
  throw new BadRequestError('有 SKU 已經由其他商品使用。', fields);
}

/** The pictures must be uploaded product images; their sizes come from the storage service. */
async function resolveImages(
  db: DbOrTx,
  images: readonly { name: string; alt: string }[],
): Promise<ProductImage[]> {
  if (images.length === 0) return [];
  const found = await repo.storedImages(
    db,
    IMAGE_BUCKET,
    images.map((i) => i.name),
  );
  const fields: Record<string, string> = {};
  const out = images.map((image, i) => {
    const meta = found.find((f) => f.name === image.name);
    if (!meta || !meta.contentType.startsWith('image/')) {
      fields[`images.${i}.name`] = '找不到這張圖片，請重新上傳';
      return null;
    }
    return {
      bucket: IMAGE_BUCKET,
      name: image.name,
      alt: image.alt,
      width: meta.width ?? 800,
      height: meta.height ?? 1000,
    };
  });
  const seen = new Set<string>();
  images.forEach((image, i) => {
    if (seen.has(image.name)) fields[`images.${i}.name`] = '這張圖片重複了';
    seen.add(image.name);
  });
  if (Object.keys(fields).length) throw new BadRequestError('有圖片無法使用，請重新上傳。', fields);
  return out.filter((i): i is ProductImage => i !== null);
}

/**
 * Creates a product with its variants (a new variant's starting stock is recorded as a stock
 * adjustment). The product's page address belongs to it from now on, so an old redirect there
 * is removed. Run inside the caller's transaction.
 */
export async function createAdminProduct(
  tx: Tx,
  body: CreateProductBody,
  actorId: string | null,
): Promise<string> {
  const slug = body.slug.toLowerCase();
  const catId = await categoryId(tx, body.categorySlug);
  await assertSlugFree(tx, slug, null);
  await assertSkusFree(tx, body.variants, null);
  const images = await resolveImages(tx, body.images);
  const variants = body.variants;
  const id = await createProduct(
    tx,
    {
      slug,
      name: body.name,
      summary: body.summary,
      categoryId: catId,
      tags: body.tags,
      specs: body.specs,
      description: body.description,
      images,
      status: body.status,
      sortWeight: 0,
    },
    variants.map((v) => ({
      sku: v.sku,
      options: v.options,
      price: v.price,
      compareAtPrice: v.compareAtPrice,
      stock: v.stock ?? 0,
      lowStockThreshold: v.lowStockThreshold,
    })),
    { reason: '建立規格時的初始庫存', actorId, consoleNote: true },
  );
  await deleteRedirect(tx, productPath(slug));
  const created = await repo.variantIdsOf(tx, id);
  for (const v of variants) {
    const row = created.find((c) => c.sku === v.sku)!;
    if (!v.active) await repo.updateVariant(tx, row.id, { archived: true }, { touch: false });
  }
  return id;
}

const variantLabelOf = (v: { sku: string; options: Record<string, string> }) =>
  `${Object.values(v.options).join(' / ') || '標準'}（SKU ${v.sku}）`;

/**
 * Saves the editor: fields, variants (added, edited, deactivated; removed only when no order
 * holds them), picture order and alt texts. A slug change keeps the old address working through
 * a redirect; bringing an archived product back removes the redirect its page had. Stock of
 * existing variants changes only through adjustments. Run inside the caller's transaction.
 */
export async function updateAdminProduct(
  tx: Tx,
  productId: string,
  body: UpdateProductBody,
  actorId: string | null,
): Promise<void> {
  const current = await repo.lockProduct(tx, { id: productId });
  if (!current) throw new NotFoundError('找不到這項商品。');
  if (body.updatedAt && iso(current.updatedAt) !== iso(body.updatedAt)) {
    throw new ConflictError(
      '這項商品在您編輯時已被其他人更新。您輸入的內容還在畫面上，請先複製需要的內容，重新載入後再修改。',
    );
  }
  if (body.status === 'archived' && current.status !== 'archived') {
    throw new BadRequestError('請使用「下架」按鈕下架商品。', {
      status: '請使用「下架」按鈕下架商品，才能設定舊網址要轉到哪裡',
    });
  }
  const slug = body.slug.toLowerCase();
  const catId = await categoryId(tx, body.categorySlug);
  await assertSlugFree(tx, slug, productId);
  await assertSkusFree(tx, body.variants, productId);
  const images = await resolveImages(tx, body.images);

  const existing = await repo.variantsWithOrders(tx, productId);
  const fields: Record<string, string> = {};
  const variants = body.variants;
  variants.forEach((v, i) => {
    if (v.id && !existing.some((e) => e.id === v.id))
      fields[`variants.${i}.id`] = '這個規格不屬於這項商品，請重新載入頁面';
  });
  const keep = new Set(variants.flatMap((v) => (v.id ? [v.id] : [])));
  const removed = existing.filter((e) => !keep.has(e.id));
  const blocked = removed.filter((e) => e.ordered);
  if (blocked.length) {
    fields.variants = `${blocked.map(variantLabelOf).join('、')}已有訂單，不能刪除；請改為「停售」`;
  }
  if (Object.keys(fields).length)
    throw new BadRequestError(fields.variants ?? '規格資料有誤，請重新載入頁面。', fields);

  if (removed.length)
    await repo.deleteVariants(
      tx,
      removed.map((r) => r.id),
    );
  // Changed SKUs step aside first, so two variants may swap SKUs without tripping the unique index.
  const renamed = variants.filter((v) => v.id && existing.find((e) => e.id === v.id)!.sku !== v.sku);
  for (const v of renamed) await repo.parkSku(tx, v.id!);
  for (const [i, v] of variants.entries()) {
    const values = {
      sku: v.sku,
      options: v.options,
      price: v.price,
      compareAtPrice: v.compareAtPrice,
      lowStockThreshold: v.lowStockThreshold,
      archived: !v.active,
      sortOrder: i,
    };
    if (v.id) {
      const before = existing.find((e) => e.id === v.id)!;
      const same =
        before.sku === v.sku &&
        sameOptions(before.options, v.options) &&
        before.price === v.price &&
        before.compareAtPrice === v.compareAtPrice &&
        before.lowStockThreshold === v.lowStockThreshold &&
        before.archived === !v.active &&
        before.sortOrder === i;
      if (!same) await repo.updateVariant(tx, v.id, values);
    } else {
      const variantId = await repo.insertVariant(tx, { ...values, productId });
      await stock.changeStock(tx, variantId, v.stock ?? 0, {
        kind: 'initial',
        reason: '新增規格時的初始庫存',
        actorId,
        consoleNote: true,
      });
    }
  }

  const unarchive = current.status === 'archived' && body.status !== 'archived';
  await repo.updateProduct(tx, productId, {
    name: body.name,
    summary: body.summary,
    categoryId: catId,
    tags: body.tags,
    specs: body.specs,
    description: body.description,
    images,
    status: body.status,
    searchText: searchText({ name: body.name, summary: body.summary, tags: body.tags }),
    ...(unarchive ? { replacementId: null } : {}),
  });
  if (slug !== current.slug) {
    await changeProductSlug(tx, productId, slug);
    // An archived product's page still points where it did (the old address now chains through the new one).
    if (body.status === 'archived')
      await saveRedirect(
        tx,
        productPath(slug),
        await archiveTarget(tx, current.replacementId),
        current.replacementId !== null,
      );
  }
  if (unarchive) await deleteRedirect(tx, productPath(slug));
}

async function archiveTarget(db: DbOrTx, replacementId: string | null): Promise<string> {
  if (!replacementId) return MALL_PATH;
  const r = await repo.productRef(db, replacementId);
  return r ? productPath(r.slug) : MALL_PATH;
}

/**
 * Takes a product off sale. Its page then redirects: to the replacement product when one is
 * given (permanently), else to the mall (temporarily, since the product may come back).
 */
export async function archiveAdminProduct(
  tx: Tx,
  productId: string,
  replacementId: string | null,
): Promise<ArchiveProductResponse> {
  const current = await repo.lockProduct(tx, { id: productId });
  if (!current) throw new NotFoundError('找不到這項商品。');
  if (replacementId) {
    if (replacementId === productId)
      throw new BadRequestError('替代商品不能是這項商品本身。', {
        replacementProductId: '替代商品不能是這項商品本身',
      });
    const r = await repo.productRef(tx, replacementId);
    if (!r) throw new BadRequestError('找不到替代商品。', { replacementProductId: '找不到這項替代商品' });
    if (r.status !== 'active')
      throw new BadRequestError('替代商品必須是上架中的商品。', {
        replacementProductId: `「${r.name}」目前沒有上架，請選擇上架中的商品`,
      });
  }
  await archiveProduct(tx, productId, replacementId);
  const from = productPath(current.slug);
  const to = await archiveTarget(tx, replacementId);
  if (!replacementId) await saveRedirect(tx, from, to, false);
  return { id: productId, status: 'archived', redirect: { from, to } };
}

/**
 * Adds delta to a variant's stock in one conditional update, so stock never goes below zero
 * even with orders taking stock at the same moment; writes the stock_adjustments row.
 */
export async function adjustStock(
  tx: Tx,
  variantId: string,
  delta: number,
  reason: string,
  actorId: string | null,
): Promise<AdjustStockResponse & { before: number; productId: string }> {
  const row = await stock.changeStock(tx, variantId, delta, {
    kind: 'adjustment',
    reason,
    actorId,
    consoleNote: true,
  });
  if (!row) {
    const v = await stock.stockOf(tx, variantId);
    if (!v) throw new NotFoundError('找不到這個規格。');
    const message = `庫存不足：SKU ${v.sku} 目前只有 ${v.stock} 件，最多只能減少 ${v.stock} 件`;
    throw new AppError(409, 'insufficient-stock', `${message}。`, { delta: message });
  }
  const [view] = await recentAdjustments(tx, { adjustmentId: row.adjustmentId! }, 1);
  return {
    variantId,
    sku: row.sku,
    stock: row.stock,
    adjustment: view!,
    before: row.stock - delta,
    productId: row.productId,
  };
}

/** A variant's stock history for the console, one page (the ledger's rows, newest first). */
export async function stockHistory(
  db: DbOrTx,
  productId: string,
  variantId: string,
  page: { page: number; pageSize: number },
): Promise<StockHistoryResponse> {
  return stock.stockHistory(db, productId, variantId, page.page, page.pageSize);
}
