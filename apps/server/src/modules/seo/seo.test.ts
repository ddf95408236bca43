import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRAND } from '@shop/shared/brand';
import { createTestApp, dbAvailable, type TestContext } from '../../../test/helpers.ts';
import { seedTestCatalog } from '../../../test/fixtures.ts';
import { createProduct } from '../catalog/service.ts';
import { saveRedirect } from '../redirects/service.ts';

const BASE = 'http://localhost:3000';
const INDEX =
  '<!doctype html><html lang="zh-Hant-TW"><head><meta charset="utf-8"><title>山嵐茶事</title></head><body><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script></body></html>';
const NASTY_NAME = '凍頂</script><script>alert(1)</script>"特級" & \'老欉\'';
const NASTY_SUMMARY = '焙火 "重" <b>香</b>';
/** Replacement patterns of String.prototype.replace: `$&` is the match, `` $` `` and `$'` the text before and after it. */
const DOLLAR_NAME = "金萱$&奶香$`特級$'";
const DOLLAR_SUMMARY = "乳香 $' 與 $& 與 $`";

/** The head of a served shell, picked apart. */
function head(html: string) {
  const attr = (selector: RegExp) => selector.exec(html)?.[1];
  return {
    title: /<title>([^<]*)<\/title>/.exec(html)?.[1],
    description: attr(/<meta name="description" content="([^"]*)">/),
    canonical: attr(/<link rel="canonical" href="([^"]*)">/),
    ogTitle: attr(/<meta property="og:title" content="([^"]*)">/),
    ogDescription: attr(/<meta property="og:description" content="([^"]*)">/),
    ogUrl: attr(/<meta property="og:url" content="([^"]*)">/),
    ogType: attr(/<meta property="og:type" content="([^"]*)">/),
    jsonLd: [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
      (m) => JSON.parse(m[1]!) as Record<string, unknown> & { '@type': string },
    ),
  };
}

describe.skipIf(!dbAvailable())('search engines and link previews', () => {
  let ctx: TestContext;
  let dist: string;
  beforeAll(async () => {
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'shop-dist-'));
    await fs.mkdir(path.join(dist, 'assets'));
    await fs.writeFile(path.join(dist, 'index.html'), INDEX);
    ctx = await createTestApp({ WEB_DIST: dist });
    const { categories } = await seedTestCatalog(ctx.database);
    await createProduct(
      ctx.database.db,
      {
        slug: 'nasty-tea',
        name: NASTY_NAME,
        summary: NASTY_SUMMARY,
        categoryId: categories.oolong.id,
        tags: [],
        specs: [],
        description: [],
        images: [],
        status: 'active',
        sortWeight: 1,
      },
      [
        {
          sku: 'NASTY-1',
          options: { 規格: '75 g' },
          price: 600,
          compareAtPrice: null,
          stock: 1,
          lowStockThreshold: 1,
        },
      ],
    );
    await createProduct(
      ctx.database.db,
      {
        slug: 'dollar-tea',
        name: DOLLAR_NAME,
        summary: DOLLAR_SUMMARY,
        categoryId: categories.oolong.id,
        tags: [],
        specs: [],
        description: [],
        images: [],
        status: 'active',
        sortWeight: 1,
      },
      [
        {
          sku: 'DOLLAR-1',
          options: { 規格: '75 g' },
          price: 500,
          compareAtPrice: null,
          stock: 1,
          lowStockThreshold: 1,
        },
      ],
    );
  });
  afterAll(async () => {
    await ctx.close();
    await fs.rm(dist, { recursive: true, force: true });
  });

  const page = async (url: string) => {
    const res = await ctx.app.inject({ method: 'GET', url });
    return { res, head: head(res.body) };
  };

  describe('robots.txt', () => {
    it('keeps crawlers out of the API (but not the pictures it serves) and member pages, and points at the sitemap', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/robots.txt' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      const lines = res.body.split('\n');
      expect(lines[0]).toBe('User-agent: *');
      expect(lines).toEqual(
        expect.arrayContaining([
          'Allow: /',
          'Allow: /api/storage/',
          'Disallow: /api/',
          'Disallow: /member',
          'Disallow: /cart',
          'Disallow: /payment',
        ]),
      );
      expect(lines).toContain(`Sitemap: ${BASE}/sitemap.xml`);
    });
  });

  describe('sitemap.xml', () => {
    let xml: string;
    let locs: string[];
    beforeAll(async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/sitemap.xml' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
      xml = res.body;
      locs = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);
    });

    it('is a well-formed urlset, one <loc> per <url>', () => {
      expect(
        xml.startsWith(
          '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
        ),
      ).toBe(true);
      expect(xml.trimEnd().endsWith('</urlset>')).toBe(true);
      const urls = xml.match(/<url>[\s\S]*?<\/url>/g) ?? [];
      expect(urls.length).toBe(locs.length);
      expect(xml.match(/<url>/g)!.length).toBe(xml.match(/<\/url>/g)!.length);
      for (const url of urls)
        expect(url).toMatch(/^<url><loc>[^<&]+<\/loc>(<lastmod>\d{4}-\d{2}-\d{2}<\/lastmod>)?<\/url>$/);
      expect(new Set(locs).size).toBe(locs.length);
      expect(locs.every((l) => l.startsWith(`${BASE}/`))).toBe(true);
    });

    it('lists the public pages', () => {
      expect(locs).toEqual(
        expect.arrayContaining([
          `${BASE}/`,
          `${BASE}/home`,
          `${BASE}/faq`,
          `${BASE}/contact`,
          `${BASE}/shipping`,
          `${BASE}/privacyPolicy`,
          `${BASE}/media`,
        ]),
      );
    });

    it('lists every product on sale with its last change, and not the draft', () => {
      for (const slug of [
        'dong-ding',
        'li-shan',
        'ruby-black',
        'zhuni-pot',
        'white-cup',
        'nasty-tea',
        'dollar-tea',
      ])
        expect(locs, slug).toContain(`${BASE}/mall/${slug}`);
      expect(locs.filter((l) => l.startsWith(`${BASE}/mall/`))).toHaveLength(7);
      expect(xml).not.toContain('next-spring');
      // The fixture creates dong-ding on 2026-01-02 and never changes it.
      expect(xml).toContain(`<url><loc>${BASE}/mall/dong-ding</loc><lastmod>2026-01-02</lastmod></url>`);
    });

    it('leaves out member pages, forms for signing in and the maintenance page', () => {
      for (const p of [
        '/member',
        '/cart',
        '/payment',
        '/maintenance',
        '/login',
        '/register',
        '/forgetPassword',
        '/payComplete',
        '/emailVerification',
      ]) {
        expect(locs, p).not.toContain(`${BASE}${p}`);
      }
      expect(locs.some((l) => l.startsWith(`${BASE}/member`))).toBe(false);
    });
  });

  describe('page meta in the served shell', () => {
    it.each([
      ['/home', '關於山嵐', '認識山嵐茶事：三代人守著鹿谷的茶園與焙籠，從採摘、萎凋到炭焙都在自家茶廠完成。'],
      ['/faq', '常見問題', '常見問題：訂購付款、配送取貨、退換貨、會員優惠與茶葉沖泡。'],
    ])(
      'gives %s its own title, description, Open Graph tags and canonical URL',
      async (url, title, description) => {
        const { res, head: h } = await page(url);
        expect(res.statusCode).toBe(200);
        expect(h.title).toBe(`${title}｜${BRAND.name}`);
        expect(h.description).toBe(description);
        expect(h.ogTitle).toBe(h.title);
        expect(h.ogDescription).toBe(description);
        expect(h.ogType).toBe('website');
        expect(h.canonical).toBe(`${BASE}${url}`);
        expect(h.ogUrl).toBe(`${BASE}${url}`);
        expect(res.body.match(/<title>/g)).toHaveLength(1);
      },
    );

    it('names the one canonical URL whatever the case, trailing slash or query of the request', async () => {
      for (const url of ['/FAQ', '/faq/', '/faq?utm_source=line']) {
        const { head: h } = await page(url);
        expect(h.canonical, url).toBe(`${BASE}/faq`);
        expect(h.ogUrl, url).toBe(`${BASE}/faq`);
      }
      expect((await page('/mall/DONG-DING')).head.canonical).toBe(`${BASE}/mall/dong-ding`);
    });

    it('describes the landing page as the organisation, with Organization JSON-LD', async () => {
      const { res, head: h } = await page('/');
      expect(res.statusCode).toBe(200);
      expect(h.title).toBe(`${BRAND.name}｜${BRAND.tagline}`);
      expect(h.canonical).toBe(`${BASE}/`);
      const org = h.jsonLd.find((ld) => ld['@type'] === 'Organization');
      expect(org).toMatchObject({
        '@context': 'https://schema.org',
        name: '山嵐茶事',
        url: BASE,
        email: BRAND.email,
        telephone: BRAND.phone,
        foundingDate: '1987',
        address: { '@type': 'PostalAddress', streetAddress: BRAND.address, addressCountry: 'TW' },
      });
    });

    it('describes a product with its name, summary, og:type product and a Product with its price range in TWD', async () => {
      const { res, head: h } = await page('/mall/dong-ding');
      expect(res.statusCode).toBe(200);
      expect(h.title).toBe('凍頂烏龍茶｜山嵐茶事');
      expect(h.ogTitle).toBe('凍頂烏龍茶｜山嵐茶事');
      expect(h.description).toBe('鹿谷的經典炭焙烏龍。');
      expect(h.ogType).toBe('product');
      expect(h.canonical).toBe(`${BASE}/mall/dong-ding`);
      const product = h.jsonLd.find((ld) => ld['@type'] === 'Product');
      expect(product).toMatchObject({
        '@context': 'https://schema.org',
        name: '凍頂烏龍茶',
        description: '鹿谷的經典炭焙烏龍。',
        sku: 'DD-S',
        brand: { '@type': 'Brand', name: '山嵐茶事' },
        offers: {
          '@type': 'AggregateOffer',
          priceCurrency: 'TWD',
          lowPrice: 480,
          highPrice: 880,
          offerCount: 2,
          availability: 'https://schema.org/InStock',
          url: `${BASE}/mall/dong-ding`,
        },
      });
      // No picture: no og:image, a small card.
      expect(res.body).not.toContain('og:image');
      expect(res.body).toContain('<meta name="twitter:card" content="summary">');
    });

    it('marks a product with no stock as out of stock', async () => {
      const product = (await page('/mall/ruby-black')).head.jsonLd.find((ld) => ld['@type'] === 'Product');
      expect(product?.offers).toMatchObject({
        lowPrice: 420,
        highPrice: 760,
        availability: 'https://schema.org/OutOfStock',
      });
    });

    it('answers a draft or unknown product with 404 and 「找不到頁面」, without naming it', async () => {
      for (const url of ['/mall/next-spring', '/mall/no-such-tea', '/mall/does-not-exist']) {
        const { res, head: h } = await page(url);
        expect(res.statusCode, url).toBe(404);
        expect(h.title, url).toBe(`找不到頁面｜${BRAND.name}`);
        expect(h.ogType, url).toBe('website');
        expect(
          h.jsonLd.map((ld) => ld['@type']),
          url,
        ).toEqual(['Organization']);
        expect(res.body, url).not.toContain('明年春茶');
        expect(res.body, url).not.toContain('即將推出');
      }
    });

    it('answers a path no page owns with 404 and 「找不到頁面」', async () => {
      const { res, head: h } = await page('/that/path');
      expect(res.statusCode).toBe(404);
      expect(h.title).toBe(`找不到頁面｜${BRAND.name}`);
    });

    it('keeps an old product address the owner redirected a page (200): the app follows the redirect', async () => {
      await saveRedirect(ctx.database.db, '/mall/dong-ding-classic', '/mall/dong-ding');
      const { res, head: h } = await page('/mall/dong-ding-classic');
      expect(res.statusCode).toBe(200);
      expect(h.title).toBe(`商品介紹｜${BRAND.name}`);
    });

    it('escapes a product name with markup and quotes in the title, meta tags and JSON-LD', async () => {
      const { res, head: h } = await page('/mall/nasty-tea');
      expect(res.statusCode).toBe(200);
      const escapedName =
        '凍頂&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;特級&quot; &amp; &#39;老欉&#39;';
      expect(h.title).toBe(`${escapedName}｜山嵐茶事`);
      expect(h.ogTitle).toBe(`${escapedName}｜山嵐茶事`);
      expect(h.description).toBe('焙火 &quot;重&quot; &lt;b&gt;香&lt;/b&gt;');
      expect(res.body).not.toContain('<script>alert(1)');
      expect(res.body).not.toContain('<b>香</b>');
      // Only the page's own script and the two JSON-LD blocks close a script element.
      expect(res.body.match(/<\/script>/g)).toHaveLength(3);
      const product = h.jsonLd.find((ld) => ld['@type'] === 'Product');
      expect(product).toMatchObject({
        name: NASTY_NAME,
        description: NASTY_SUMMARY,
        offers: { lowPrice: 600, highPrice: 600 },
      });
    });

    it("puts $&, $` and $' in a product name or summary into the shell literally, never splicing parts of the page", async () => {
      const { res, head: h } = await page('/mall/dollar-tea');
      expect(res.statusCode).toBe(200);
      const escape = (s: string) => s.replaceAll('&', '&amp;').replaceAll("'", '&#39;');
      expect(h.title).toBe(`${escape(DOLLAR_NAME)}｜山嵐茶事`);
      expect(h.ogTitle).toBe(h.title);
      expect(h.description).toBe(escape(DOLLAR_SUMMARY));
      expect(h.jsonLd.find((ld) => ld['@type'] === 'Product')).toMatchObject({
        name: DOLLAR_NAME,
        description: DOLLAR_SUMMARY,
      });
      // The shell's parts appear once each: nothing was copied in from before or after the title.
      for (const part of [
        '<!doctype html>',
        '<title>',
        '<div id="root">',
        '<script type="module"',
        '</html>',
      ])
        expect(res.body.split(part), part).toHaveLength(2);
    });

    it("puts $' and $& in an unknown path into its canonical link literally", async () => {
      const { res, head: h } = await page("/no-such-page$'$&");
      expect(res.statusCode).toBe(404);
      expect(h.canonical).toBe(`${BASE}/no-such-page$&#39;$&amp;`);
      for (const part of ['<title>', '<div id="root">', '</html>'])
        expect(res.body.split(part), part).toHaveLength(2);
    });
  });
});
