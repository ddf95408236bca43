import { desc, eq } from 'drizzle-orm';
import { auditLog } from '../../db/schema.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MaintenanceStatus } from '@shop/shared/site';
import { createTestApp, dbAvailable, signIn, type TestContext } from '../../../test/helpers.ts';
import { seedTestCatalog, setRole } from '../../../test/fixtures.ts';
import { ORIGIN } from '../../../test/shop.ts';
import { writeMaintenance } from './maintenance.ts';

const DEFAULT_MESSAGE = '我們正在進行系統維護，讓購物更順暢。造成不便，敬請見諒。';
const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

describe.skipIf(!dbAvailable())('maintenance mode', () => {
  let ctx: TestContext;
  let owner: string;
  let staff: string;
  let viewer: string;
  let customer: string;
  beforeAll(async () => {
    ctx = await createTestApp();
    await seedTestCatalog(ctx.database);
    owner = (await signIn(ctx.app, 'owner@example.com')).cookie;
    staff = (await signIn(ctx.app, 'staff@example.com')).cookie;
    viewer = (await signIn(ctx.app, 'viewer@example.com')).cookie;
    customer = (await signIn(ctx.app, 'customer@example.com')).cookie;
    await setRole(ctx.database, 'owner@example.com', 'owner');
    await setRole(ctx.database, 'staff@example.com', 'staff');
    await setRole(ctx.database, 'viewer@example.com', 'viewer');
  });
  afterAll(async () => ctx.close());

  const get = (url: string, cookie?: string) =>
    ctx.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  const setMaintenance = (body: Record<string, unknown>, cookie?: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/admin/maintenance',
      headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
      payload: body,
    });
  const status = async () => (await get('/api/site/status')).json() as MaintenanceStatus;
  const turnOn = async (body: Record<string, unknown> = {}) => {
    const res = await setMaintenance({ enabled: true, endsAt: inHours(2), ...body }, owner);
    expect(res.statusCode, res.body).toBe(200);
  };
  const turnOff = async () => {
    const res = await setMaintenance({ enabled: false }, owner);
    expect(res.statusCode, res.body).toBe(200);
  };

  describe('when off (the default)', () => {
    it('reports the shop open, with the default message', async () => {
      const res = await get('/api/site/status');
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual({ enabled: false, endsAt: null, message: DEFAULT_MESSAGE });
    });

    it('serves shoppers’ API calls and pages as usual', async () => {
      expect((await get('/api/catalog/products')).statusCode).toBe(200);
      expect((await get('/api/cart', customer)).statusCode).toBe(200);
      expect((await get('/mall')).statusCode).toBe(200);
      expect((await get('/')).statusCode).toBe(200);
    });
  });

  describe('switching it', () => {
    afterEach(async () => {
      await writeMaintenance(ctx.database.db, { enabled: false, endsAt: null, message: '' });
      ctx.app.maintenanceChanged();
    });

    it('lets the owner turn it on, and answers the new status at once', async () => {
      const endsAt = inHours(2);
      const res = await setMaintenance(
        { enabled: true, endsAt, message: '  冬茶上架作業中，稍後回來。  ' },
        owner,
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual({ enabled: true, endsAt, message: '冬茶上架作業中，稍後回來。' });
      expect(await status()).toEqual({ enabled: true, endsAt, message: '冬茶上架作業中，稍後回來。' });
    });

    it('is a site setting: staff members cannot switch it (the owner can), and each switch is audited', async () => {
      const refused = await setMaintenance({ enabled: true }, staff);
      expect(refused.statusCode).toBe(403);
      expect((await status()).enabled).toBe(false);
      const res = await setMaintenance({ enabled: true }, owner);
      expect(res.json()).toEqual({ enabled: true, endsAt: null, message: DEFAULT_MESSAGE });
      const [row] = await ctx.database.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'maintenance.set'))
        .orderBy(desc(auditLog.id))
        .limit(1);
      expect(row).toMatchObject({
        actorEmail: 'owner@example.com',
        actorRole: 'owner',
        entity: 'setting',
        entityId: 'maintenance',
        after: { enabled: true },
      });
    });

    it('refuses anonymous callers with 401 and shoppers and viewers with 403, changing nothing', async () => {
      const anonymous = await setMaintenance({ enabled: true });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json().error.code).toBe('unauthenticated');
      const shopper = await setMaintenance({ enabled: true }, customer);
      expect(shopper.statusCode).toBe(403);
      expect(shopper.json().error.code).toBe('forbidden');
      expect((await setMaintenance({ enabled: true }, viewer)).statusCode).toBe(403);
      expect((await status()).enabled).toBe(false);
    });

    it('refuses an invalid body with a zh-TW message, changing nothing', async () => {
      const bad = await setMaintenance({ enabled: true, endsAt: 'tomorrow' }, owner);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.code).toBe('invalid-argument');
      expect(bad.json().error.fields.endsAt).toBe('結束時間格式不正確');
      // A time without an offset is ambiguous, and unknown fields are refused.
      expect((await setMaintenance({ enabled: true, endsAt: '2026-12-01T10:00:00' }, owner)).statusCode).toBe(
        400,
      );
      expect((await setMaintenance({ enabled: true, until: inHours(1) }, owner)).statusCode).toBe(400);
      expect((await setMaintenance({ enabled: 'yes' }, owner)).statusCode).toBe(400);
      expect((await setMaintenance({ enabled: true, message: '維'.repeat(201) }, owner)).statusCode).toBe(
        400,
      );
      expect(await status()).toEqual({ enabled: false, endsAt: null, message: DEFAULT_MESSAGE });
    });

    it('is cached for 2 s in process: a write elsewhere shows after that, or at once after maintenanceChanged()', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        expect((await status()).enabled).toBe(false);
        // As if another instance had switched it on.
        await writeMaintenance(ctx.database.db, { enabled: true, endsAt: null, message: '' });
        expect((await status()).enabled).toBe(false);
        vi.setSystemTime(Date.now() + 2_100);
        expect((await status()).enabled).toBe(true);

        await writeMaintenance(ctx.database.db, { enabled: false, endsAt: null, message: '' });
        expect((await status()).enabled).toBe(true);
        ctx.app.maintenanceChanged();
        expect((await status()).enabled).toBe(false);
      } finally {
        vi.useRealTimers();
      }
    });
  });

  describe('when on', () => {
    let endsAt: string;
    beforeAll(async () => {
      endsAt = inHours(2);
      await turnOn({ endsAt });
    });
    afterAll(async () => turnOff());

    it('answers anonymous and shopper API calls with 503, the message and Retry-After until endsAt', async () => {
      for (const [who, cookie] of [
        ['anonymous', undefined],
        ['customer', customer],
      ] as const) {
        const res = await get('/api/catalog/products', cookie);
        expect(res.statusCode, who).toBe(503);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.json()).toEqual({ error: { code: 'maintenance', message: DEFAULT_MESSAGE } });
        const retryAfter = Number(res.headers['retry-after']);
        const expected = Math.ceil((Date.parse(endsAt) - Date.now()) / 1000);
        expect(retryAfter).toBeGreaterThanOrEqual(expected);
        expect(retryAfter).toBeLessThanOrEqual(expected + 5);
        expect(retryAfter).toBeLessThanOrEqual(7_200);
      }
      expect((await get('/api/catalog/products/dong-ding')).statusCode).toBe(503);
      expect((await get('/api/cart', customer)).statusCode).toBe(503);
      const write = await ctx.app.inject({
        method: 'POST',
        url: '/api/cart/items',
        headers: { cookie: customer, origin: ORIGIN },
        payload: { variantId: '00000000-0000-0000-0000-000000000000', quantity: 1 },
      });
      expect(write.statusCode).toBe(503);
      expect((await get('/api/content/faq')).statusCode).toBe(503);
    });

    it('keeps serving staff, owner and viewer sessions', async () => {
      for (const cookie of [owner, staff, viewer]) {
        const res = await get('/api/catalog/products', cookie);
        expect(res.statusCode).toBe(200);
        expect(res.json().total).toBe(5);
      }
      expect((await get('/api/cart', staff)).statusCode).toBe(200);
    });

    it('keeps health, site status and sign-in open', async () => {
      expect((await get('/api/health')).statusCode).toBe(200);
      expect(await status()).toEqual({ enabled: true, endsAt, message: DEFAULT_MESSAGE });
      const me = await get('/api/auth/me', customer);
      expect(me.statusCode).toBe(200);
      expect(me.json().user.email).toBe('customer@example.com');
      const login = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { origin: ORIGIN },
        payload: { email: 'nobody@example.com', password: 'wrong-password-1' },
      });
      expect(login.statusCode).not.toBe(503);
    });

    it('answers anonymous and shopper page visits with 503, Retry-After and a calm page at the address asked for', async () => {
      for (const url of [
        '/',
        '/mall',
        '/mall/dong-ding',
        '/faq',
        '/member/orderList',
        '/MALL/',
        '/mall?sort=newest',
        '/maintenance',
      ]) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(503);
        expect(res.headers.location, url).toBeUndefined();
        const retryAfter = Number(res.headers['retry-after']);
        expect(retryAfter, url).toBeGreaterThan(7_000);
        expect(retryAfter, url).toBeLessThanOrEqual(7_200);
        expect(res.headers['cache-control'], url).toBe('no-store');
        expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      }
      const page = (await get('/mall/dong-ding', customer)).body;
      expect(page).toContain('<title>系統維護中｜山嵐茶事</title>');
      expect(page).toContain('<h1>系統維護中</h1>');
      expect(page).toContain(DEFAULT_MESSAGE);
      expect(page).toMatch(/預計恢復時間：<strong>\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}<\/strong>/);
      // No script, no shop navigation whose links would only lead back here: mail and phone only.
      expect(page).not.toContain('<script');
      expect([...page.matchAll(/<a [^>]*href="([^"]*)"/g)].map((m) => m[1])).toEqual([
        'mailto:service@shanlan-tea.example',
        'tel:0492751987',
      ]);
      expect(page).toContain('<meta http-equiv="refresh" content="60">');
      expect((await ctx.app.inject({ method: 'HEAD', url: '/faq' })).statusCode).toBe(503);
    });

    it('sends a page that was moved to /maintenance back to it when the shop opens, and only to the shop’s own pages', async () => {
      const refresh = async (url: string) =>
        /<meta http-equiv="refresh" content="([^"]*)">/.exec((await get(url)).body)?.[1];
      expect(await refresh(`/maintenance?next=${encodeURIComponent('/mall?category=tea')}`)).toBe(
        '60;url=/mall?category=tea',
      );
      expect(await refresh(`/maintenance?next=${encodeURIComponent('/member/orderList')}`)).toBe(
        '60;url=/member/orderList',
      );
      for (const next of [
        '//evil.example/x',
        '/\\evil.example',
        'https://evil.example/',
        '/maintenance',
        '/no/such/page',
        '/api/cart',
        '/faq"><script>',
      ])
        expect(await refresh(`/maintenance?next=${encodeURIComponent(next)}`), next).toBe('60');
      // Elsewhere `next` means nothing: a page refreshes itself.
      expect(await refresh('/faq?next=%2Fmall')).toBe('60');
    });

    it('answers the new-build check with 503 too, so open pages learn of it at their next check', async () => {
      const res = await get('/build-manifest.json?t=1');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: { code: 'maintenance', message: DEFAULT_MESSAGE } });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(7_000);
      expect((await get('/build-manifest.json?t=2', staff)).statusCode).not.toBe(503);
    });

    it('leaves unknown paths and files alone', async () => {
      expect((await get('/no/such/page')).statusCode).toBe(404);
      expect((await get('/favicon.svg')).statusCode).toBe(404);
      expect((await get('/robots.txt')).statusCode).toBe(200);
    });

    it('lets staff, owner and viewer sessions open pages (pages resolve the session themselves)', async () => {
      for (const cookie of [staff, owner, viewer]) {
        for (const url of ['/', '/mall/dong-ding', '/maintenance']) {
          const res = await get(url, cookie);
          expect(res.statusCode, url).toBe(200);
          expect(res.headers.location).toBeUndefined();
        }
      }
      // A token that resolves to no session is an anonymous visitor.
      expect((await get('/mall', `token=${'x'.repeat(43)}`)).statusCode).toBe(503);
    });
  });

  describe('Retry-After', () => {
    afterEach(async () => turnOff());

    it('is an hour when no end time is given, with the owner’s message', async () => {
      await turnOn({ endsAt: null, message: '系統升級中' });
      const res = await get('/api/catalog/products');
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('3600');
      expect(res.json().error.message).toBe('系統升級中');
    });

    it('is at least a minute, even when the end time is near or past', async () => {
      await turnOn({ endsAt: new Date(Date.now() + 10_000).toISOString() });
      expect((await get('/api/catalog/products')).headers['retry-after']).toBe('60');
      await turnOn({ endsAt: new Date(Date.now() - 600_000).toISOString() });
      expect((await get('/api/catalog/products')).headers['retry-after']).toBe('60');
    });

    it('accepts an end time with a +08:00 offset', async () => {
      const end = new Date(Date.now() + 3 * 3_600_000);
      const taipei = new Date(end.getTime() + 8 * 3_600_000).toISOString().replace(/\.\d+Z$/, '+08:00');
      await turnOn({ endsAt: taipei });
      const retryAfter = Number((await get('/api/catalog/products')).headers['retry-after']);
      expect(Math.abs(retryAfter - 3 * 3_600)).toBeLessThanOrEqual(5);
    });
  });

  describe('after turning it off', () => {
    it('serves shoppers again at once', async () => {
      await turnOn();
      expect((await get('/api/catalog/products')).statusCode).toBe(503);
      expect((await get('/mall')).statusCode).toBe(503);
      await turnOff();
      expect(await status()).toMatchObject({ enabled: false });
      expect((await get('/api/catalog/products')).statusCode).toBe(200);
      expect((await get('/api/cart', customer)).statusCode).toBe(200);
      expect((await get('/mall')).statusCode).toBe(200);
    });
  });
});

describe.skipIf(!dbAvailable())('maintenance mode forced by MAINTENANCE_MODE=true', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ MAINTENANCE_MODE: 'true' });
  });
  afterAll(async () => ctx.close());

  it('answers 503 though the database flag is off, and the status says so', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/catalog/products' });
    expect(res.statusCode).toBe(503);
    expect(res.json().error.code).toBe('maintenance');
    expect(res.headers['retry-after']).toBe('3600');
    const status = await ctx.app.inject({ method: 'GET', url: '/api/site/status' });
    expect(status.json()).toEqual({ enabled: true, endsAt: null, message: DEFAULT_MESSAGE });
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    const page = await ctx.app.inject({ method: 'GET', url: '/mall' });
    expect(page.statusCode).toBe(503);
    expect(page.headers['retry-after']).toBe('3600');
    expect(page.body).toContain('<h1>系統維護中</h1>');
  });

  it('cannot be switched off from the database while the environment forces it', async () => {
    const { cookie } = await signIn(ctx.app, 'owner@example.com');
    await setRole(ctx.database, 'owner@example.com', 'owner');
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/maintenance',
      headers: { cookie, origin: ORIGIN },
      payload: { enabled: false },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().enabled).toBe(true);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/catalog/products' })).statusCode).toBe(503);
    // Staff still get through.
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/catalog/products', headers: { cookie } })).statusCode,
    ).toBe(200);
  });
});
