import { and, asc, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { AdminProductListQuery, ProductStatus } from '@shop/shared/admin-products';
import type { DbOrTx } from '../../db/client.ts';
import { containsPattern } from '../../db/like.ts';
import { rows } from '../../db/rows.ts';
import {
  categories,
  productVariants,
  products,
  stockAdjustments,
  storageObjects,
  users,
} from '../../db/schema.ts';
import type { ProductImage } from '../../db/schema.ts';

/**
 * The console's product queries and writes (the SQL only; catalog/admin-service.ts decides).
 * Stock is never written here: the stock service (stock.ts) is the only writer of stock.
 */

export interface ListRow {
  total: number;
  id: string | null;
  slug: string;
  name: string;
  status: ProductStatus;
  updated_at: string | Date;
  cover: ProductImage | null;
  category_slug: string;
  category_name: string;
  price_min: number | null;
  price_max: number | null;
  total_stock: number;
  low_stock: boolean;
  variant_count: number;
}

/** One page of the console's product table and the total, in one round trip (a row with a null id carries only the total). */
export async function listPage(
  db: DbOrTx,
  q: AdminProductListQuery,
  limit: number,
  offset: number,
): Promise<ListRow[]> {
  const where: SQL[] = [sql`true`];
  if (q.q) {
    const like = containsPattern(q.q.toLowerCase());
    where.push(
      sql`(lower(p.name) like ${like} or p.slug like ${like} or exists (select 1 from product_variants sv where sv.product_id = p.id and lower(sv.sku) like ${like}))`,
    );
  }
  if (q.status) where.push(sql`p.status = ${q.status}`);
  if (q.category) where.push(sql`(c.slug = ${q.category} or pc.slug = ${q.category})`);
  if (q.stock === 'low') where.push(sql`agg.low_stock`);
  if (q.stock === 'out') where.push(sql`agg.total_stock = 0`);
  const result = await db.execute(sql`
    with filtered as (
      select p.id, p.slug, p.name, p.status, p.updated_at, p.images -> 0 as cover,
             c.slug as category_slug, c.name as category_name,
             agg.price_min, agg.price_max, agg.total_stock, agg.low_stock, agg.variant_count
      from products p
      join categories c on c.id = p.category_id
      left join categories pc on pc.id = c.parent_id
      cross join lateral (
        select min(v.price) filter (where not v.archived)::int as price_min,
               max(v.price) filter (where not v.archived)::int as price_max,
               coalesce(sum(v.stock) filter (where not v.archived), 0)::int as total_stock,
               coalesce(bool_or(v.stock <= v.low_stock_threshold) filter (where not v.archived), false) as low_stock,
               (count(*) filter (where not v.archived))::int as variant_count
        from product_variants v where v.product_id = p.id
      ) agg
      where ${sql.join(where, sql` and `)}
    )
    select t.total, page.*
    from (select count(*)::int as total from filtered) t
    left join lateral (select * from filtered p order by p.updated_at desc, p.id limit ${limit} offset ${offset}) page on true`);
  return rows<ListRow>(result);
}

/** Stored objects of a bucket by name: sizes, type and the resized copies made. */
export async function storedImages(db: DbOrTx, bucket: string, names: string[]) {
  if (names.length === 0) return [];
  return db
    .select({
      bucket: storageObjects.bucket,
      name: storageObjects.name,
      variants: storageObjects.variants,
      width: storageObjects.width,
      height: storageObjects.height,
      contentType: storageObjects.contentType,
    })
    .from(storageObjects)
    .where(and(eq(storageObjects.bucket, bucket), inArray(storageObjects.name, names)));
}

/** A product's variants, deactivated ones last, each with whether an order holds it. */
export async function variantsWithOrders(db: DbOrTx, productId: string) {
  return db
    .select({
      id: productVariants.id,
      sku: productVariants.sku,
      options: productVariants.options,
      price: productVariants.price,
      compareAtPrice: productVariants.compareAtPrice,
      stock: productVariants.stock,
      lowStockThreshold: productVariants.lowStockThreshold,
      archived: productVariants.archived,
      sortOrder: productVariants.sortOrder,
      // Spelled out: drizzle leaves columns unqualified in a one-table select, and order_items has an id too.
      ordered: sql<boolean>`exists (select 1 from order_items oi where oi.variant_id = "product_variants"."id")`,
    })
    .from(productVariants)
    .where(eq(productVariants.productId, productId))
    .orderBy(
      asc(productVariants.archived),
      asc(productVariants.sortOrder),
      asc(productVariants.price),
      asc(productVariants.sku),
    );
}

export type AdjustmentFilter = { productId: string } | { adjustmentId: number };

/** The console's stock adjustment notes, newest first, with the SKU and the acting staff member's address. */
export async function adjustments(db: DbOrTx, of: AdjustmentFilter, limit: number) {
  const where: SQL =
    'productId' in of
      ? eq(productVariants.productId, of.productId)
      : eq(stockAdjustments.id, of.adjustmentId);
  return db
    .select({
      id: stockAdjustments.id,
      variantId: stockAdjustments.variantId,
      sku: productVariants.sku,
      delta: stockAdjustments.delta,
      stockAfter: stockAdjustments.stockAfter,
      reason: stockAdjustments.reason,
      actorEmail: users.email,
      at: stockAdjustments.at,
    })
    .from(stockAdjustments)
    .innerJoin(productVariants, eq(productVariants.id, stockAdjustments.variantId))
    .leftJoin(users, eq(users.id, stockAdjustments.actorId))
    .where(where)
    .orderBy(desc(stockAdjustments.at), desc(stockAdjustments.id))
    .limit(limit);
}

export async function productWithCategory(db: DbOrTx, productId: string) {
  const [row] = await db
    .select({ product: products, category: { slug: categories.slug, name: categories.name } })
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .where(eq(products.id, productId))
    .limit(1);
  return row ?? null;
}

export async function productRef(db: DbOrTx, productId: string) {
  const [row] = await db
    .select({ id: products.id, slug: products.slug, name: products.name, status: products.status })
    .from(products)
    .where(eq(products.id, productId))
    .limit(1);
  return row ?? null;
}

/** Locks a product's row for the rest of the transaction, by id or slug. */
export async function lockProduct(db: DbOrTx, by: { id: string } | { slug: string }) {
  const [row] = await db
    .select()
    .from(products)
    .where('id' in by ? eq(products.id, by.id) : eq(products.slug, by.slug))
    .for('update');
  return row ?? null;
}

export async function variantsBySortOrder(db: DbOrTx, productId: string) {
  return db
    .select()
    .from(productVariants)
    .where(eq(productVariants.productId, productId))
    .orderBy(asc(productVariants.sortOrder), asc(productVariants.sku));
}

/** Locks a product's variants for the rest of the transaction. */
export async function lockVariantsOf(db: DbOrTx, productId: string) {
  return db.select().from(productVariants).where(eq(productVariants.productId, productId)).for('update');
}

export async function variantIdsOf(db: DbOrTx, productId: string) {
  return db
    .select({ id: productVariants.id, sku: productVariants.sku })
    .from(productVariants)
    .where(eq(productVariants.productId, productId));
}

export async function categoryIdBySlug(db: DbOrTx, slug: string): Promise<string | null> {
  const [row] = await db
    .select({ id: categories.id })
    .from(categories)
    .where(eq(categories.slug, slug))
    .limit(1);
  return row?.id ?? null;
}

export async function allCategories(db: DbOrTx) {
  return db.select({ id: categories.id, slug: categories.slug }).from(categories);
}

export async function knownCategorySlugs(db: DbOrTx, slugs: string[]): Promise<string[]> {
  return (
    await db.select({ slug: categories.slug }).from(categories).where(inArray(categories.slug, slugs))
  ).map((c) => c.slug);
}

/** Another product using this slug, if any. */
export async function productWithSlug(db: DbOrTx, slug: string, exceptProductId: string | null) {
  const [row] = await db
    .select({ id: products.id, name: products.name })
    .from(products)
    .where(
      exceptProductId
        ? and(eq(products.slug, slug), ne(products.id, exceptProductId))
        : eq(products.slug, slug),
    )
    .limit(1);
  return row ?? null;
}

/** Variants of other products using any of these (upper-cased) SKUs. */
export async function skuClashes(db: DbOrTx, upperSkus: string[], exceptProductId: string | null) {
  return db
    .select({ sku: productVariants.sku, productName: products.name })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(
      and(
        sql`upper(${productVariants.sku}) in ${upperSkus}`,
        exceptProductId ? ne(productVariants.productId, exceptProductId) : undefined,
      ),
    );
}

/** The variants with these (upper-cased) SKUs and their products, locked until the transaction ends. */
export async function lockSkuOwners(db: DbOrTx, upperSkus: string[]) {
  return db
    .select({
      sku: productVariants.sku,
      stock: productVariants.stock,
      productSlug: products.slug,
      productName: products.name,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(sql`upper(${productVariants.sku}) in ${upperSkus}`)
    .orderBy(asc(productVariants.id))
    .for('update');
}

type VariantFields = Partial<Omit<typeof productVariants.$inferInsert, 'id' | 'productId' | 'stock'>>;

/** Inserts a variant at zero stock (its starting stock is added through the stock service). */
export async function insertVariant(
  db: DbOrTx,
  values: VariantFields & { productId: string; sku: string; price: number },
): Promise<string> {
  const [row] = await db
    .insert(productVariants)
    .values({ ...values, stock: 0 })
    .returning({ id: productVariants.id });
  return row!.id;
}

/** Changes a variant's fields (never its stock). */
export async function updateVariant(
  db: DbOrTx,
  id: string,
  values: VariantFields,
  opts: { touch?: boolean } = {},
): Promise<void> {
  await db
    .update(productVariants)
    .set({ ...values, ...(opts.touch === false ? {} : { updatedAt: new Date() }) })
    .where(eq(productVariants.id, id));
}

/** Moves a variant's SKU aside (SKU~id), so two variants may swap SKUs under the unique index. */
export async function parkSku(db: DbOrTx, id: string): Promise<void> {
  await db
    .update(productVariants)
    .set({ sku: sql`${productVariants.sku} || '~' || ${productVariants.id}` })
    .where(eq(productVariants.id, id));
}

export async function deleteVariants(db: DbOrTx, ids: string[]): Promise<void> {
  await db.delete(productVariants).where(inArray(productVariants.id, ids));
}

/** Changes a product's fields and its updated time. */
export async function updateProduct(
  db: DbOrTx,
  id: string,
  values: Partial<Omit<typeof products.$inferInsert, 'id'>>,
): Promise<void> {
  await db
    .update(products)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(products.id, id));
}

/** Products and their variants on sale, for the CSV export, in the catalogue's order. */
export async function exportRows(db: DbOrTx) {
  return db
    .select({
      slug: products.slug,
      name: products.name,
      categorySlug: categories.slug,
      status: products.status,
      sku: productVariants.sku,
      options: productVariants.options,
      price: productVariants.price,
      compareAtPrice: productVariants.compareAtPrice,
      stock: productVariants.stock,
      lowStockThreshold: productVariants.lowStockThreshold,
    })
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .innerJoin(
      productVariants,
      and(eq(productVariants.productId, products.id), eq(productVariants.archived, false)),
    )
    .orderBy(
      asc(products.createdAt),
      asc(products.slug),
      asc(productVariants.sortOrder),
      asc(productVariants.sku),
    );
}
