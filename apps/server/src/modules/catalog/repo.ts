import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { CatalogListQuery } from '@shop/shared/catalog';
import type { DbOrTx } from '../../db/client.ts';
import { rows } from '../../db/rows.ts';
import { categories, productVariants, products, type ProductImage } from '../../db/schema.ts';
import { containsPattern } from '../../db/like.ts';
import { pageWindow } from '@shop/shared/paging';

export interface CardRow {
  id: string;
  slug: string;
  name: string;
  summary: string;
  tags: string[];
  cover: ProductImage | null;
  category_slug: string;
  category_name: string;
  min_price: number;
  max_price: number;
  compare_at: number | null;
  stock: number;
}

/** A card with what the in-memory list filters and sorts on (catalog-index.ts). */
export interface IndexRow extends CardRow {
  /** Microseconds since 1970, as the database orders it (milliseconds would tie products made together). */
  created_us: number;
  sold_count: number;
  sort_weight: number;
  search_text: string;
  parent_slug: string | null;
}

/** Orders over the `filtered` rows (aliased p); the product id breaks every tie. */
const ORDER: Record<CatalogListQuery['sort'], SQL> = {
  recommended: sql`p.sort_weight desc, p.sold_count desc, p.created_at desc, p.id`,
  newest: sql`p.created_at desc, p.id`,
  'price-asc': sql`p.min_price asc, p.id`,
  'price-desc': sql`p.min_price desc, p.id`,
  'best-selling': sql`p.sold_count desc, p.id`,
};

/** The card columns for active products, each with its variants' price and stock summary. */
function cardSelect(where: SQL): SQL {
  return sql`
    select p.id, p.slug, p.name, p.summary, p.tags, p.images -> 0 as cover, p.created_at, p.sold_count, p.sort_weight,
           c.slug as category_slug, c.name as category_name,
           agg.min_price, agg.max_price, agg.compare_at, agg.stock
    from products p
    join categories c on c.id = p.category_id
    left join categories pc on pc.id = c.parent_id
    join lateral (
      select min(v.price)::int as min_price,
             max(v.price)::int as max_price,
             max(v.compare_at_price) filter (where v.compare_at_price > v.price)::int as compare_at,
             coalesce(sum(v.stock), 0)::int as stock
      from product_variants v
      where v.product_id = p.id and not v.archived
    ) agg on agg.min_price is not null
    where p.status = 'active' and ${where}`;
}

/**
 * One round trip: filters, the page in a stable order (id breaks ties), and the total count,
 * which comes back even when the page is past the end.
 */
export async function listProducts(
  db: DbOrTx,
  q: CatalogListQuery,
): Promise<{ total: number; items: CardRow[] }> {
  const conditions: SQL[] = [sql`true`];
  if (q.category) conditions.push(sql`(c.slug = ${q.category} or pc.slug = ${q.category})`);
  // 台 and 臺 match each other (the in-memory list folds them the same way).
  if (q.q)
    conditions.push(
      sql`translate(p.search_text, '臺', '台') like ${containsPattern(q.q.toLowerCase().replaceAll('臺', '台'))}`,
    );
  // A product matches a price range when any of its variants' prices falls inside it.
  if (q.minPrice !== undefined) conditions.push(sql`agg.max_price >= ${q.minPrice}`);
  if (q.maxPrice !== undefined) conditions.push(sql`agg.min_price <= ${q.maxPrice}`);
  if (q.inStock) conditions.push(sql`agg.stock > 0`);
  const { offset } = pageWindow(q.page, q.pageSize);
  const result = await db.execute(sql`
    with filtered as (${cardSelect(sql.join(conditions, sql` and `))})
    select t.total, page.*
    from (select count(*)::int as total from filtered) t
    left join lateral (
      select * from filtered p order by ${ORDER[q.sort]} limit ${q.pageSize} offset ${offset}
    ) page on true`);
  const all = rows<CardRow & { total: number }>(result);
  const total = all[0]?.total ?? 0;
  return { total, items: all.filter((r) => r.id !== null) };
}

/** Every product on sale as the in-memory list holds it, in one round trip. */
export async function indexRows(db: DbOrTx): Promise<IndexRow[]> {
  const result = await db.execute(sql`
    select f.id, f.slug, f.name, f.summary, f.tags, f.cover, f.category_slug, f.category_name, f.min_price, f.max_price, f.compare_at, f.stock,
           f.sold_count, f.sort_weight, (extract(epoch from f.created_at) * 1000000)::bigint::text as created_us,
           p.search_text, pc.slug as parent_slug
    from (${cardSelect(sql`true`)}) f
    join products p on p.id = f.id
    join categories c on c.id = p.category_id
    left join categories pc on pc.id = c.parent_id`);
  return rows<IndexRow>(result).map((r) => ({
    ...r,
    created_us: Number(r.created_us),
    sold_count: Number(r.sold_count),
    sort_weight: Number(r.sort_weight),
  }));
}

/** The stock of products as the list counts it (the sum over their variants on sale), by product id. */
/** What a sale moves of a product: its stock (over the variants on sale) and how many were sold. */
export interface ProductCounts {
  stock: number;
  soldCount: number;
}

/** The stock and sales count of these products; products no longer there are absent. */
export async function productCounts(
  db: DbOrTx,
  productIds: readonly string[],
): Promise<Map<string, ProductCounts>> {
  if (productIds.length === 0) return new Map();
  const result = await db.execute(sql`
    select p.id, p.sold_count,
      coalesce((select sum(v.stock) from product_variants v where v.product_id = p.id and not v.archived), 0)::int as stock
    from products p where p.id in ${[...productIds]}`);
  return new Map(
    rows<{ id: string; sold_count: number; stock: number }>(result).map((r) => [
      r.id,
      { stock: Number(r.stock), soldCount: Number(r.sold_count) },
    ]),
  );
}

/** Same category first, then the same parent; best sellers first; never one that is sold out (nothing to buy there). */
export async function relatedProducts(db: DbOrTx, productId: string, limit: number): Promise<CardRow[]> {
  const result = await db.execute(sql`
    with me as (
      select p.category_id, c.parent_id from products p join categories c on c.id = p.category_id where p.id = ${productId}
    )
    select r.* from (${cardSelect(sql`p.id <> ${productId}`)}) r
    join products rp on rp.id = r.id
    join categories rc on rc.id = rp.category_id, me
    where r.stock > 0 and (rp.category_id = me.category_id or (me.parent_id is not null and rc.parent_id = me.parent_id))
    order by (rp.category_id = me.category_id) desc, r.sold_count desc, r.id
    limit ${limit}`);
  return rows<CardRow>(result);
}

export interface DetailRow {
  product: typeof products.$inferSelect;
  category: { slug: string; name: string };
  parent: { slug: string; name: string } | null;
}

/** A product by id or slug (any status; the service decides who may see it). */
export async function findProduct(db: DbOrTx, idOrSlug: string): Promise<DetailRow | null> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrSlug);
  const parent = sql`(select json_build_object('slug', pc.slug, 'name', pc.name) from categories pc where pc.id = ${categories.parentId})`;
  const [row] = await db
    .select({
      product: products,
      category: { slug: categories.slug, name: categories.name },
      parent: sql<DetailRow['parent']>`${parent}`,
    })
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .where(isUuid ? eq(products.id, idOrSlug) : eq(products.slug, idOrSlug.toLowerCase()))
    .limit(1);
  return row ?? null;
}

export async function variantsOf(db: DbOrTx, productId: string) {
  return db
    .select()
    .from(productVariants)
    .where(and(eq(productVariants.productId, productId), eq(productVariants.archived, false)))
    .orderBy(asc(productVariants.sortOrder), asc(productVariants.price));
}

export async function categoryTree(db: DbOrTx) {
  const result = await db.execute(sql`
    select c.slug, c.name, c.description, c.sort_order, parent.slug as parent_slug,
           (select count(*)::int from products p
             where p.status = 'active' and (p.category_id = c.id or p.category_id in (select id from categories k where k.parent_id = c.id))) as product_count
    from categories c left join categories parent on parent.id = c.parent_id
    order by c.sort_order, c.name`);
  return rows<{
    slug: string;
    name: string;
    description: string;
    parent_slug: string | null;
    product_count: number;
  }>(result);
}

export async function findProductSlug(db: DbOrTx, id: string): Promise<string | null> {
  const [row] = await db.select({ slug: products.slug }).from(products).where(eq(products.id, id)).limit(1);
  return row?.slug ?? null;
}

/** Every active product's slug and when it last changed (the sitemap). */
export async function activeProductSlugs(db: DbOrTx): Promise<Array<{ slug: string; updatedAt: Date }>> {
  return db
    .select({ slug: products.slug, updatedAt: products.updatedAt })
    .from(products)
    .where(eq(products.status, 'active'));
}

/** Cards of the given active products, in the given order. */
export async function cardsBySlugs(db: DbOrTx, slugs: readonly string[]): Promise<CardRow[]> {
  if (slugs.length === 0) return [];
  const result = rows<CardRow & { slug: string }>(await db.execute(cardSelect(sql`p.slug in ${[...slugs]}`)));
  return [...slugs].map((s) => result.find((r) => r.slug === s)).filter((r): r is CardRow => r !== undefined);
}

/** Cards of the given active products (any order; missing or inactive ones are left out). */
export async function cardsByIds(db: DbOrTx, ids: readonly string[]): Promise<CardRow[]> {
  if (ids.length === 0) return [];
  return rows<CardRow>(await db.execute(cardSelect(sql`p.id in ${[...ids]}`)));
}

/** The variants on sale of several products, in each product's display order. */
export async function variantsOfProducts(db: DbOrTx, productIds: readonly string[]) {
  if (productIds.length === 0) return [];
  return db
    .select()
    .from(productVariants)
    .where(and(inArray(productVariants.productId, [...productIds]), eq(productVariants.archived, false)))
    .orderBy(asc(productVariants.sortOrder), asc(productVariants.price));
}

export async function insertProduct(
  db: DbOrTx,
  values: typeof products.$inferInsert,
): Promise<string | null> {
  const [row] = await db
    .insert(products)
    .values(values)
    .onConflictDoNothing({ target: products.slug })
    .returning({ id: products.id });
  return row?.id ?? null;
}

/** Inserts variants (in the given order); their ids in the same order. */
export async function insertVariants(
  db: DbOrTx,
  values: Array<typeof productVariants.$inferInsert>,
): Promise<Array<{ id: string; sku: string }>> {
  if (values.length === 0) return [];
  const rows = await db
    .insert(productVariants)
    .values(values)
    .returning({ id: productVariants.id, sku: productVariants.sku });
  return values.map((v) => rows.find((r) => r.sku === v.sku)!);
}

export async function setProductSlug(db: DbOrTx, productId: string, slug: string): Promise<boolean> {
  const updated = await db
    .update(products)
    .set({ slug, updatedAt: new Date() })
    .where(eq(products.id, productId))
    .returning({ id: products.id });
  return updated.length > 0;
}

export async function setArchived(
  db: DbOrTx,
  productId: string,
  replacementId: string | null,
): Promise<void> {
  await db
    .update(products)
    .set({ status: 'archived', replacementId, updatedAt: new Date() })
    .where(eq(products.id, productId));
}

export async function insertCategory(db: DbOrTx, values: typeof categories.$inferInsert): Promise<string> {
  const [row] = await db.insert(categories).values(values).returning({ id: categories.id });
  return row!.id;
}
