import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbAvailable, type TestContext } from '../../../test/helpers.ts';
import { seedTestCatalog } from '../../../test/fixtures.ts';
import { archiveProduct, changeProductSlug, createProduct } from './service.ts';

describe.skipIf(!dbAvailable())('catalog API', () => {
  let ctx: TestContext;
  let fx: Awaited<ReturnType<typeof seedTestCatalog>>;
  beforeAll(async () => {
    ctx = await createTestApp();
    fx = await seedTestCatalog(ctx.database);
  });
  afterAll(async () => ctx.close());

  const list = async (query = '') => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/catalog/products${query ? `?${query}` : ''}`,
    });
    return {
      res,
      body: res.json() as {
        items: Array<{
          slug: string;
          priceMin: number;
          priceMax: number;
          compareAtPrice: number | null;
          inStock: boolean;
        }>;
        total: number;
        totalPages: number;
        page: number;
      },
    };
  };
  const slugs = async (query: string) => (await list(query)).body.items.map((i) => i.slug);

  it('lists active products only, in the recommended order by default', async () => {
    const { res, body } = await list();
    expect(res.statusCode).toBe(200);
    expect(body.total).toBe(5);
    // Equal weights fall back to best sellers, then the newest.
    expect(body.items.map((i) => i.slug)).toEqual([
      'dong-ding',
      'ruby-black',
      'li-shan',
      'zhuni-pot',
      'white-cup',
    ]);
  });

  it('summarises variants: price range, sale price, stock', async () => {
    const items = (await list()).body.items;
    expect(items.find((i) => i.slug === 'li-shan')).toMatchObject({
      priceMin: 980,
      priceMax: 1880,
      compareAtPrice: 1200,
      inStock: true,
    });
    expect(items.find((i) => i.slug === 'ruby-black')).toMatchObject({
      inStock: false,
      compareAtPrice: null,
    });
  });

  describe('search', () => {
    it('finds a Chinese substring in the name', async () => {
      // The teapot's summary mentions 烏龍 too.
      expect((await slugs(`q=${encodeURIComponent('烏龍')}`)).sort()).toEqual(['dong-ding', 'zhuni-pot']);
      expect(await slugs(`q=${encodeURIComponent('頂烏')}`)).toEqual(['dong-ding']);
    });
    it('finds words in the summary and the tags', async () => {
      expect(await slugs(`q=${encodeURIComponent('肉桂')}`)).toEqual(['ruby-black']);
      expect((await slugs(`q=${encodeURIComponent('茶器')}`)).sort()).toEqual(['white-cup', 'zhuni-pot']);
    });
    it('ignores case and treats % and _ literally', async () => {
      expect(await slugs('q=%25')).toEqual(['white-cup']);
      expect(await slugs('q=_')).toEqual([]);
    });
    it('answers an empty list when nothing matches', async () => {
      const { body } = await list(`q=${encodeURIComponent('咖啡')}`);
      expect(body).toMatchObject({ items: [], total: 0, totalPages: 1 });
    });
  });

  describe('filters', () => {
    it('filters by a child category, or a parent with its children', async () => {
      expect((await slugs('category=oolong')).sort()).toEqual(['dong-ding', 'li-shan']);
      expect((await slugs('category=tea')).sort()).toEqual(['dong-ding', 'li-shan', 'ruby-black']);
      expect(await slugs('category=nothing-here')).toEqual([]);
    });
    it('filters by price range: any variant inside the range counts', async () => {
      expect((await slugs('minPrice=800&maxPrice=1000')).sort()).toEqual(['dong-ding', 'li-shan']);
      expect((await slugs('minPrice=3000')).sort()).toEqual(['zhuni-pot']);
      expect((await slugs('maxPrice=450')).sort()).toEqual(['ruby-black']);
    });
    it('keeps only products in stock', async () => {
      expect(await slugs('inStock=1')).not.toContain('ruby-black');
      expect((await slugs('inStock=1')).length).toBe(4);
    });
    it('combines filters', async () => {
      expect(await slugs(`category=tea&inStock=1&q=${encodeURIComponent('茶')}&maxPrice=500`)).toEqual([
        'dong-ding',
      ]);
    });
  });

  describe('sorting', () => {
    it('sorts by newest', async () => {
      expect(await slugs('sort=newest')).toEqual([
        'li-shan',
        'zhuni-pot',
        'ruby-black',
        'white-cup',
        'dong-ding',
      ]);
    });
    it('sorts by price ascending and descending (lowest variant price)', async () => {
      const asc = await list('sort=price-asc');
      expect(asc.res.statusCode, asc.res.body).toBe(200);
      const prices = asc.body.items.map((i) => i.priceMin);
      expect(prices).toEqual([...prices].sort((a, b) => a - b));
      const desc = await list('sort=price-desc');
      expect(desc.body.items.map((i) => i.priceMin)).toEqual([...prices].sort((a, b) => b - a));
      expect(desc.body.items[0]?.slug).toBe('zhuni-pot');
    });
    it('sorts by best-selling', async () => {
      expect((await slugs('sort=best-selling')).slice(0, 3)).toEqual(['ruby-black', 'dong-ding', 'li-shan']);
    });
  });

  describe('pagination', () => {
    it('pages in a stable order: every product once, the same on every request', async () => {
      for (const sort of ['recommended', 'newest', 'price-asc', 'price-desc', 'best-selling']) {
        const seen: string[] = [];
        for (let page = 1; page <= 3; page++)
          seen.push(...(await slugs(`sort=${sort}&pageSize=2&page=${page}`)));
        expect(seen.length, sort).toBe(5);
        expect(new Set(seen).size, sort).toBe(5);
        const again: string[] = [];
        for (let page = 1; page <= 3; page++)
          again.push(...(await slugs(`sort=${sort}&pageSize=2&page=${page}`)));
        expect(again, sort).toEqual(seen);
      }
    });
    it('reports pages and answers past the end with no items but the right total', async () => {
      const first = await list('pageSize=2');
      expect(first.body).toMatchObject({ page: 1, total: 5, totalPages: 3 });
      const past = await list('pageSize=2&page=9');
      expect(past.body).toMatchObject({ items: [], total: 5, page: 9 });
    });
  });

  describe('caching', () => {
    it('answers a repeat request with 304 and no body', async () => {
      const first = await ctx.app.inject({ method: 'GET', url: '/api/catalog/products?sort=newest' });
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^".+"$/);
      expect(first.headers['cache-control']).toBe('public, no-cache');
      const second = await ctx.app.inject({
        method: 'GET',
        url: '/api/catalog/products?sort=newest',
        headers: { 'if-none-match': etag },
      });
      expect(second.statusCode).toBe(304);
      expect(second.body).toBe('');
      const detail = await ctx.app.inject({ method: 'GET', url: '/api/catalog/products/dong-ding' });
      const again = await ctx.app.inject({
        method: 'GET',
        url: '/api/catalog/products/dong-ding',
        headers: { 'if-none-match': String(detail.headers.etag) },
      });
      expect(again.statusCode).toBe(304);
    });
    it('gives a new ETag when the data changes', async () => {
      const before = await ctx.app.inject({ method: 'GET', url: '/api/catalog/products?category=ware' });
      await createProduct(
        ctx.database.db,
        {
          slug: 'tea-tray',
          name: '竹製茶盤',
          summary: '乾泡用的小茶盤。',
          categoryId: fx.categories.ware.id,
          tags: ['茶器'],
          specs: [],
          description: [],
          images: [],
          status: 'active',
          sortWeight: 1,
        },
        [{ sku: 'TRAY-1', options: {}, price: 1280, stock: 5, lowStockThreshold: 2 }],
      );
      const after = await ctx.app.inject({
        method: 'GET',
        url: '/api/catalog/products?category=ware',
        headers: { 'if-none-match': String(before.headers.etag) },
      });
      expect(after.statusCode).toBe(200);
      expect(after.json().total).toBe(3);
    });
  });

  it('answers 400 with the reason for every bad query parameter, never a 500', async () => {
    const bad: Array<[string, string]> = [
      ['sort=cheapest', 'sort'],
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['pageSize=100', 'pageSize'],
      ['minPrice=-1', 'minPrice'],
      ['maxPrice=1.5', 'maxPrice'],
      ['minPrice=900&maxPrice=100', 'minPrice'],
      ['inStock=maybe', 'inStock'],
      ['category=%E8%8C%B6', 'category'],
      [`q=${'茶'.repeat(51)}`, 'q'],
      ['color=red', '_'],
    ];
    for (const [query, field] of bad) {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/catalog/products?${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code, query).toBe('invalid-argument');
      expect(typeof res.json().error.message).toBe('string');
      if (field !== '_') expect(res.json().error.fields[field], query).toBeTruthy();
    }
  });

  describe('product detail', () => {
    it('is found by slug or id, with variants, options and stock messages', async () => {
      const bySlug = await ctx.app.inject({ method: 'GET', url: '/api/catalog/products/li-shan' });
      expect(bySlug.statusCode).toBe(200);
      const detail = bySlug.json();
      expect(detail).toMatchObject({
        slug: 'li-shan',
        name: '梨山高山茶',
        category: { slug: 'oolong', name: '烏龍茶', parent: { slug: 'tea', name: '茶葉' } },
        optionNames: ['規格'],
      });
      expect(detail.variants).toEqual([
        expect.objectContaining({
          sku: 'LS-S',
          label: '75 g',
          price: 980,
          compareAtPrice: 1200,
          stockState: 'in-stock',
        }),
        expect.objectContaining({
          sku: 'LS-L',
          label: '150 g',
          price: 1880,
          compareAtPrice: null,
          stock: 2,
          stockState: 'low',
        }),
      ]);
      const byId = await ctx.app.inject({ method: 'GET', url: `/api/catalog/products/${fx.ids.lishan}` });
      expect(byId.json().slug).toBe('li-shan');
      const soldOut = (
        await ctx.app.inject({ method: 'GET', url: '/api/catalog/products/ruby-black' })
      ).json();
      expect(soldOut.variants.every((v: { stockState: string }) => v.stockState === 'sold-out')).toBe(true);
    });

    it('hides drafts and unknown products as 404, and refuses a malformed id with 400', async () => {
      expect(
        (await ctx.app.inject({ method: 'GET', url: '/api/catalog/products/next-spring' })).statusCode,
      ).toBe(404);
      expect(
        (await ctx.app.inject({ method: 'GET', url: '/api/catalog/products/no-such-tea' })).json().error.code,
      ).toBe('not-found');
      expect(
        (await ctx.app.inject({ method: 'GET', url: '/api/catalog/products/%3Cscript%3E' })).statusCode,
      ).toBe(400);
    });

    it('lists related products from the same category first, none of them sold out', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/catalog/products/dong-ding/related' });
      const related = res.json().items.map((i: { slug: string }) => i.slug);
      expect(related[0]).toBe('li-shan');
      // 紅玉紅茶 shares the parent category but every variant is sold out: never recommended.
      expect(related).not.toContain('ruby-black');
      expect(res.json().items.every((i: { inStock: boolean }) => i.inStock)).toBe(true);
      expect(related).not.toContain('dong-ding');
      expect(related).not.toContain('zhuni-pot');
    });
  });

  it('gives the category tree with counts of active products', async () => {
    const tree = (await ctx.app.inject({ method: 'GET', url: '/api/catalog/categories' })).json().categories;
    const tea = tree.find((c: { slug: string }) => c.slug === 'tea');
    expect(tea.productCount).toBe(3);
    expect(tea.children.map((c: { slug: string; productCount: number }) => [c.slug, c.productCount])).toEqual(
      [
        ['oolong', 2],
        ['black', 1],
      ],
    );
  });

  describe('old links keep working', () => {
    it('a slug change writes a redirect from the old page to the new one', async () => {
      await changeProductSlug(ctx.database.db, fx.ids.cup, 'white-porcelain-cup');
      const lookup = await ctx.app.inject({ method: 'GET', url: '/api/redirects?path=/mall/white-cup' });
      expect(lookup.json()).toEqual({ redirect: { target: '/mall/white-porcelain-cup', permanent: true } });
      expect(
        (await ctx.app.inject({ method: 'GET', url: '/api/catalog/products/white-porcelain-cup' }))
          .statusCode,
      ).toBe(200);
    });
    it('archiving with a replacement sends the archived page to the replacement', async () => {
      await archiveProduct(ctx.database.db, fx.ids.pot, fx.ids.dongding);
      expect(
        (await ctx.app.inject({ method: 'GET', url: '/api/redirects?path=/mall/zhuni-pot' })).json().redirect
          .target,
      ).toBe('/mall/dong-ding');
      expect(
        (await ctx.app.inject({ method: 'GET', url: '/api/catalog/products/zhuni-pot' })).statusCode,
      ).toBe(404);
      expect(await slugs('category=ware')).not.toContain('zhuni-pot');
    });
  });
});
