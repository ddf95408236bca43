import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbAvailable, signIn, testConfig, type TestContext } from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import { sessions, users } from '../../db/schema.ts';
import { createSessionCache } from './session-cache.ts';
import type { AuthContext } from './session-service.ts';

const ORIGIN = 'http://localhost:3000';
const auth = (userId: string, sessionId = `s-${userId}`): AuthContext => ({
  sessionId,
  expiresAt: new Date(Date.now() + 3600_000),
  user: {
    id: userId,
    email: `${userId}@example.com`,
    displayName: userId,
    emailVerified: true,
    role: 'customer',
  },
});

describe('the session cache', () => {
  it('keeps an entry for its lifetime, then forgets it', () => {
    let t = 0;
    const cache = createSessionCache({ ttlMs: 1000, max: 10, now: () => t });
    cache.set('h1', { auth: auth('u1'), lastSeenAt: new Date(), staff: false }, cache.generation);
    expect(cache.get('h1')?.auth.user.id).toBe('u1');
    t = 1001;
    expect(cache.get('h1')).toBeNull();
  });

  it('forgets every entry of a member at once, and nothing of anyone else', () => {
    const cache = createSessionCache({ ttlMs: 60_000, max: 10 });
    cache.set('a1', { auth: auth('a', 'sa1'), lastSeenAt: new Date(), staff: false }, cache.generation);
    cache.set('a2', { auth: auth('a', 'sa2'), lastSeenAt: new Date(), staff: false }, cache.generation);
    cache.set('b1', { auth: auth('b'), lastSeenAt: new Date(), staff: false }, cache.generation);
    cache.forgetUser('a');
    expect([cache.get('a1'), cache.get('a2')]).toEqual([null, null]);
    expect(cache.get('b1')?.auth.user.id).toBe('b');
  });

  it('does not keep what a lookup read before a forget (the session may have just ended)', () => {
    const cache = createSessionCache({ ttlMs: 60_000, max: 10 });
    const since = cache.generation;
    cache.forgetUser('a');
    cache.set('a1', { auth: auth('a'), lastSeenAt: new Date(), staff: false }, since);
    expect(cache.get('a1')).toBeNull();
  });

  it('keeps at most `max` entries, the oldest going first, and keeps nothing with a lifetime of 0', () => {
    const cache = createSessionCache({ ttlMs: 60_000, max: 2 });
    for (const h of ['x', 'y', 'z'])
      cache.set(h, { auth: auth(h), lastSeenAt: new Date(), staff: false }, cache.generation);
    expect([cache.get('x'), cache.get('y')?.auth.user.id, cache.get('z')?.auth.user.id]).toEqual([
      null,
      'y',
      'z',
    ]);
    const off = createSessionCache({ ttlMs: 0, max: 2 });
    off.set('x', { auth: auth('x'), lastSeenAt: new Date(), staff: false }, off.generation);
    expect(off.size).toBe(0);
  });
});

/**
 * Through the app: a signed-in request is answered from memory (a session ended behind the app's
 * back still works for the cache's lifetime), and every way a session ends through the app ends it
 * at once.
 */
describe.skipIf(!dbAvailable())('signed-in requests with the session cache', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ SESSION_CACHE_SECONDS: '60' });
  });
  afterAll(async () => ctx.close());

  const me = (cookie: string) => ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });

  it('answers from memory, without reading the session again', async () => {
    const { cookie, uid } = await signIn(ctx.app, `cache-hit-${Date.now()}@example.com`);
    expect((await me(cookie)).json().user.uid).toBe(uid);
    // Revoked in the database only (no app call): the cache still answers, which shows it was not read.
    await ctx.database.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, uid));
    expect((await me(cookie)).json().user?.uid).toBe(uid);
    // The app hears of it: gone at once.
    await ctx.app.sessionsEnded(uid);
    expect((await me(cookie)).json().user).toBeNull();
  });

  it('a sign-out ends the token at once, even though it was cached', async () => {
    const { cookie } = await signIn(ctx.app, `cache-out-${Date.now()}@example.com`);
    expect((await me(cookie)).json().user).not.toBeNull();
    expect(
      (await ctx.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie, origin: ORIGIN } }))
        .statusCode,
    ).toBeLessThan(300);
    expect((await me(cookie)).json().user).toBeNull();
  });

  it('a disabled account and a changed name show on the next request', async () => {
    const email = `cache-name-${Date.now()}@example.com`;
    const { cookie, uid } = await signIn(ctx.app, email);
    expect((await me(cookie)).json().user.displayName).not.toBe('新名字');
    const patched = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/me/profile',
      headers: { cookie, origin: ORIGIN },
      payload: { displayName: '新名字', phone: '', birthday: '' },
    });
    expect(patched.statusCode).toBe(200);
    expect((await me(cookie)).json().user.displayName).toBe('新名字');
    await ctx.database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, uid));
    await ctx.app.sessionsEnded(uid);
    expect((await me(cookie)).json().user).toBeNull();
  });
});

describe.skipIf(!dbAvailable())('the session cache on two instances sharing Redis', () => {
  it('a sign-out on one instance ends the session on the other at once', async (test) => {
    const { Redis } = await import('ioredis');
    const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    const up = await probe.connect().then(
      () => true,
      () => false,
    );
    probe.disconnect();
    if (!up) test.skip();
    const a = await createTestApp({ REDIS_URL: url, SESSION_CACHE_SECONDS: '60' });
    // A second instance on the same database.
    const b = await buildApp({
      config: testConfig({ REDIS_URL: url, SESSION_CACHE_SECONDS: '60' }),
      database: a.database,
      closeDatabase: false,
    });
    await b.ready();
    try {
      const { cookie } = await signIn(a.app, `cache-two-${Date.now()}@example.com`);
      const meOn = (app: TestContext['app']) =>
        app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
      expect((await meOn(b)).json().user).not.toBeNull();
      expect((await meOn(a.app)).json().user).not.toBeNull();
      expect(
        (await a.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie, origin: ORIGIN } }))
          .statusCode,
      ).toBeLessThan(300);
      // Redis carries the news: b stops answering from memory within moments, not after 60 s.
      await expect.poll(async () => (await meOn(b)).json().user, { timeout: 2000, interval: 50 }).toBeNull();
    } finally {
      await b.close();
      await a.close();
    }
  });
});
