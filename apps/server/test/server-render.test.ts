import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { catalogChanged, stockChanged } from '../src/modules/catalog/service.ts';
import { contentChanged } from '../src/modules/content/service.ts';
import { products, siteSettings } from '../src/db/schema.ts';
import { seedTestCatalog, setRole } from './fixtures.ts';
import { createTestApp, dbAvailable, signIn, type TestContext } from './helpers.ts';

/**
 * How the server uses the web app's server renderer (dist/ssr/entry-server.js, docs/decisions/024):
 * a stand-in renderer here answers by path, so these tests check the server's part (where the page
 * goes, headers, redirects, falling back to the shell, the in-process API with the visitor's
 * cookies) without a web build. The real renderer is driven in the browser (e2e/server-rendering.spec.ts).
 */
const INDEX =
  '<!doctype html><html lang="zh-Hant-TW"><head><title>山嵐茶事</title></head><body><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script></body></html>';

const RENDERER = `
export async function render({ url, cookie, fetch }) {
  const { pathname } = new URL(url);
  if (pathname === '/member/orderTracking') return { kind: 'redirect', status: 301, location: '/member/orderList' };
  if (pathname === '/faq') throw new Error('the page broke');
  if (pathname === '/cart') return { kind: 'skip' };
  const me = await fetch('/api/auth/me', { method: 'GET', headers: { accept: 'application/json' } });
  const body = await me.json();
  globalThis.__renders = (globalThis.__renders ?? 0) + 1;
  return { kind: 'page', status: 200, html: '<main>' + (body.user ? body.user.email : 'nobody') + '</main>', state: '<script type="application/json" id="ssr-state">{}</script>' };
}
export async function renderShared({ url, persona, fetch }) {
  const { pathname } = new URL(url);
  if (pathname === '/faq') throw new Error('the page broke');
  if (pathname === '/shipping' && (await fetch('/api/cart', { method: 'GET', headers: {} })).status === 401) return { kind: 'personal' };
  const me = await (await fetch('/api/auth/me', { method: 'GET', headers: { accept: 'application/json' } })).json();
  const product = pathname.startsWith('/mall/') ? await (await fetch('/api/catalog/products/' + pathname.slice(6), { method: 'GET', headers: {} })).json() : null;
  const footer = pathname === '/home' ? (await (await fetch('/api/site/storefront', { method: 'GET', headers: {} })).json()).footer : null;
  const list = pathname === '/mall' ? await (await fetch('/api/catalog/products' + new URL(url).search, { method: 'GET', headers: {} })).json() : null;
  globalThis.__shared = (globalThis.__shared ?? 0) + 1;
  return {
    kind: 'page',
    status: 200,
    html: '<main>' + (me.user ? 'someone' : 'a member') + ' with ' + persona.cartCount + ' in the cart' + (product ? ' at ' + product.name + ' NT$' + product.variants[0].price : '') + (footer ? ' by ' + footer.companyName : '') + (list ? ' listing ' + list.items.map((p) => p.slug).join(',') : '') + '</main>',
    stateParts: ['<script type="application/json" id="ssr-state">{"user":', ',"cart":', '}</script>'],
    slots: ['user', 'cart'],
  };
}
export function memberSlots(member) {
  return { user: JSON.stringify(member.user), cart: JSON.stringify(member.cart) };
}
`;

describe.skipIf(!dbAvailable())('server rendering', () => {
  let ctx: TestContext;
  let dist: string;
  let catalog: Awaited<ReturnType<typeof seedTestCatalog>>;
  const sharedRenders = () => (globalThis as { __shared?: number }).__shared ?? 0;
  beforeAll(async () => {
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'shop-dist-'));
    await fs.mkdir(path.join(dist, 'assets'));
    await fs.mkdir(path.join(dist, 'ssr'));
    await fs.writeFile(path.join(dist, 'index.html'), INDEX);
    await fs.writeFile(path.join(dist, 'ssr', 'entry-server.js'), RENDERER);
    ctx = await createTestApp({ WEB_DIST: dist });
    catalog = await seedTestCatalog(ctx.database);
  });
  afterAll(async () => {
    await ctx.close();
    await fs.rm(dist, { recursive: true, force: true });
  });

  it('puts the rendered page and its state into the shell, with the shell’s title', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/home' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain(
      '<div id="root" data-hydrating><main>nobody</main></div><script type="application/json" id="ssr-state">{}</script>',
    );
    expect(res.body).toContain('<title>關於山嵐｜山嵐茶事</title>');
  });

  it('renders a member’s own page with their own cookies, privately and never from the shared cache', async () => {
    const { cookie } = await signIn(ctx.app, 'ssr-member@example.com');
    const before = (globalThis as { __renders?: number }).__renders ?? 0;
    for (let i = 0; i < 2; i++) {
      const res = await ctx.app.inject({ method: 'GET', url: '/member', headers: { cookie } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect(res.body).toContain('<main>ssr-member@example.com</main>');
    }
    expect((globalThis as { __renders?: number }).__renders).toBe(before + 2);
  });

  it('answers a redirect from the renderer (an old product address) itself', async () => {
    const { cookie } = await signIn(ctx.app, 'ssr-moved@example.com');
    const res = await ctx.app.inject({ method: 'GET', url: '/member/orderTracking', headers: { cookie } });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe('/member/orderList');
  });

  it('sends nobody in particular the shell of a members’ page at once, without rendering it', async () => {
    const before = (globalThis as { __renders?: number }).__renders ?? 0;
    for (let i = 0; i < 20; i++) {
      const res = await ctx.app.inject({ method: 'GET', url: `/mall?q=${i}` });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root"></div>');
    }
    expect((globalThis as { __renders?: number }).__renders ?? 0).toBe(before);
  });

  it('renders a page for nobody once whatever parameters it does not read, and keeps those it reads apart', async () => {
    const before = (globalThis as { __renders?: number }).__renders ?? 0;
    const bodies = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const res = await ctx.app.inject({ method: 'GET', url: `/team?r=${i}&utm_source=line` });
      expect(res.statusCode).toBe(200);
      bodies.add(res.body);
    }
    expect(bodies.size).toBe(1);
    expect((globalThis as { __renders?: number }).__renders).toBe(before + 1);
    await ctx.app.inject({ method: 'GET', url: '/media?type=video&r=1' });
    await ctx.app.inject({ method: 'GET', url: '/media?r=2&type=video' });
    await ctx.app.inject({ method: 'GET', url: '/media?type=article' });
    expect((globalThis as { __renders?: number }).__renders).toBe(before + 3);
  });

  it('decides by the real session, not the hint cookie: a member without the hint never lands in the shared cache', async () => {
    const { cookie } = await signIn(ctx.app, 'ssr-nohint@example.com');
    const token = cookie
      .split('; ')
      .filter((c) => !c.startsWith('signed_in='))
      .join('; ');
    const own = await ctx.app.inject({ method: 'GET', url: '/download', headers: { cookie: token } });
    expect(own.body).toContain('<main>a member with 0 in the cart</main>');
    expect(own.body).toContain('"email":"ssr-nohint@example.com"');
    expect(own.headers['cache-control']).toBe('private, no-cache');
    const stranger = await ctx.app.inject({ method: 'GET', url: '/download' });
    expect(stranger.body).toContain('<main>nobody</main>');
    // A hint with no live session behind it renders for nobody (from the shared cache) and is cleared.
    const hinted = await ctx.app.inject({
      method: 'GET',
      url: '/download',
      headers: { cookie: 'signed_in=1; token=forged-token-of-no-session-at-all-000000000' },
    });
    expect(hinted.body).toContain('<main>nobody</main>');
    expect(hinted.headers['cache-control']).toBe('no-cache');
    expect(
      hinted.cookies
        .filter((c) => c.value === '')
        .map((c) => c.name)
        .sort(),
    ).toEqual(['signed_in', 'token']);
  });

  it('sends the plain shell when the renderer skips a page or fails on it', async () => {
    const { cookie } = await signIn(ctx.app, 'ssr-skip@example.com');
    for (const url of ['/cart', '/faq']) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: { cookie } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.body).not.toContain('ssr-state');
    }
  });

  describe('pages every member sees alike', () => {
    const page = async (url: string, cookie: string) => {
      const res = await ctx.app.inject({ method: 'GET', url, headers: { cookie } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      return res.body;
    };
    const addToCart = async (cookie: string, quantity: number) => {
      const product = (
        await ctx.app.inject({ method: 'GET', url: '/api/catalog/products/dong-ding' })
      ).json() as { variants: { id: string }[] };
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/cart/items',
        headers: { cookie, origin: 'http://localhost:3000' },
        payload: { variantId: product.variants[0]!.id, quantity },
      });
      expect(res.statusCode).toBe(200);
    };

    it('renders once per cart count, and gives each member their own user and cart, asked without their cookies', async () => {
      const ann = await signIn(ctx.app, 'ssr-ann@example.com');
      const ben = await signIn(ctx.app, 'ssr-ben@example.com');
      const before = sharedRenders();
      const annPage = await page('/mall/dong-ding', ann.cookie);
      const benPage = await page('/mall/dong-ding?utm_source=line', ben.cookie);
      // The renderer asked the API without any cookie: nobody was signed in to it.
      expect(annPage).toContain('<main>a member with 0 in the cart at 凍頂烏龍茶 NT$480</main>');
      expect(sharedRenders()).toBe(before + 1);
      expect(annPage).toContain(`"uid":"${ann.uid}"`);
      expect(annPage).not.toContain(ben.uid);
      expect(benPage).toContain(`"uid":"${ben.uid}"`);
      expect(benPage).not.toContain(ann.uid);
      expect(benPage).not.toContain('ssr-ann@example.com');

      await addToCart(ben.cookie, 2);
      const benWithTea = await page('/mall/dong-ding', ben.cookie);
      expect(sharedRenders()).toBe(before + 2);
      expect(benWithTea).toContain('<main>a member with 2 in the cart at 凍頂烏龍茶 NT$480</main>');
      expect(benWithTea).toContain('"itemCount":2');
      // Ann's page is still the one kept for an empty cart.
      expect(await page('/mall/dong-ding', ann.cookie)).toContain('"itemCount":0');
      expect(sharedRenders()).toBe(before + 2);
    });

    it('drops a kept page when what it shows changes, here or on another instance, and only then', async () => {
      const { cookie } = await signIn(ctx.app, 'ssr-change@example.com');
      await page('/mall/dong-ding', cookie);
      const before = sharedRenders();
      await page('/mall/dong-ding', cookie);
      expect(sharedRenders()).toBe(before);
      // Another product's stock, the content: not on this page.
      stockChanged([catalog.ids.ruby]);
      contentChanged();
      await page('/mall/dong-ding', cookie);
      expect(sharedRenders()).toBe(before);
      // This product's stock (an order), then anything in the catalogue (a price).
      stockChanged([catalog.ids.dongding]);
      await page('/mall/dong-ding', cookie);
      expect(sharedRenders()).toBe(before + 1);
      catalogChanged();
      await page('/mall/dong-ding', cookie);
      expect(sharedRenders()).toBe(before + 2);
      // Another instance's news comes through the event bus.
      await ctx.app.events.publish('catalog', {
        type: 'catalog.changed',
        data: { origin: 'another-instance', productIds: [catalog.ids.dongding] },
      });
      await page('/mall/dong-ding', cookie);
      expect(sharedRenders()).toBe(before + 3);
    });

    it('a sale of one product drops the kept lists that may show it, and keeps the lists that do not', async () => {
      const { cookie } = await signIn(ctx.app, 'ssr-lists@example.com');
      const [ware, tea] = ['/mall?category=ware&sort=best-selling', '/mall?category=tea&sort=best-selling'];
      const setSold = (n: number) =>
        ctx.database.db.update(products).set({ soldCount: n }).where(eq(products.id, catalog.ids.pot));
      // The pot sold fewer than the cup (40) to begin with.
      await setSold(10);
      catalogChanged();
      expect(await page(ware, cookie)).toContain('listing white-cup,zhuni-pot</main>');
      expect(await page(tea, cookie)).toContain('listing ruby-black,dong-ding');
      const before = sharedRenders();
      try {
        // The pot is paid for: its sales count moves (as a payment records it) and the catalogue hears of it.
        await setSold(1_000);
        stockChanged([catalog.ids.pot]);
        // Its list is dropped (the kept page, and the list's cached answer under it) and shows the new order…
        await vi.waitFor(async () =>
          expect(await page(ware, cookie)).toContain('listing zhuni-pot,white-cup</main>'),
        );
        expect(sharedRenders()).toBe(before + 1);
        // …while the tea list, which cannot show the pot, is still the page kept.
        await page(tea, cookie);
        expect(sharedRenders()).toBe(before + 1);
      } finally {
        await setSold(40);
        catalogChanged();
      }
    });

    it('drops every kept page showing the footer when the owner saves its facts, here or on another instance', async () => {
      const { cookie } = await signIn(ctx.app, 'ssr-footer@example.com');
      const owner = await signIn(ctx.app, 'ssr-owner@example.com');
      await setRole(ctx.database, 'ssr-owner@example.com', 'owner');
      expect(await page('/home', cookie)).toContain('by 山嵐茶事</main>');
      const before = sharedRenders();
      await page('/home', cookie);
      expect(sharedRenders()).toBe(before);
      const footer = {
        companyName: '山嵐茶事股份有限公司',
        taxId: '87119873',
        address: '南投縣鹿谷鄉興產路 87 號',
        phone: '049-275-1987',
        lineUrl: '',
        facebookUrl: '',
        marks: ['visa'],
      };
      const saved = await ctx.app.inject({
        method: 'PUT',
        url: '/api/admin/settings/storefront',
        headers: { cookie: owner.cookie, origin: 'http://localhost:3000' },
        payload: footer,
      });
      expect(saved.statusCode).toBe(200);
      expect(await page('/home', cookie)).toContain('by 山嵐茶事股份有限公司</main>');
      expect(sharedRenders()).toBe(before + 1);
      // Another instance saved (the row changed under this one): its news makes this copy read again.
      await ctx.database.db
        .update(siteSettings)
        .set({ value: { ...footer, companyName: '山嵐茶行' } })
        .where(eq(siteSettings.key, 'storefront'));
      await page('/home', cookie);
      expect(sharedRenders()).toBe(before + 1);
      await ctx.app.events.publish('site', {
        type: 'site.storefront.changed',
        data: { origin: 'another-instance' },
      });
      await vi.waitFor(async () => expect(await page('/home', cookie)).toContain('by 山嵐茶行</main>'));
      expect(sharedRenders()).toBe(before + 2);
    });

    it('sends a kept page gzip-encoded as it was kept, the same page as unencoded, with the member’s own parts', async () => {
      const ann = await signIn(ctx.app, 'ssr-gzip-ann@example.com');
      const ben = await signIn(ctx.app, 'ssr-gzip-ben@example.com');
      const ask = (url: string, cookie: string, encoding?: string) =>
        ctx.app.inject({
          method: 'GET',
          url,
          headers: { cookie, ...(encoding ? { 'accept-encoding': encoding } : {}) },
        });
      const withoutTimes = (html: string) => html.replace(/"dataUpdatedAt":\d+/g, '"dataUpdatedAt":0');
      for (const [url, member] of [
        ['/mall/dong-ding', ann],
        ['/mall/dong-ding', ben],
        ['/home', ann],
        ['/home', null],
      ] as const) {
        const cookie = member?.cookie ?? '';
        const plain = await ask(url, cookie);
        const gzip = await ask(url, cookie, 'gzip, deflate, br, zstd');
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(gzip.headers['content-encoding']).toBe('gzip');
        expect(gzip.headers.vary).toContain('accept-encoding');
        // gunzip checks the stream's CRC-32 and length.
        const unzipped = zlib.gunzipSync(gzip.rawPayload).toString('utf8');
        expect(withoutTimes(unzipped)).toBe(withoutTimes(plain.body));
        if (member) expect(unzipped).toContain(`"uid":"${member.uid}"`);
      }
      // A visitor who does not take gzip gets no gzip.
      const refused = await ask('/mall/dong-ding', ann.cookie, 'gzip;q=0, identity');
      expect(refused.headers['content-encoding']).toBeUndefined();
      expect(refused.body).toContain(`"uid":"${ann.uid}"`);
    });

    it('renders the page for the member when it turns out to ask for their own data', async () => {
      const { cookie } = await signIn(ctx.app, 'ssr-own@example.com');
      const rendersBefore = (globalThis as { __renders?: number }).__renders ?? 0;
      // The stand-in's /shipping asks for the cart: 401 without cookies.
      const body = await page('/shipping', cookie);
      expect(body).toContain('<main>ssr-own@example.com</main>');
      expect((globalThis as { __renders?: number }).__renders).toBe(rendersBefore + 1);
    });
  });

  it('refuses to start on a web build whose page shell has no empty root element for pages to go in', async () => {
    const broken = await fs.mkdtemp(path.join(os.tmpdir(), 'shop-dist-'));
    await fs.mkdir(path.join(broken, 'assets'));
    await fs.writeFile(path.join(broken, 'index.html'), INDEX.replace('<div id="root"></div>', ''));
    try {
      await expect(createTestApp({ WEB_DIST: broken })).rejects.toThrow(
        'has no <div id="root"></div> for the pages to go in',
      );
    } finally {
      await fs.rm(broken, { recursive: true, force: true });
    }
  });
});
