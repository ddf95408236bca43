import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogListQuery } from '@shop/shared/catalog';
import { createTestApp, dbAvailable, type TestContext } from '../../../test/helpers.ts';
import { seedTestCatalog } from '../../../test/fixtures.ts';
import { createCatalogIndex, foldSearch, type ListsChange } from './catalog-index.ts';
import * as repo from './repo.ts';
import { rows } from '../../db/rows.ts';
import { catalogChanged, createProduct, listFromIndex, listProducts } from './service.ts';

/**
 * The in-memory list answers exactly what the SQL list answers: the same products, in the same
 * order, with the same totals, for every filter, search, sort and page tried.
 */
describe.skipIf(!dbAvailable())('the in-memory catalogue list', () => {
  let ctx: TestContext;
  const queries: CatalogListQuery[] = [];
  beforeAll(async () => {
    ctx = await createTestApp();
    const { categories } = await seedTestCatalog(ctx.database);
    // More products with ties on every sort key (same weight, sales, price and creation time), 臺/台 names and wildcards.
    const made = new Date(Date.UTC(2026, 5, 1));
    const words = ['臺灣高山烏龍', '台灣紅茶', '100% 手工 茶杯', '茶_器 組', '阿里山金萱', '冷泡 臺茶'];
    for (let i = 0; i < 36; i++) {
      const name = `${words[i % words.length]} ${i}`;
      await createProduct(
        ctx.database.db,
        {
          slug: `extra-${i}`,
          name,
          summary: i % 4 === 0 ? '臺茶十八號' : '日常好茶',
          categoryId: [categories.oolong.id, categories.black.id, categories.ware.id, categories.tea.id][
            i % 4
          ]!,
          tags: i % 3 === 0 ? ['禮盒'] : [],
          specs: [],
          description: [],
          images: [],
          status: i % 9 === 8 ? 'draft' : 'active',
          sortWeight: i % 3 === 0 ? 50 : 10,
          soldCount: (i * 7) % 5,
          createdAt: i % 5 === 0 ? made : new Date(made.getTime() + i * 1000),
        },
        [
          {
            sku: `EX-${i}-A`,
            options: { 規格: '75 g' },
            price: 300 + (i % 6) * 100,
            stock: i % 4 === 1 ? 0 : 5,
            lowStockThreshold: 1,
          },
          ...(i % 2
            ? [
                {
                  sku: `EX-${i}-B`,
                  options: { 規格: '150 g' },
                  price: 900 + (i % 3) * 50,
                  compareAtPrice: 1200,
                  stock: 0,
                  lowStockThreshold: 1,
                },
              ]
            : []),
        ],
      );
    }
    const sorts = ['recommended', 'newest', 'price-asc', 'price-desc', 'best-selling'] as const;
    const searches = [undefined, '烏龍', '台灣', '臺灣', '臺茶', '茶', '100%', '_', '手工', 'no-such-thing'];
    const cats = [undefined, 'tea', 'oolong', 'black', 'ware'];
    for (const sort of sorts)
      for (const q of searches)
        for (const category of cats)
          for (const [minPrice, maxPrice, inStock, page, pageSize] of [
            [undefined, undefined, undefined, 1, 12],
            [500, undefined, true, 1, 5],
            [undefined, 800, undefined, 2, 5],
            [400, 1000, false, 3, 4],
          ] as const) {
            queries.push(
              CatalogListQuery.parse({
                sort,
                ...(q ? { q } : {}),
                ...(category ? { category } : {}),
                ...(minPrice !== undefined ? { minPrice: String(minPrice) } : {}),
                ...(maxPrice !== undefined ? { maxPrice: String(maxPrice) } : {}),
                ...(inStock !== undefined ? { inStock: inStock ? '1' : '0' } : {}),
                page: String(page),
                pageSize: String(pageSize),
              }),
            );
          }
  });
  afterAll(async () => ctx.close());

  it(`answers the same as the SQL list for every query tried`, async () => {
    const index = createCatalogIndex(() => repo.indexRows(ctx.database.db));
    const differences: string[] = [];
    for (const query of queries) {
      const sql = await repo.listProducts(ctx.database.db, query);
      const memory = await index.list(query);
      const a = JSON.stringify([sql.total, sql.items.map((r) => r.slug)]);
      const b = JSON.stringify([memory.total, memory.items.map((r) => r.slug)]);
      if (a !== b) differences.push(`${JSON.stringify(query)}\n  sql    ${a}\n  memory ${b}`);
    }
    expect(queries.length).toBeGreaterThan(900);
    expect(differences.slice(0, 5)).toEqual([]);
  });

  it('writes the same JSON, byte for byte, as the SQL list serialised, for every query tried', async () => {
    const index = createCatalogIndex(() => repo.indexRows(ctx.database.db));
    const differences: string[] = [];
    for (const query of queries) {
      const sql = JSON.stringify(await listProducts(ctx.database.db, query));
      const memory = (await listFromIndex(index, query)).json;
      if (sql !== memory)
        differences.push(
          `${JSON.stringify(query)}\n  sql    ${sql.slice(0, 300)}\n  memory ${memory.slice(0, 300)}`,
        );
    }
    expect(differences.slice(0, 3)).toEqual([]);
  });

  it('treats 台 and 臺 as the same character', async () => {
    expect(foldSearch('臺灣 TAIWAN')).toBe('台灣 taiwan');
    const index = createCatalogIndex(() => repo.indexRows(ctx.database.db));
    const one = await index.list(CatalogListQuery.parse({ q: '臺灣' }));
    const other = await index.list(CatalogListQuery.parse({ q: '台灣' }));
    expect(one.total).toBeGreaterThan(0);
    expect(one.items.map((r) => r.slug)).toEqual(other.items.map((r) => r.slug));
  });

  it('loads once for many lists at the same moment, and again only after a write', async () => {
    let loads = 0;
    const index = createCatalogIndex(async () => {
      loads += 1;
      return repo.indexRows(ctx.database.db);
    });
    await Promise.all(Array.from({ length: 20 }, () => index.list(CatalogListQuery.parse({}))));
    await index.list(CatalogListQuery.parse({ q: '茶' }));
    expect(loads).toBe(1);
    index.stale();
    await index.list(CatalogListQuery.parse({}));
    expect(loads).toBe(2);
  });

  describe('a change of stock alone', () => {
    const db = () => ctx.database.db;
    const inStock = CatalogListQuery.parse({ inStock: '1', pageSize: '48' });
    const setStock = (sku: string, stock: number) =>
      db().execute(sql`update product_variants set stock = ${stock} where sku = ${sku}`);
    const idOf = async (slug: string) =>
      rows<{ id: string }>(await db().execute(sql`select id from products where slug = ${slug}`))[0]!.id;

    it('is put in place without loading everything again, and says when a product went in or out of stock', async () => {
      let loads = 0;
      let flips = 0;
      const index = createCatalogIndex(
        async () => {
          loads += 1;
          return repo.indexRows(db());
        },
        {
          loadCounts: (ids) => repo.productCounts(db(), ids),
          onListsChange: (change) => void (change.soldOut && (flips += 1)),
        },
      );
      const slugs = async () => (await index.list(inStock)).items.map((r) => r.slug);
      const [pot, dongding] = [await idOf('zhuni-pot'), await idOf('dong-ding')];
      try {
        expect(await slugs()).toEqual(expect.arrayContaining(['zhuni-pot', 'dong-ding']));
        await setStock('POT-1', 0);
        // Another product sells out too, but nobody says so: only a full reload would show it.
        await setStock('DD-S', 0);
        index.stockChanged([pot]);
        expect(await slugs()).not.toContain('zhuni-pot');
        expect(await slugs()).toContain('dong-ding');
        expect(loads).toBe(1);
        expect(flips).toBe(1);
        // Fewer left but still in stock: in place, nothing flips.
        await setStock('POT-1', 3);
        index.stockChanged([pot]);
        await index.settled();
        await setStock('POT-1', 2);
        index.stockChanged([pot]);
        expect((await index.list(CatalogListQuery.parse({ q: '朱泥' }))).items[0]!.stock).toBe(2);
        expect(flips).toBe(2);
        await setStock('DD-S', 30);
        index.stockChanged([dongding]);
        await index.settled();
        expect(flips).toBe(2);
        expect(loads).toBe(1);
      } finally {
        await setStock('POT-1', 3);
        await setStock('DD-S', 30);
      }
    });

    it('a sales count that moved sorts the orders that count sales again, and names only the lists that may show the product', async () => {
      let loads = 0;
      const changes: ListsChange[] = [];
      const index = createCatalogIndex(
        async () => {
          loads += 1;
          return repo.indexRows(db());
        },
        { loadCounts: (ids) => repo.productCounts(db(), ids), onListsChange: (c) => void changes.push(c) },
      );
      const bestSelling = CatalogListQuery.parse({ sort: 'best-selling', pageSize: '48' });
      const order = async () => (await index.list(bestSelling)).items.map((r) => r.slug);
      const pot = await idOf('zhuni-pot');
      const setSold = (slug: string, n: number) =>
        db().execute(sql`update products set sold_count = ${n} where slug = ${slug}`);
      const before = await order();
      const [{ sold_count: sold }] = rows<{ sold_count: number }>(
        await db().execute(sql`select sold_count from products where slug = 'zhuni-pot'`),
      ) as [{ sold_count: number }];
      try {
        await setSold('zhuni-pot', 1_000_000);
        index.stockChanged([pot]);
        expect((await order())[0]).toBe('zhuni-pot');
        expect(loads).toBe(1);
        expect(changes).toEqual([{ productIds: [pot], soldOut: false, reordered: true }]);
        // The lists that may show the pot: its category or above, its price, a search for it.
        const may = (q: Record<string, string>) => index.mayShow(CatalogListQuery.parse(q), [pot]);
        expect(may({})).toBe(true);
        expect(may({ category: 'ware' })).toBe(true);
        expect(may({ category: 'tea' })).toBe(false);
        expect(may({ category: 'oolong' })).toBe(false);
        expect(may({ q: '朱泥' })).toBe(true);
        expect(may({ q: '凍頂' })).toBe(false);
        expect(may({ maxPrice: '1' })).toBe(false);
        // A product the index does not hold: any list may show it.
        expect(index.mayShow(CatalogListQuery.parse({ category: 'tea' }), ['no-such-product'])).toBe(true);
        // Stock that moved without turning, and a count that did not move: no list changes.
        await setStock('POT-1', 2);
        index.stockChanged([pot]);
        await index.settled();
        expect(changes).toHaveLength(1);
      } finally {
        await setStock('POT-1', 3);
        await setSold('zhuni-pot', Number(sold));
        index.stockChanged([pot]);
        expect(await order()).toEqual(before);
      }
    });

    it('heard while the list was loading, is applied to what the load brings', async () => {
      let loads = 0;
      let read!: () => void;
      const wasRead = new Promise<void>((r) => (read = r));
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const index = createCatalogIndex(
        async () => {
          loads += 1;
          const rows = await repo.indexRows(db());
          read();
          await gate;
          return rows;
        },
        { loadCounts: (ids) => repo.productCounts(db(), ids) },
      );
      const pot = await idOf('zhuni-pot');
      try {
        const first = index.list(inStock);
        await wasRead;
        // The sale commits after the load read the pot as in stock.
        await setStock('POT-1', 0);
        index.stockChanged([pot]);
        const applied = index.settled();
        release();
        await first;
        await applied;
        expect((await index.list(inStock)).items.map((r) => r.slug)).not.toContain('zhuni-pot');
        expect(loads).toBe(1);
      } finally {
        await setStock('POT-1', 3);
      }
    });

    it('through the app: another instance’s stock change, heard on the event bus, is put in place and drops the cached pages it changed', async () => {
      const list = async () =>
        (
          (
            await ctx.app.inject({ method: 'GET', url: '/api/catalog/products?inStock=1&pageSize=48' })
          ).json() as { items: Array<{ slug: string }> }
        ).items.map((p) => p.slug);
      const page = async (slug: string) =>
        (await ctx.app.inject({ method: 'GET', url: `/api/catalog/products/${slug}` })).json() as {
          variants: Array<{ sku: string; stock: number }>;
        };
      const pot = await idOf('zhuni-pot');
      try {
        expect(await list()).toEqual(expect.arrayContaining(['zhuni-pot', 'dong-ding']));
        expect((await page('zhuni-pot')).variants[0]!.stock).toBe(3);
        expect((await page('dong-ding')).variants.find((v) => v.sku === 'DD-S')!.stock).toBe(30);
        // What another instance publishes after a sale (through Redis when several run).
        const sold = () =>
          ctx.app.events.publish('catalog', {
            type: 'catalog.changed',
            data: { origin: 'another-instance', productIds: [pot] },
          });
        await setStock('POT-1', 2);
        await setStock('DD-S', 29);
        await sold();
        expect((await page('zhuni-pot')).variants[0]!.stock).toBe(2);
        // Nothing else was dropped: the other product's page is still the one cached.
        expect((await page('dong-ding')).variants.find((v) => v.sku === 'DD-S')!.stock).toBe(30);
        await setStock('POT-1', 0);
        await sold();
        expect(await list()).not.toContain('zhuni-pot');
        expect((await page('zhuni-pot')).variants[0]!.stock).toBe(0);
      } finally {
        await setStock('POT-1', 3);
        await setStock('DD-S', 30);
        catalogChanged();
      }
    });
  });

  it('through the app: a sale that empties a product shows on the next list', async () => {
    const list = async () =>
      (
        await ctx.app.inject({ method: 'GET', url: '/api/catalog/products?inStock=1&pageSize=48' })
      ).json() as { items: Array<{ slug: string }> };
    expect((await list()).items.map((p) => p.slug)).toContain('white-cup');
    await ctx.database.db.execute(`update product_variants set stock = 0 where sku = 'CUP-1'`);
    // A write through the catalog's services says so; this one went around them, so say it by hand.
    catalogChanged();
    expect((await list()).items.map((p) => p.slug)).not.toContain('white-cup');
  });
});
