import { and, count, desc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSV_BOM, parseCsv, toCsv } from '@shop/shared/csv';
import { PRODUCT_CSV_COLUMNS, type AdminProductDetail } from '@shop/shared/admin-products';
import { createTestApp, dbAvailable, signIn, type TestContext } from '../../../test/helpers.ts';
import { seedTestCatalog, setRole } from '../../../test/fixtures.ts';
import { ORIGIN, shopper } from '../../../test/shop.ts';
import { auditLog, productVariants, products, redirects, stockAdjustments } from '../../db/schema.ts';

type Method = 'GET' | 'POST' | 'PUT';

describe.skipIf(!dbAvailable())('console products and stock', () => {
  let ctx: TestContext;
  let fx: Awaited<ReturnType<typeof seedTestCatalog>>;
  const cookies: Record<'owner' | 'staff' | 'viewer' | 'customer', string> = {
    owner: '',
    staff: '',
    viewer: '',
    customer: '',
  };
  let ownerId = '';
  let variants: Record<string, string> = {};

  beforeAll(async () => {
    ctx = await createTestApp();
    fx = await seedTestCatalog(ctx.database);
    for (const role of ['owner', 'staff', 'viewer', 'customer'] as const) {
      const session = await signIn(ctx.app, `${role}@example.com`);
      cookies[role] = session.cookie;
      if (role === 'owner') ownerId = session.uid;
      if (role !== 'customer') await setRole(ctx.database, `${role}@example.com`, role);
    }
    variants = Object.fromEntries(
      (
        await ctx.database.db
          .select({ id: productVariants.id, sku: productVariants.sku })
          .from(productVariants)
      ).map((v) => [v.sku, v.id]),
    );
    // Two product pictures in the storage service, as the editor uploads them.
    for (const name of ['admin-test/a.png', 'admin-test/b.png']) {
      const image = await sharp({ create: { width: 800, height: 1000, channels: 3, background: '#3F6B4F' } })
        .png()
        .toBuffer();
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/storage/b/products/o?name=${encodeURIComponent(name)}`,
        payload: image,
        headers: { 'content-type': 'image/png', origin: ORIGIN, cookie: cookies.owner },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(async () => ctx.close());

  const call = (
    method: Method,
    url: string,
    who?: keyof typeof cookies,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    ctx.app.inject({
      method,
      url,
      headers: { origin: ORIGIN, ...(who ? { cookie: cookies[who] } : {}), ...headers },
      ...(payload !== undefined ? { payload: payload as string } : {}),
    });
  const db = () => ctx.database.db;
  const auditCount = async () => Number((await db().select({ n: count() }).from(auditLog))[0]!.n);
  const lastAudit = async (action: string) =>
    (
      await db()
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, action))
        .orderBy(desc(auditLog.id))
        .limit(1)
    )[0];
  const stockOf = async (sku: string) =>
    (
      await db()
        .select({ s: productVariants.stock })
        .from(productVariants)
        .where(eq(productVariants.sku, sku))
    )[0]!.s;
  const adjustmentsOf = async (sku: string) =>
    db()
      .select()
      .from(stockAdjustments)
      .where(eq(stockAdjustments.variantId, variants[sku]!))
      .orderBy(desc(stockAdjustments.id));
  const redirectOf = async (path: string) =>
    (await call('GET', `/api/redirects?path=${encodeURIComponent(path)}`)).json().redirect as {
      target: string;
      permanent: boolean;
    } | null;
  const detail = async (id: string): Promise<AdminProductDetail> => {
    const res = await call('GET', `/api/admin/products/${id}`, 'owner');
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  /** The editor's PUT body for a product as it is now (what a save without edits sends). */
  const bodyOf = (d: AdminProductDetail) => ({
    slug: d.slug,
    name: d.name,
    summary: d.summary,
    categorySlug: d.category.slug,
    tags: d.tags,
    status: d.status,
    specs: d.specs,
    description: d.description,
    images: d.images.map((i) => ({ name: i.name, alt: i.alt })),
    variants: d.variants.map((v): Record<string, unknown> => ({
      id: v.id,
      sku: v.sku,
      options: v.options,
      price: v.price,
      compareAtPrice: v.compareAtPrice,
      lowStockThreshold: v.lowStockThreshold,
      active: v.active,
    })),
    updatedAt: d.updatedAt,
  });
  const newProduct = (over: Record<string, unknown> = {}) => ({
    slug: 'spring-jade',
    name: '春茶翠玉',
    summary: '清明前採摘的翠玉烏龍。',
    categorySlug: 'oolong',
    tags: ['春茶', '翠玉'],
    status: 'active',
    specs: [{ label: '產地', value: '南投名間' }],
    description: [
      { type: 'heading', text: '翠玉的香氣' },
      { type: 'paragraph', text: '帶有桂花與奶香。' },
      { type: 'list', items: ['冷泡', '熱泡'] },
    ],
    images: [{ name: 'admin-test/a.png', alt: '翠玉茶葉特寫' }],
    variants: [
      {
        sku: 'JADE-S',
        options: { 規格: '75 g' },
        price: 520,
        compareAtPrice: 600,
        stock: 12,
        lowStockThreshold: 4,
      },
      {
        sku: 'JADE-L',
        options: { 規格: '150 g' },
        price: 960,
        compareAtPrice: null,
        stock: 0,
        lowStockThreshold: 4,
      },
    ],
    ...over,
  });
  const exportCsv = async () => {
    const res = await call('GET', '/api/admin/products/export.csv', 'owner');
    expect(res.statusCode, res.body).toBe(200);
    return res.body;
  };
  const importCsv = (text: string | Buffer, who: keyof typeof cookies = 'owner') =>
    call('POST', '/api/admin/products/import', who, text, { 'content-type': 'text/csv' });

  describe('who may do what', () => {
    const reads = () =>
      [
        ['GET', '/api/admin/products'],
        ['GET', `/api/admin/products/${fx.ids.dongding}`],
        ['GET', '/api/admin/products/export.csv'],
      ] as const;
    const writes = () =>
      [
        [
          'POST',
          '/api/admin/products',
          newProduct({
            slug: 'never-made',
            variants: [
              {
                sku: 'NEVER-1',
                options: {},
                price: 100,
                compareAtPrice: null,
                stock: 1,
                lowStockThreshold: 1,
              },
            ],
          }),
        ],
        ['PUT', `/api/admin/products/${fx.ids.cup}`, { name: '不該改名' }],
        ['POST', `/api/admin/products/${fx.ids.cup}/archive`, {}],
        ['POST', `/api/admin/variants/${variants['CUP-1']}/stock`, { delta: 5, reason: '盤點' }],
      ] as const;

    it('refuses anonymous callers with 401 and shoppers with 403 on every endpoint', async () => {
      for (const [method, url] of [...reads(), ...writes()]) {
        const anonymous = await call(method, url, undefined, method === 'GET' ? undefined : {});
        expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
        expect(anonymous.json().error.message).toBe('請先以管理員帳號登入。');
        const customer = await call(method, url, 'customer', method === 'GET' ? undefined : {});
        expect(customer.statusCode, `${method} ${url}`).toBe(403);
        expect(customer.json().error.message).toBe('這個帳號沒有管理後台的權限。');
      }
      expect(
        (await call('POST', '/api/admin/products/import', undefined, 'a', { 'content-type': 'text/csv' }))
          .statusCode,
      ).toBe(401);
      expect((await importCsv('a', 'customer')).statusCode).toBe(403);
    });

    it('lets owner, staff and viewer read', async () => {
      for (const who of ['owner', 'staff', 'viewer'] as const) {
        for (const [method, url] of reads())
          expect((await call(method, url, who)).statusCode, `${who} ${url}`).toBe(200);
      }
    });

    it('lets only the owner write: staff and viewer get 403 and nothing changes', async () => {
      const audits = await auditCount();
      const csv = await exportCsv();
      for (const who of ['staff', 'viewer'] as const) {
        for (const [method, url, payload] of writes()) {
          const res = await call(method, url, who, payload);
          expect(res.statusCode, `${who} ${method} ${url}`).toBe(403);
          expect(res.json().error.message).toBe('您的角色沒有權限進行這項操作。');
        }
        expect((await importCsv(csv.replace('凍頂烏龍茶', '改名'), who)).statusCode).toBe(403);
      }
      expect(await auditCount()).toBe(audits);
      expect(await stockOf('CUP-1')).toBe(50);
      expect(await exportCsv()).toBe(csv);
      expect((await db().select().from(products).where(eq(products.slug, 'never-made'))).length).toBe(0);
    });
  });

  describe('list', () => {
    const list = async (query = '') => {
      const res = await call('GET', `/api/admin/products${query}`, 'viewer');
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as {
        items: Array<Record<string, unknown>>;
        total: number;
        totalPages: number;
        page: number;
        pageSize: number;
      };
    };
    const slugs = async (query: string) => (await list(query)).items.map((i) => i.slug).sort();

    it('shows every status with price range, total stock, low-stock flag and variant count', async () => {
      const page = await list();
      expect(page.total).toBe(6);
      expect(page.items.map((i) => i.slug)).toContain('next-spring');
      expect(page.items.find((i) => i.slug === 'dong-ding')).toEqual({
        id: fx.ids.dongding,
        slug: 'dong-ding',
        name: '凍頂烏龍茶',
        status: 'active',
        category: { slug: 'oolong', name: '烏龍茶' },
        priceMin: 480,
        priceMax: 880,
        totalStock: 30,
        lowStock: true,
        variantCount: 2,
        coverUrl: null,
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      expect(page.items.find((i) => i.slug === 'white-cup')).toMatchObject({
        priceMin: 480,
        priceMax: 480,
        totalStock: 50,
        lowStock: false,
        variantCount: 1,
      });
    });

    it('searches name, slug and SKU, and filters by status, category (with children) and stock', async () => {
      expect(await slugs(`?q=${encodeURIComponent('烏龍')}`)).toEqual(['dong-ding']);
      expect(await slugs('?q=ls-l')).toEqual(['li-shan']);
      expect(await slugs('?q=zhuni')).toEqual(['zhuni-pot']);
      expect(await slugs('?status=draft')).toEqual(['next-spring']);
      expect(await slugs('?category=tea')).toEqual(['dong-ding', 'li-shan', 'next-spring', 'ruby-black']);
      expect(await slugs('?category=ware')).toEqual(['white-cup', 'zhuni-pot']);
      expect(await slugs('?stock=out')).toEqual(['ruby-black']);
      expect(await slugs('?stock=low')).toEqual(['dong-ding', 'li-shan', 'ruby-black', 'zhuni-pot']);
      expect(await slugs('?stock=low&category=ware')).toEqual(['zhuni-pot']);
    });

    it('pages on the server', async () => {
      const first = await list('?pageSize=4');
      const second = await list('?pageSize=4&page=2');
      expect([first.total, first.totalPages, first.items.length, second.items.length]).toEqual([6, 2, 4, 2]);
      expect(new Set([...first.items, ...second.items].map((i) => i.slug)).size).toBe(6);
    });

    it('refuses a bad filter with a zh-TW message beside it', async () => {
      const res = await call('GET', '/api/admin/products?status=gone&stock=some', 'owner');
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields).toEqual({
        status: '狀態只能是上架中、草稿或已下架',
        stock: '庫存篩選只能是 low 或 out',
      });
      expect((await call('GET', '/api/admin/products?sort=name', 'owner')).statusCode).toBe(400);
    });
  });

  describe('detail', () => {
    it('gives everything the editor needs', async () => {
      const d = await detail(fx.ids.lishan);
      expect(d).toMatchObject({
        slug: 'li-shan',
        name: '梨山高山茶',
        status: 'active',
        category: { slug: 'oolong', name: '烏龍茶' },
        tags: ['高山茶', '春茶'],
        specs: [{ label: '產地', value: '南投' }],
        description: [{ type: 'paragraph', text: '好茶。' }],
        images: [],
        replacement: null,
        adjustments: [],
      });
      expect(d.variants).toEqual([
        {
          id: variants['LS-S'],
          sku: 'LS-S',
          options: { 規格: '75 g' },
          price: 980,
          compareAtPrice: 1200,
          stock: 10,
          lowStockThreshold: 5,
          active: true,
          ordered: false,
          restockWaiting: 0,
        },
        {
          id: variants['LS-L'],
          sku: 'LS-L',
          options: { 規格: '150 g' },
          price: 1880,
          compareAtPrice: null,
          stock: 2,
          lowStockThreshold: 5,
          active: true,
          ordered: false,
          restockWaiting: 0,
        },
      ]);
    });

    it('answers 404 for an unknown product and 400 for a malformed id', async () => {
      const missing = await call('GET', '/api/admin/products/00000000-0000-4000-8000-000000000000', 'owner');
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.message).toBe('找不到這項商品。');
      const bad = await call('GET', '/api/admin/products/dong-ding', 'owner');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields).toEqual({ productId: '商品編號格式不正確' });
    });
  });

  describe('create', () => {
    it('creates a product with variants and a picture, records the starting stock and an audit row', async () => {
      const res = await call('POST', '/api/admin/products', 'owner', newProduct());
      expect(res.statusCode, res.body).toBe(201);
      const created = res.json();
      expect(created).toMatchObject({
        slug: 'spring-jade',
        name: '春茶翠玉',
        status: 'active',
        category: { slug: 'oolong' },
        tags: ['春茶', '翠玉'],
      });
      expect(created.images).toEqual([
        {
          bucket: 'products',
          name: 'admin-test/a.png',
          alt: '翠玉茶葉特寫',
          width: 800,
          height: 1000,
          url: '/api/storage/b/products/o/admin-test%2Fa.png%40320.webp?alt=media',
        },
      ]);
      expect(
        created.variants.map((v: Record<string, unknown>) => [
          v.sku,
          v.price,
          v.compareAtPrice,
          v.stock,
          v.lowStockThreshold,
          v.active,
        ]),
      ).toEqual([
        ['JADE-S', 520, 600, 12, 4, true],
        ['JADE-L', 960, null, 0, 4, true],
      ]);
      expect(created.adjustments).toMatchObject([
        {
          sku: 'JADE-S',
          delta: 12,
          stockAfter: 12,
          reason: '建立規格時的初始庫存',
          actorEmail: 'owner@example.com',
        },
      ]);
      const audit = await lastAudit('product.create');
      expect(audit).toMatchObject({
        actorEmail: 'owner@example.com',
        actorRole: 'owner',
        actorId: ownerId,
        entity: 'product',
        entityId: created.id,
        before: null,
      });
      expect(audit!.after).toMatchObject({
        slug: 'spring-jade',
        name: '春茶翠玉',
        status: 'active',
        categorySlug: 'oolong',
        variants: [
          { sku: 'JADE-S', price: 520 },
          { sku: 'JADE-L', price: 960 },
        ],
      });
      // The shop sees it at once (the catalog cache was dropped).
      const page = await call('GET', '/api/catalog/products/spring-jade');
      expect(page.statusCode).toBe(200);
      expect(page.json().images[0].alt).toBe('翠玉茶葉特寫');
    });

    it('refuses bad input with zh-TW messages beside the fields and creates nothing', async () => {
      const before = (await db().select({ n: count() }).from(products))[0]!.n;
      const audits = await auditCount();
      const res = await call(
        'POST',
        '/api/admin/products',
        'owner',
        newProduct({
          slug: 'Bad Slug',
          name: '',
          variants: [
            {
              sku: 'X-1',
              options: { 規格: '75 g' },
              price: -100,
              compareAtPrice: null,
              stock: 1,
              lowStockThreshold: 1,
            },
            {
              sku: 'X-2',
              options: { 規格: '150 g' },
              price: 500,
              compareAtPrice: 400,
              stock: 1,
              lowStockThreshold: 1,
            },
            {
              sku: 'x-1',
              options: { 規格: '300 g' },
              price: 900,
              compareAtPrice: null,
              stock: 1,
              lowStockThreshold: 1,
            },
          ],
        }),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields).toEqual({
        slug: '網址代碼只能使用小寫英文字母、數字與連字號（-）',
        name: '請填寫商品名稱',
        'variants.0.price': '價格必須是正整數',
        'variants.1.compareAtPrice': '原價必須高於售價，或留白',
        'variants.2.sku': 'SKU 與第 1 個規格重複',
      });
      const none = await call(
        'POST',
        '/api/admin/products',
        'owner',
        newProduct({ slug: 'no-variant', variants: [] }),
      );
      expect(none.json().error.fields).toEqual({ variants: '至少要有一個規格' });
      expect((await db().select({ n: count() }).from(products))[0]!.n).toBe(before);
      expect(await auditCount()).toBe(audits);
    });

    it('refuses a slug or SKU another product uses, an unknown category and a picture that was never uploaded', async () => {
      const taken = await call(
        'POST',
        '/api/admin/products',
        'owner',
        newProduct({
          slug: 'dong-ding',
          variants: [{ sku: 'NEW-1', options: {}, price: 100, compareAtPrice: null, lowStockThreshold: 1 }],
        }),
      );
      expect(taken.statusCode).toBe(400);
      expect(taken.json().error.fields).toEqual({ slug: '這個網址代碼已經由「凍頂烏龍茶」使用' });
      const sku = await call(
        'POST',
        '/api/admin/products',
        'owner',
        newProduct({
          slug: 'another',
          variants: [{ sku: 'dd-s', options: {}, price: 100, compareAtPrice: null, lowStockThreshold: 1 }],
        }),
      );
      expect(sku.json().error.fields).toEqual({ 'variants.0.sku': 'SKU「DD-S」已經由「凍頂烏龍茶」使用' });
      const category = await call(
        'POST',
        '/api/admin/products',
        'owner',
        newProduct({
          slug: 'another',
          categorySlug: 'coffee',
          variants: [{ sku: 'AN-1', options: {}, price: 100, compareAtPrice: null, lowStockThreshold: 1 }],
        }),
      );
      expect(category.json().error.fields).toEqual({ categorySlug: '找不到這個分類，請重新選擇' });
      const image = await call(
        'POST',
        '/api/admin/products',
        'owner',
        newProduct({
          slug: 'another',
          images: [{ name: 'nowhere.png', alt: '不存在' }],
          variants: [{ sku: 'AN-1', options: {}, price: 100, compareAtPrice: null, lowStockThreshold: 1 }],
        }),
      );
      expect(image.json().error.fields).toEqual({ 'images.0.name': '找不到這張圖片，請重新上傳' });
      expect((await db().select().from(products).where(eq(products.slug, 'another'))).length).toBe(0);
    });
  });

  describe('update', () => {
    it('saves fields, edits, adds and removes variants, and reorders pictures with new alt texts', async () => {
      const jade = await detail(
        (await db().select({ id: products.id }).from(products).where(eq(products.slug, 'spring-jade')))[0]!
          .id,
      );
      const body = bodyOf(jade);
      body.name = '春茶翠玉烏龍';
      body.tags = ['春茶'];
      body.images = [
        { name: 'admin-test/b.png', alt: '沖泡後的茶湯' },
        { name: 'admin-test/a.png', alt: '乾茶' },
      ];
      body.variants = [
        { ...body.variants[0], price: 560 },
        {
          sku: 'JADE-GIFT',
          options: { 規格: '禮盒' },
          price: 1680,
          compareAtPrice: null,
          stock: 6,
          lowStockThreshold: 2,
          active: true,
        },
      ];
      const res = await call('PUT', `/api/admin/products/${jade.id}`, 'owner', body);
      expect(res.statusCode, res.body).toBe(200);
      const saved = res.json();
      expect(saved.name).toBe('春茶翠玉烏龍');
      expect(saved.images.map((i: { name: string; alt: string }) => [i.name, i.alt])).toEqual([
        ['admin-test/b.png', '沖泡後的茶湯'],
        ['admin-test/a.png', '乾茶'],
      ]);
      expect(saved.variants.map((v: Record<string, unknown>) => [v.sku, v.price, v.stock])).toEqual([
        ['JADE-S', 560, 12],
        ['JADE-GIFT', 1680, 6],
      ]);
      expect(await db().select().from(productVariants).where(eq(productVariants.sku, 'JADE-L'))).toEqual([]);
      const audit = await lastAudit('product.update');
      expect(audit).toMatchObject({ actorEmail: 'owner@example.com', entityId: jade.id });
      expect((audit!.before as { name: string; variants: unknown[] }).name).toBe('春茶翠玉');
      expect((audit!.before as { variants: Array<{ sku: string }> }).variants.map((v) => v.sku)).toEqual([
        'JADE-S',
        'JADE-L',
      ]);
      expect(audit!.after).toMatchObject({
        name: '春茶翠玉烏龍',
        tags: ['春茶'],
        variants: [
          { sku: 'JADE-S', price: 560 },
          { sku: 'JADE-GIFT', price: 1680, stock: 6 },
        ],
      });
      // The shop's search text follows the new name.
      expect(
        (await call('GET', `/api/catalog/products?q=${encodeURIComponent('翠玉烏龍')}`))
          .json()
          .items.map((i: { slug: string }) => i.slug),
      ).toEqual(['spring-jade']);
    });

    it('ignores the stock of existing variants: stock changes only through adjustments', async () => {
      const cup = await detail(fx.ids.cup);
      const body = bodyOf(cup);
      body.variants[0]!.stock = 999;
      expect((await call('PUT', `/api/admin/products/${fx.ids.cup}`, 'owner', body)).statusCode).toBe(200);
      expect(await stockOf('CUP-1')).toBe(50);
    });

    it('changes the slug and keeps the old address working through a redirect', async () => {
      const cup = await detail(fx.ids.cup);
      const res = await call('PUT', `/api/admin/products/${fx.ids.cup}`, 'owner', {
        ...bodyOf(cup),
        slug: 'porcelain-cup',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().slug).toBe('porcelain-cup');
      expect(await redirectOf('/mall/white-cup')).toEqual({ target: '/mall/porcelain-cup', permanent: true });
      expect((await call('GET', '/api/catalog/products/porcelain-cup')).statusCode).toBe(200);
      expect((await lastAudit('product.update'))!.after).toMatchObject({ slug: 'porcelain-cup' });
    });

    it('will not remove a variant that was ordered, but lets it be deactivated', async () => {
      const buyer = await shopper(ctx.app, 'buyer@example.com');
      expect((await buyer.add(variants['DD-S']!, 1)).statusCode).toBe(200);
      const order = await buyer.order();
      expect(order.statusCode, order.body).toBe(201);
      const dd = await detail(fx.ids.dongding);
      expect(dd.variants.map((v: { sku: string; ordered: boolean }) => [v.sku, v.ordered])).toEqual([
        ['DD-S', true],
        ['DD-L', false],
      ]);
      const audits = await auditCount();
      const body = bodyOf(dd);
      const refused = await call('PUT', `/api/admin/products/${fx.ids.dongding}`, 'owner', {
        ...body,
        name: '改名',
        variants: body.variants.slice(1),
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.message).toBe('75 g（SKU DD-S）已有訂單，不能刪除；請改為「停售」');
      expect(refused.json().error.fields.variants).toBe('75 g（SKU DD-S）已有訂單，不能刪除；請改為「停售」');
      expect((await detail(fx.ids.dongding)).name).toBe('凍頂烏龍茶');
      expect(await auditCount()).toBe(audits);

      const deactivated = await call('PUT', `/api/admin/products/${fx.ids.dongding}`, 'owner', {
        ...body,
        variants: [{ ...body.variants[0], active: false }, body.variants[1]],
      });
      expect(deactivated.statusCode, deactivated.body).toBe(200);
      expect(deactivated.json().variants.find((v: { sku: string }) => v.sku === 'DD-S').active).toBe(false);
      expect(
        (await call('GET', '/api/catalog/products/dong-ding'))
          .json()
          .variants.map((v: { sku: string }) => v.sku),
      ).toEqual(['DD-L']);
      // A never-ordered variant is removed for real.
      const after = bodyOf(await detail(fx.ids.dongding));
      const removed = await call('PUT', `/api/admin/products/${fx.ids.dongding}`, 'owner', {
        ...after,
        variants: after.variants.filter((v) => v.sku === 'DD-S').map((v) => ({ ...v, active: true })),
      });
      expect(removed.statusCode, removed.body).toBe(200);
      expect(removed.json().variants.map((v: { sku: string; active: boolean }) => [v.sku, v.active])).toEqual(
        [['DD-S', true]],
      );
    });

    it('refuses a save over someone else’s newer save, and archiving through the form', async () => {
      const pot = await detail(fx.ids.pot);
      const stale = await call('PUT', `/api/admin/products/${fx.ids.pot}`, 'owner', {
        ...bodyOf(pot),
        updatedAt: '2020-01-01T00:00:00.000Z',
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().error.message).toContain('已被其他人更新');
      const archived = await call('PUT', `/api/admin/products/${fx.ids.pot}`, 'owner', {
        ...bodyOf(pot),
        status: 'archived',
      });
      expect(archived.statusCode).toBe(400);
      expect(archived.json().error.fields).toEqual({
        status: '請使用「下架」按鈕下架商品，才能設定舊網址要轉到哪裡',
      });
      expect((await detail(fx.ids.pot)).status).toBe('active');
    });
  });

  describe('archive', () => {
    it('archives with a replacement: the page redirects there and the audit row says so', async () => {
      const res = await call('POST', `/api/admin/products/${fx.ids.pot}/archive`, 'owner', {
        replacementProductId: fx.ids.lishan,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        id: fx.ids.pot,
        status: 'archived',
        redirect: { from: '/mall/zhuni-pot', to: '/mall/li-shan' },
      });
      expect(await redirectOf('/mall/zhuni-pot')).toEqual({ target: '/mall/li-shan', permanent: true });
      expect((await call('GET', '/api/catalog/products/zhuni-pot')).statusCode).toBe(404);
      expect((await detail(fx.ids.pot)).replacement).toEqual({
        id: fx.ids.lishan,
        slug: 'li-shan',
        name: '梨山高山茶',
      });
      expect(await lastAudit('product.archive')).toMatchObject({
        actorEmail: 'owner@example.com',
        entityId: fx.ids.pot,
        before: { slug: 'zhuni-pot', status: 'active', replacementId: null },
        after: {
          slug: 'zhuni-pot',
          status: 'archived',
          replacementId: fx.ids.lishan,
          redirect: { from: '/mall/zhuni-pot', to: '/mall/li-shan' },
        },
      });
    });

    it('archives without a replacement: the page goes to the mall', async () => {
      const res = await call('POST', `/api/admin/products/${fx.ids.ruby}/archive`, 'owner', {});
      expect(res.statusCode, res.body).toBe(200);
      expect(await redirectOf('/mall/ruby-black')).toEqual({ target: '/mall', permanent: false });
    });

    it('refuses a replacement that is not on sale, or the product itself', async () => {
      const draft = await call('POST', `/api/admin/products/${fx.ids.lishan}/archive`, 'owner', {
        replacementProductId: fx.ids.draft,
      });
      expect(draft.statusCode).toBe(400);
      expect(draft.json().error.fields).toEqual({
        replacementProductId: '「明年春茶（未上架）」目前沒有上架，請選擇上架中的商品',
      });
      const self = await call('POST', `/api/admin/products/${fx.ids.lishan}/archive`, 'owner', {
        replacementProductId: fx.ids.lishan,
      });
      expect(self.json().error.fields).toEqual({ replacementProductId: '替代商品不能是這項商品本身' });
      expect((await detail(fx.ids.lishan)).status).toBe('active');
      expect(await redirectOf('/mall/li-shan')).toBeNull();
    });

    it('brings an archived product back through the form, and its page stops redirecting', async () => {
      const ruby = await detail(fx.ids.ruby);
      const res = await call('PUT', `/api/admin/products/${fx.ids.ruby}`, 'owner', {
        ...bodyOf(ruby),
        status: 'draft',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(await redirectOf('/mall/ruby-black')).toBeNull();
      const back = await call('PUT', `/api/admin/products/${fx.ids.ruby}`, 'owner', {
        ...bodyOf(res.json()),
        status: 'active',
      });
      expect(back.statusCode).toBe(200);
      expect((await call('GET', '/api/catalog/products/ruby-black')).statusCode).toBe(200);
    });
  });

  describe('stock', () => {
    const adjust = (sku: string, body: unknown, who: keyof typeof cookies = 'owner') =>
      call('POST', `/api/admin/variants/${variants[sku]}/stock`, who, body);

    it('adds and takes stock with a reason, writing an adjustment row and an audit row', async () => {
      const res = await adjust('LS-S', { delta: 15, reason: ' 春茶到貨 ' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        variantId: variants['LS-S'],
        sku: 'LS-S',
        stock: 25,
        adjustment: {
          sku: 'LS-S',
          delta: 15,
          stockAfter: 25,
          reason: '春茶到貨',
          actorEmail: 'owner@example.com',
        },
      });
      expect((await adjust('LS-S', { delta: -5, reason: '盤點短少' })).json().stock).toBe(20);
      expect(await stockOf('LS-S')).toBe(20);
      expect((await adjustmentsOf('LS-S')).map((a) => [a.delta, a.stockAfter, a.reason, a.actorId])).toEqual([
        [-5, 20, '盤點短少', ownerId],
        [15, 25, '春茶到貨', ownerId],
      ]);
      expect(await lastAudit('stock.adjust')).toMatchObject({
        actorEmail: 'owner@example.com',
        entity: 'variant',
        entityId: variants['LS-S'],
        before: { sku: 'LS-S', stock: 25, productId: fx.ids.lishan },
        after: { sku: 'LS-S', stock: 20, delta: -5, reason: '盤點短少', productId: fx.ids.lishan },
      });
      expect((await detail(fx.ids.lishan)).adjustments.map((a: { delta: number }) => a.delta)).toEqual([
        -5, 15,
      ]);
    });

    it('never lets stock go below zero, even with requests at the same moment', async () => {
      const audits = await auditCount();
      const over = await adjust('LS-L', { delta: -3, reason: '破損' });
      expect(over.statusCode).toBe(409);
      expect(over.json().error).toMatchObject({
        code: 'insufficient-stock',
        fields: { delta: '庫存不足：SKU LS-L 目前只有 2 件，最多只能減少 2 件' },
      });
      expect(await stockOf('LS-L')).toBe(2);
      expect(await adjustmentsOf('LS-L')).toEqual([]);
      expect(await auditCount()).toBe(audits);
      const results = await Promise.all(
        Array.from({ length: 5 }, () => adjust('LS-L', { delta: -1, reason: '出貨' })),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 409, 409, 409]);
      expect(await stockOf('LS-L')).toBe(0);
      expect((await adjustmentsOf('LS-L')).map((a) => a.stockAfter).sort()).toEqual([0, 1]);
    });

    it('refuses a zero, fractional or missing change and a missing or long reason', async () => {
      const stock = await stockOf('LS-S');
      expect((await adjust('LS-S', { delta: 0, reason: '無' })).json().error.fields).toEqual({
        delta: '調整數量不能是 0',
      });
      expect((await adjust('LS-S', { delta: 1.5, reason: '無' })).json().error.fields).toEqual({
        delta: '調整數量必須是整數',
      });
      expect((await adjust('LS-S', { reason: '無' })).json().error.fields).toEqual({
        delta: '調整數量必須是整數',
      });
      expect((await adjust('LS-S', { delta: 1, reason: '   ' })).json().error.fields).toEqual({
        reason: '請填寫調整原因',
      });
      expect((await adjust('LS-S', { delta: 1, reason: '長'.repeat(101) })).json().error.fields).toEqual({
        reason: '調整原因不能超過 100 個字元',
      });
      expect((await adjust('LS-S', { delta: 1, reason: '長'.repeat(100) })).statusCode).toBe(200);
      expect(await stockOf('LS-S')).toBe(stock + 1);
      const missing = await call(
        'POST',
        '/api/admin/variants/00000000-0000-4000-8000-000000000000/stock',
        'owner',
        { delta: 1, reason: '盤點' },
      );
      expect(missing.statusCode).toBe(404);
    });
  });

  describe('CSV', () => {
    it('exports one row per variant with a BOM, CRLF and the agreed columns', async () => {
      const res = await call('GET', '/api/admin/products/export.csv', 'viewer');
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="products-\d{8}\.csv"$/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(
        res.body.startsWith(
          `${CSV_BOM}product_slug,product_name,category_slug,status,sku,options,price,compare_at_price,stock,low_stock_threshold,stock_at_export\r\n`,
        ),
      ).toBe(true);
      expect(res.body).toContain('\r\nli-shan,梨山高山茶,oolong,active,LS-S,規格=75 g,980,1200,');
      expect(res.body).toContain(
        '\r\nnext-spring,明年春茶（未上架）,oolong,draft,NX-S,規格=75 g,500,,10,5,10\r\n',
      );
      const records = parseCsv(res.body);
      const active = await db()
        .select({ n: count() })
        .from(productVariants)
        .where(eq(productVariants.archived, false));
      expect(records.length).toBe(Number(active[0]!.n) + 1);
    });

    it('round-trips: importing the export changes nothing', async () => {
      const before = await exportCsv();
      const adjustments = (await db().select({ n: count() }).from(stockAdjustments))[0]!.n;
      const res = await importCsv(before);
      expect(res.statusCode, res.body).toBe(200);
      const rows = parseCsv(before).length - 1;
      expect(res.json()).toEqual({
        rows,
        productsCreated: 0,
        productsUpdated: 0,
        variantsCreated: 0,
        variantsUpdated: 0,
        unchanged: rows,
      });
      expect(await exportCsv()).toBe(before);
      expect((await db().select({ n: count() }).from(stockAdjustments))[0]!.n).toBe(adjustments);
      expect((await lastAudit('products.import'))!.after).toMatchObject({
        rows,
        productsCreated: 0,
        productsUpdated: 0,
        created: [],
        updated: [],
      });
    });

    /** An exported CSV with one cell of the variant with this SKU changed (columns found by name). */
    const withCell = (csv: string, sku: string, column: string, value: string) => {
      const records = parseCsv(csv);
      const header = records[0]!;
      const record = records.find((r) => r[header.indexOf('sku')] === sku)!;
      record[header.indexOf(column)] = value;
      return toCsv(records, { keepFormulas: true });
    };
    /** The spreadsheet row (header = 1) of a SKU in a CSV. */
    const rowOf = (csv: string, sku: string) => {
      const records = parseCsv(csv);
      return records.findIndex((r) => r[records[0]!.indexOf('sku')] === sku) + 1;
    };
    const buy = async (lines: [sku: string, quantity: number][]) => {
      const buyer = await shopper(ctx.app, 'csv-buyer@example.com');
      for (const [sku, quantity] of lines)
        expect((await buyer.add(variants[sku]!, quantity)).statusCode).toBe(200);
      const order = await buyer.order();
      expect(order.statusCode, order.body).toBe(201);
    };

    it('neutralises spreadsheet formulas in the export and reads its own export back unchanged', async () => {
      const [cup] = await db()
        .select({ productId: productVariants.productId, options: productVariants.options })
        .from(productVariants)
        .where(eq(productVariants.sku, 'CUP-1'));
      const [product] = await db()
        .select({ name: products.name })
        .from(products)
        .where(eq(products.id, cup!.productId));
      const name = '=HYPERLINK("http://evil.example","點我")';
      await db().update(products).set({ name }).where(eq(products.id, cup!.productId));
      await db()
        .update(productVariants)
        .set({ options: { '+容量': '120 ml' } })
        .where(eq(productVariants.sku, 'CUP-1'));
      try {
        const csv = await exportCsv();
        expect(csv).toContain(`,"'=HYPERLINK(""http://evil.example"",""點我"")",`);
        expect(csv).toContain(",CUP-1,'+容量=120 ml,");
        for (const record of parseCsv(csv))
          for (const cell of record) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
        const res = await importCsv(csv);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toMatchObject({ productsUpdated: 0, variantsUpdated: 0, variantsCreated: 0 });
        expect(
          (
            await db().select({ name: products.name }).from(products).where(eq(products.id, cup!.productId))
          )[0]!.name,
        ).toBe(name);
        expect(
          (
            await db()
              .select({ options: productVariants.options })
              .from(productVariants)
              .where(eq(productVariants.sku, 'CUP-1'))
          )[0]!.options,
        ).toEqual({ '+容量': '120 ml' });
      } finally {
        await db().update(products).set({ name: product!.name }).where(eq(products.id, cup!.productId));
        await db()
          .update(productVariants)
          .set({ options: cup!.options })
          .where(eq(productVariants.sku, 'CUP-1'));
      }
    });

    it('applies a stock change as the difference from the exported stock, so sales made since the export are kept', async () => {
      const exported = await exportCsv();
      const cups = await stockOf('CUP-1');
      const liShan = await stockOf('LS-S');
      const liShanAdjustments = (await adjustmentsOf('LS-S')).length;
      // Ten cups arrive and are added in the file, while shoppers buy three cups and one LS-S
      // (whose row the file leaves as exported).
      const edited = withCell(exported, 'CUP-1', 'stock', String(cups + 10));
      await buy([
        ['CUP-1', 3],
        ['LS-S', 1],
      ]);
      const res = await importCsv(edited);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ productsUpdated: 1, variantsUpdated: 1 });
      expect(await stockOf('CUP-1')).toBe(cups - 3 + 10);
      expect(await stockOf('LS-S')).toBe(liShan - 1);
      expect((await adjustmentsOf('CUP-1'))[0]).toMatchObject({
        delta: 10,
        stockAfter: cups + 7,
        reason: 'CSV 匯入',
        actorId: ownerId,
      });
      expect((await adjustmentsOf('LS-S')).length).toBe(liShanAdjustments);
    });

    it('refuses a row whose change would take stock below zero after sales since the export, and changes nothing', async () => {
      const exported = await exportCsv();
      const cups = await stockOf('CUP-1');
      const liShan = await stockOf('LS-S');
      // The file writes every cup off and adds five LS-S; meanwhile one cup is sold.
      const edited = withCell(withCell(exported, 'CUP-1', 'stock', '0'), 'LS-S', 'stock', String(liShan + 5));
      await buy([['CUP-1', 1]]);
      const audits = await auditCount();
      const res = await importCsv(edited);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.problems).toEqual([
        {
          row: rowOf(exported, 'CUP-1'),
          column: 'stock',
          message: `SKU CUP-1 匯出時有 ${cups} 件，現在剩 ${cups - 1} 件；這一列要減少 ${cups} 件，會少於 0。請重新匯出後再修改。`,
        },
      ]);
      expect(await stockOf('CUP-1')).toBe(cups - 1);
      expect(await stockOf('LS-S')).toBe(liShan);
      expect(await auditCount()).toBe(audits);
    });

    it('refuses a stock change to an existing variant from a file without the exported stock', async () => {
      const records = parseCsv(await exportCsv());
      const at = records[0]!.indexOf('stock_at_export');
      if (at >= 0) for (const r of records) r.splice(at, 1);
      const handMade = toCsv(records, { keepFormulas: true });
      const cups = await stockOf('CUP-1');
      // Unchanged stock needs no exported figure: such a file imports as it did.
      expect((await importCsv(handMade)).statusCode).toBe(200);
      const res = await importCsv(withCell(handMade, 'CUP-1', 'stock', String(cups + 1)));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.problems).toEqual([
        {
          row: rowOf(handMade, 'CUP-1'),
          column: 'stock',
          message:
            '這個規格已經有庫存紀錄；要修改庫存，請用新匯出的檔案（含 stock_at_export 欄）修改 stock，或在商品頁調整庫存',
        },
      ]);
      expect(await stockOf('CUP-1')).toBe(cups);
    });

    it('refuses a file with one bad row, names the row and column, and changes nothing', async () => {
      const before = await exportCsv();
      const records = parseCsv(before);
      const price = PRODUCT_CSV_COLUMNS.indexOf('price');
      const threshold = PRODUCT_CSV_COLUMNS.indexOf('low_stock_threshold');
      // Spreadsheet row 2 gets a harmless change (which must not be applied), row 4 a negative price.
      records[1]![threshold] = '77';
      records[3]![price] = '-100';
      const audits = await auditCount();
      const res = await importCsv(toCsv(records));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: {
          code: 'invalid-csv',
          message: '檔案有 1 個問題，沒有匯入任何資料。請修正後再匯入。',
          problems: [{ row: 4, column: 'price', message: '價格必須是正整數' }],
        },
      });
      expect(await exportCsv()).toBe(before);
      expect(await auditCount()).toBe(audits);
    });

    it('lists every problem of a file at once, with database checks too', async () => {
      const header = PRODUCT_CSV_COLUMNS.join(',');
      const text = [
        header,
        'new-tea,新茶,oolong,active,NEW-1,規格=75 g,500,,10,5',
        'new-tea,新茶,coffee,active,NEW-2,規格=150 g,abc,,10,5',
        'other-tea,另一款,oolong,active,LS-S,,500,400,-1,5',
        'bad slug,名稱,oolong,sold,NEW-1,規格,1,,1,1',
      ].join('\r\n');
      const res = await importCsv(text);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.problems).toEqual([
        { row: 3, column: 'price', message: '價格必須是正整數' },
        { row: 3, column: 'category_slug', message: '找不到分類「coffee」' },
        { row: 4, column: 'compare_at_price', message: '原價必須高於售價，或留白' },
        { row: 4, column: 'stock', message: '庫存必須是 0 以上的整數' },
        { row: 4, column: 'sku', message: 'SKU「LS-S」已經屬於商品「梨山高山茶」（li-shan）' },
        { row: 5, column: 'product_slug', message: '商品網址代碼只能使用小寫英文字母、數字與連字號（-）' },
        { row: 5, column: 'status', message: '狀態只能是 active、draft 或 archived' },
        { row: 5, column: 'sku', message: 'SKU 與第 2 列重複' },
        { row: 5, column: 'options', message: '「規格」缺少「=」，請寫成「名稱=內容」，多個選項以「;」分隔' },
      ]);
      expect((await db().select().from(products).where(eq(products.slug, 'new-tea'))).length).toBe(0);
    });

    it('refuses a file that is not UTF-8, lacks a column, or is not sent as CSV', async () => {
      const big5 = Buffer.from([0x70, 0x72, 0x6f, 0x64, 0x0d, 0x0a, 0xa5, 0x5b, 0xb3, 0xbb]);
      const res = await importCsv(big5);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.problems[0].message).toContain('CSV UTF-8');
      const missing = await importCsv('product_slug,sku\r\ndong-ding,DD-S\r\n');
      expect(missing.json().error.problems).toEqual([
        {
          row: 1,
          column: null,
          message:
            '缺少欄位：product_name、category_slug、status、options、price、compare_at_price、stock、low_stock_threshold',
        },
      ]);
      const json = await call('POST', '/api/admin/products/import', 'owner', { csv: 'x' });
      expect(json.statusCode).toBe(415);
    });

    it('a good import creates and updates products and variants in one go, with adjustments and an audit row', async () => {
      const header = PRODUCT_CSV_COLUMNS.join(',');
      const liShanS = await stockOf('LS-S');
      const text = [
        header,
        // Existing product, existing variant: a new price, and four more than the stock exported.
        `li-shan,梨山高山茶,oolong,active,LS-S,規格=75 g,1080,1200,${liShanS + 4},5,${liShanS}`,
        // Existing product, new variant.
        'li-shan,梨山高山茶,oolong,active,LS-GIFT,規格=禮盒;包裝=木盒,2680,,3,1',
        // A new product with two variants, one with a comma in its option (quoted).
        'winter-black,"冬季紅茶, 限量",black,draft,WB-S,規格=75 g,650,,8,2',
        'winter-black,"冬季紅茶, 限量",black,draft,WB-L,規格=150 g,1180,1380,0,2',
        '',
      ].join('\r\n');
      const res = await importCsv(`${CSV_BOM}${text}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        rows: 4,
        productsCreated: 1,
        productsUpdated: 1,
        variantsCreated: 3,
        variantsUpdated: 1,
        unchanged: 0,
      });
      const ls = await detail(fx.ids.lishan);
      expect(ls.variants.map((v: Record<string, unknown>) => [v.sku, v.price, v.stock, v.options])).toEqual([
        ['LS-S', 1080, liShanS + 4, { 規格: '75 g' }],
        ['LS-L', 1880, 0, { 規格: '150 g' }],
        ['LS-GIFT', 2680, 3, { 規格: '禮盒', 包裝: '木盒' }],
      ]);
      expect((await adjustmentsOf('LS-S'))[0]).toMatchObject({
        delta: 4,
        stockAfter: liShanS + 4,
        reason: 'CSV 匯入',
        actorId: ownerId,
      });
      const [winter] = await db().select().from(products).where(eq(products.slug, 'winter-black'));
      expect(winter).toMatchObject({ name: '冬季紅茶, 限量', status: 'draft' });
      expect(
        (
          await db()
            .select({ sku: productVariants.sku, stock: productVariants.stock })
            .from(productVariants)
            .where(eq(productVariants.productId, winter!.id))
        ).sort((a, b) => a.sku.localeCompare(b.sku)),
      ).toEqual([
        { sku: 'WB-L', stock: 0 },
        { sku: 'WB-S', stock: 8 },
      ]);
      expect(await lastAudit('products.import')).toMatchObject({
        actorEmail: 'owner@example.com',
        entity: 'product',
        after: {
          rows: 4,
          productsCreated: 1,
          productsUpdated: 1,
          variantsCreated: 3,
          variantsUpdated: 1,
          created: ['winter-black'],
          updated: ['li-shan'],
        },
      });
      // And the new export imports back unchanged.
      const again = await importCsv(await exportCsv());
      expect(again.json()).toMatchObject({
        productsCreated: 0,
        productsUpdated: 0,
        variantsCreated: 0,
        variantsUpdated: 0,
      });
    });

    it('archives through an import with the mall redirect, and brings a product back', async () => {
      const csv = await exportCsv();
      const archived = csv.replaceAll(
        '\r\ndong-ding,凍頂烏龍茶,oolong,active,',
        '\r\ndong-ding,凍頂烏龍茶,oolong,archived,',
      );
      expect(archived).not.toBe(csv);
      expect((await importCsv(archived)).json()).toMatchObject({ productsUpdated: 1 });
      expect(await redirectOf('/mall/dong-ding')).toEqual({ target: '/mall', permanent: false });
      expect((await importCsv(csv)).json()).toMatchObject({ productsUpdated: 1 });
      expect(await redirectOf('/mall/dong-ding')).toBeNull();
      expect(
        (
          await db()
            .select()
            .from(redirects)
            .where(and(eq(redirects.path, '/mall/dong-ding')))
        ).length,
      ).toBe(0);
    });
  });
});
