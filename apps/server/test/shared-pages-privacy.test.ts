import zlib from 'node:zlib';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InProcessFetch, PageRenderer } from '@shop/shared/server-rendering';
import { users } from '../src/db/schema.ts';
import { seedTestCatalog } from './fixtures.ts';
import { createTestApp, dbAvailable, signIn, type TestContext } from './helpers.ts';

/**
 * The shop's own renderer (apps/web/src/entry-server.tsx, from source) behind the server: pages
 * every member sees alike are rendered once and given to each member with their own parts
 * (docs/decisions/038-shared-member-pages.md). Two members of different tiers, with different
 * carts, take turns on the same product and list pages: each sees only their own name, e-mail and
 * cart, and each page is exactly the page a render for that member alone gives.
 */
const WEB_SRC = fileURLToPath(new URL('../../web/src/', import.meta.url));

describe.skipIf(!dbAvailable())('pages shared by members, on the real renderer', () => {
  let ctx: TestContext;
  let dist: string;
  beforeAll(async () => {
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'shop-dist-'));
    await fs.mkdir(path.join(dist, 'assets'));
    await fs.mkdir(path.join(dist, 'ssr'));
    const index = await fs.readFile(path.join(WEB_SRC, '..', 'index.html'), 'utf8');
    await fs.writeFile(path.join(dist, 'index.html'), index);
    await fs.writeFile(
      path.join(dist, 'ssr', 'entry-server.js'),
      `export * from ${JSON.stringify(path.join(WEB_SRC, 'entry-server.tsx'))};\n`,
    );
    ctx = await createTestApp({ WEB_DIST: dist });
    await seedTestCatalog(ctx.database);
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
    await fs.rm(dist, { recursive: true, force: true });
  });

  const member = async (email: string, displayName: string, tierCode: string, cartItems: number) => {
    const { cookie, uid } = await signIn(ctx.app, email);
    await ctx.database.db.update(users).set({ displayName, tierCode }).where(eq(users.email, email));
    if (cartItems > 0) {
      const product = (
        await ctx.app.inject({ method: 'GET', url: '/api/catalog/products/dong-ding' })
      ).json() as { variants: { id: string }[] };
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/cart/items',
        headers: { cookie, origin: 'http://localhost:3000' },
        payload: { variantId: product.variants[0]!.id, quantity: cartItems },
      });
      expect(res.statusCode).toBe(200);
    }
    return { cookie, uid, email, displayName };
  };

  /** The page as served; `gzip`: asked as browsers ask, and unzipped (a kept page goes out as kept, encoded). */
  const get = async (url: string, cookie: string, gzip = false) => {
    const res = await ctx.app.inject({
      method: 'GET',
      url,
      headers: { cookie, ...(gzip ? { 'accept-encoding': 'gzip, deflate' } : {}) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    const html = gzip ? zlib.gunzipSync(res.rawPayload).toString('utf8') : res.body;
    expect(html).toContain('data-hydrating');
    return html;
  };
  /** The page as the member's own render gives it (a page asked with `preview` is never shared), times aside. */
  const own = async (url: string, cookie: string) =>
    normalise(await get(`${url}${url.includes('?') ? '&' : '?'}preview=1`, cookie));
  const normalise = (html: string) =>
    html.replace(/"(dataUpdatedAt|dehydratedAt)":\d+/g, '"$1":0').replace(/preview=1&?/g, '');

  it('gives each of two members of different tiers only their own name, e-mail and cart', async () => {
    const gold = await member('ssr-gold@example.com', '金卡林小姐', 'gold', 3);
    const silver = await member('ssr-silver@example.com', '銀卡陳先生', 'silver', 0);
    for (const url of ['/mall/dong-ding', '/mall?category=oolong&sort=price-asc', '/faq']) {
      // Turns: the second visit of each is served from what the first rendered, gzip-encoded.
      for (const round of [1, 2]) {
        for (const [me, other, count] of [
          [gold, silver, 3],
          [silver, gold, 0],
        ] as const) {
          const html = await get(url, me.cookie, round === 2);
          expect(html, `${url} round ${round}`).toContain(`"uid":"${me.uid}"`);
          expect(html).toContain(`"displayName":"${me.displayName}"`);
          expect(html).toContain(`"email":"${me.email}"`);
          expect(html).toContain(`"itemCount":${count}`);
          expect(html).toContain(count > 0 ? `購物車，共 ${count} 件商品` : 'aria-label="購物車"');
          for (const theirs of [other.uid, other.email, other.displayName])
            expect(html).not.toContain(theirs);
          // Content pages read `preview` (their query keys differ): the catalogue's pages compared.
          if (url.startsWith('/mall')) expect(normalise(html)).toBe(await own(url, me.cookie));
        }
      }
    }
  }, 120_000);

  it('renders a product page, a sold-out one and the mall list for everyone, asking nothing of anyone’s own', async () => {
    const renderer = (await import(path.join(WEB_SRC, 'entry-server.tsx'))) as PageRenderer;
    for (const url of ['/mall/dong-ding', '/mall/ruby-black', '/mall?category=oolong']) {
      const asked: string[] = [];
      const fetch: InProcessFetch = async (target, init) => {
        asked.push(target.split('?', 1)[0]!);
        const res = await ctx.app.inject({
          method: 'GET',
          url: target,
          headers: { ...(init.headers as object) },
        });
        return new Response(res.body, {
          status: res.statusCode,
          headers: { 'content-type': 'application/json' },
        });
      };
      const result = await renderer.renderShared({
        url: `http://localhost:3000${url}`,
        persona: { cartCount: 0 },
        fetch,
      });
      // A member's own call there answers 401 and turns the page into each member's own render.
      expect(result.kind, `${url} asked ${asked.join(', ')}`).toBe('page');
      expect(asked.filter((a) => !/^\/api\/(catalog\/|content\/|redirects$|site\/)/.test(a))).toEqual([]);
    }
  });

  it('writes a member’s name into the shared page’s state so that it cannot end the element', async () => {
    const name = '</script><script>alert(1)</script>\u2028林';
    const odd = await member('ssr-odd@example.com', name, 'silver', 1);
    const html = await get('/mall/dong-ding', odd.cookie);
    expect(html).not.toContain('<script>alert(1)');
    const state = /<script type="application\/json" id="ssr-state">(.*?)<\/script>/s.exec(html)![1]!;
    expect((JSON.parse(state) as { user: { displayName: string } }).user.displayName).toBe(name);
  });

  it('says a kept page’s answers were read when the page is sent, so the browser does not ask again', async () => {
    const stamps = (html: string) =>
      [...html.matchAll(/"dataUpdatedAt":(\d+)/g)].map((m) => Number(m[1])).filter((t) => t > 0);
    const first = await ctx.app.inject({ method: 'GET', url: '/faq' });
    expect(stamps(first.body).length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 30));
    const sent = Date.now();
    const kept = await ctx.app.inject({ method: 'GET', url: '/faq' });
    expect(kept.body.length).toBeGreaterThan(0);
    for (const stamp of stamps(kept.body)) expect(stamp).toBeGreaterThanOrEqual(sent);
  });
});
