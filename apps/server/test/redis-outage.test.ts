import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, orders, productVariants, users } from '../src/db/schema.ts';
import { REDIS_OPTIONS } from '../src/plugins/redis.ts';
import { seedTestCatalog, setRole } from './fixtures.ts';
import { createTestApp, dbAvailable, signIn, type TestContext } from './helpers.ts';
import { freePort, redisServerAvailable, throwawayRedis } from './redis-server.ts';
import { ORIGIN } from './shop.ts';

const PASSWORD = '山嵐茶事-redis-2026';
const SHIPPING = {
  method: 'home',
  recipientName: '林小嵐',
  phone: '0912345678',
  city: '南投縣',
  district: '鹿谷鄉',
  address: '興產路 87 號',
};

interface Answer {
  readonly what: string;
  readonly status: number;
  readonly ms: number;
  readonly body: string;
}

/** A member who signs in with a password (the sign-in limits run) and shops through the API. */
function member(ctx: TestContext, email: string) {
  let cookie = '';
  const answers: Answer[] = [];
  const call = async (what: string, method: 'GET' | 'POST', url: string, payload?: object) => {
    const started = performance.now();
    const res = await ctx.app.inject({
      method,
      url,
      headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
      ...(payload ? { payload } : {}),
    });
    answers.push({
      what,
      status: res.statusCode,
      ms: performance.now() - started,
      body: res.body.slice(0, 200),
    });
    return res;
  };
  return {
    answers,
    async register() {
      const res = await call('register', 'POST', '/api/auth/register', {
        displayName: '山嵐茶友',
        email,
        password: PASSWORD,
        passwordConfirm: PASSWORD,
        acceptTerms: true,
      });
      // Ordering needs a verified address; the mailed link is not what this test is about.
      await ctx.database.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.email, email));
      return res;
    },
    async signIn(password = PASSWORD) {
      const res = await call('sign-in', 'POST', '/api/auth/login', { email, password });
      if (res.statusCode === 200) cookie = res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      return res;
    },
    add: (variantId: string) => call('cart add', 'POST', '/api/cart/items', { variantId, quantity: 1 }),
    order: () =>
      call('order', 'POST', '/api/orders', {
        idempotencyKey: randomUUID(),
        shipping: SHIPPING,
        invoice: { type: 'member' },
        paymentMethod: 'cod',
      }),
  };
}

const health = async (ctx: TestContext) => {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
  return { status: res.statusCode, body: res.json() as { status: string; redis?: string } };
};

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

/**
 * No answer is a 5xx, and none waited for Redis to time out: with Redis gone a command fails at
 * once, and waiting out REDIS_OPTIONS.commandTimeout would show as an answer at least that slow.
 * (A tighter bound measured this machine's load instead: 2.65 s sign-ins with Redis up.)
 */
function expectAllAnswered(answers: readonly Answer[], allowed: readonly number[]) {
  const bad = answers.filter((a) => !allowed.includes(a.status));
  expect(bad, `unexpected answers: ${JSON.stringify(bad)}`).toEqual([]);
  const waited = answers.filter((a) => a.ms >= REDIS_OPTIONS.commandTimeout);
  expect(waited, `answers that waited for Redis: ${JSON.stringify(waited)}`).toEqual([]);
}

describe.skipIf(!dbAvailable() || !redisServerAvailable())('Redis is optional at run time', () => {
  it('an instance starts without Redis, says so in health (still 200), and sign-in, cart and orders work', async () => {
    const nothing = await freePort();
    // It waits the bounded time for Redis, then starts without it.
    const started = performance.now();
    const ctx = await createTestApp({
      REDIS_URL: `redis://127.0.0.1:${nothing}`,
      REDIS_START_WAIT_SECONDS: '1',
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
    try {
      await seedTestCatalog(ctx.database);
      const [cup] = await ctx.database.db
        .select({ id: productVariants.id })
        .from(productVariants)
        .where(eq(productVariants.sku, 'CUP-1'));
      expect(await health(ctx)).toMatchObject({ status: 200, body: { status: 'ok', redis: 'unavailable' } });
      const m = member(ctx, 'no-redis@example.com');
      expect((await m.register()).statusCode).toBe(201);
      expect((await m.signIn()).statusCode).toBe(200);
      expect((await m.add(cup!.id)).statusCode).toBe(200);
      expect((await m.order()).statusCode).toBe(201);
      expectAllAnswered(m.answers, [200, 201]);
      // The limits still hold, counted in this instance's memory: the sixth wrong password is refused.
      const stranger = member(ctx, 'no-redis@example.com');
      const tries = [];
      for (let i = 0; i < 6; i++) tries.push((await stranger.signIn('不是這個密碼-0000')).statusCode);
      expect(tries).toEqual([400, 400, 400, 400, 400, 429]);
    } finally {
      await ctx.close();
    }
  });

  describe('Redis stopped under load, then back', () => {
    let redis: Awaited<ReturnType<typeof throwawayRedis>>;
    let ctx: TestContext;
    let cup = '';
    let owner = '';
    beforeAll(async () => {
      redis = await throwawayRedis();
      ctx = await createTestApp({ REDIS_URL: redis.url });
      await seedTestCatalog(ctx.database);
      cup = (
        await ctx.database.db
          .select({ id: productVariants.id })
          .from(productVariants)
          .where(eq(productVariants.sku, 'CUP-1'))
      )[0]!.id;
      owner = (await signIn(ctx.app, 'owner@example.com')).cookie;
      await setRole(ctx.database, 'owner@example.com', 'owner');
    });
    afterAll(async () => {
      await ctx?.close();
      await redis?.kill();
    });

    it('keeps sign-in, cart, orders and console actions working, with no false 500 on a completed write', async () => {
      expect(await health(ctx)).toMatchObject({ status: 200, body: { status: 'ok', redis: 'ok' } });
      const members = Array.from({ length: 6 }, (_, i) => member(ctx, `load${i}@example.com`));
      for (const m of members) expect((await m.register()).statusCode).toBe(201);

      // Each member signs in, adds to the cart and orders, three times over; Redis dies during the second round.
      const round = () =>
        Promise.all(
          members.map(async (m) => {
            await m.signIn();
            await m.add(cup);
            await m.order();
          }),
        );
      await round();
      await Promise.all([round(), new Promise((r) => setTimeout(r, 30)).then(() => redis.kill())]);
      await round();

      const answers = members.flatMap((m) => m.answers);
      expectAllAnswered(answers, [200, 201]);
      const placed = answers.filter((a) => a.what === 'order' && a.status === 201).length;
      const stored = await ctx.database.db.select({ id: orders.id }).from(orders);
      expect(placed).toBe(18);
      expect(stored).toHaveLength(placed);

      // A console action answers 200 and leaves its audit row.
      const orderNo = (await ctx.database.db.select({ orderNo: orders.orderNo }).from(orders).limit(1))[0]!
        .orderNo;
      const started = performance.now();
      const action = await ctx.app.inject({
        method: 'POST',
        url: `/api/admin/orders/${orderNo}/actions`,
        headers: { origin: ORIGIN, cookie: owner },
        payload: { action: 'cancel', reason: '客人來電取消' },
      });
      expect(action.statusCode, action.body).toBe(200);
      expect(performance.now() - started).toBeLessThan(REDIS_OPTIONS.commandTimeout);
      const audit = await ctx.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'order'), eq(auditLog.entityId, orderNo)));
      expect(audit.map((r) => r.action)).toEqual(['order.cancel']);

      expect(await health(ctx)).toMatchObject({ status: 200, body: { status: 'ok', redis: 'unavailable' } });
    });

    it('counts limits in memory while Redis is away, and in Redis again once it is back', async () => {
      const stranger = member(ctx, 'load0@example.com');
      const tries = [];
      for (let i = 0; i < 6; i++) tries.push((await stranger.signIn('不是這個密碼-0000')).statusCode);
      expect(tries).toEqual([400, 400, 400, 400, 400, 429]);

      // A member's page is connected for live updates while Redis is away: events other instances
      // publish now never reach it, so when Redis is back its stream ends and the page refetches.
      const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const { cookie } = await signIn(ctx.app, 'watcher@example.com');
      const stream = await fetch(`${address}/api/events`, { headers: { cookie } });
      expect(stream.status).toBe(200);
      const reader = stream.body!.getReader();
      const ended = (async () => {
        for (;;) if ((await reader.read()).done) return 'ended';
      })();

      await redis.start();
      expect(await until(async () => (await health(ctx)).body.redis === 'ok', 10_000)).toBe(true);
      expect(await Promise.race([ended, new Promise((r) => setTimeout(() => r('still open'), 3000))])).toBe(
        'ended',
      );
      const probe = new Redis(redis.url, { lazyConnect: true });
      try {
        await probe.connect();
        await member(ctx, 'load1@example.com').signIn('不是這個密碼-0000');
        expect((await probe.keys('shop:rl:*')).length).toBeGreaterThan(0);
      } finally {
        probe.disconnect();
      }
    });
  });
});
