import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbAvailable, signIn, type TestContext } from '../../../test/helpers.ts';
import { sessions } from '../../db/schema.ts';

describe.skipIf(!dbAvailable())('sessions and cookies', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('sets an HttpOnly token cookie and a readable companion, both SameSite=Lax', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/test/session',
      payload: { email: 'a@example.com' },
    });
    const token = res.cookies.find((c) => c.name === 'token');
    const hint = res.cookies.find((c) => c.name === 'signed_in');
    expect(token).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(token?.value.length).toBeGreaterThanOrEqual(43);
    expect(hint).toMatchObject({ value: '1', sameSite: 'Lax' });
    expect(hint?.httpOnly).toBeFalsy();
  });

  it('stores only a hash of the token', async () => {
    const { cookie } = await signIn(ctx.app, 'hash@example.com');
    const raw = /token=([^;]+)/.exec(cookie)?.[1] ?? '';
    const rows = await ctx.database.db.select({ tokenHash: sessions.tokenHash }).from(sessions);
    expect(rows.some((r) => r.tokenHash === raw)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.tokenHash))).toBe(true);
  });

  it('knows the current user from the token cookie', async () => {
    const { cookie, uid } = await signIn(ctx.app, 'me@example.com');
    const res = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(res.json()).toEqual({
      user: {
        uid,
        email: 'me@example.com',
        displayName: '測試會員',
        emailVerified: true,
        providers: ['password'],
      },
    });
  });

  it('trusts only the token: the companion alone is cleared and counts for nothing', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { cookie: 'signed_in=1' },
    });
    expect(res.json()).toEqual({ user: null });
    const cleared = res.cookies.filter(
      (c) =>
        c.value === '' ||
        (c.maxAge !== undefined && c.maxAge <= 0) ||
        (c.expires && c.expires.getTime() < Date.now()),
    );
    expect(cleared.map((c) => c.name).sort()).toEqual(['signed_in', 'token']);
  });

  it('treats a forged token as signed out', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { cookie: `token=${'A'.repeat(43)}; signed_in=1` },
    });
    expect(res.json()).toEqual({ user: null });
  });

  it('refuses a cookie-authenticated write from another origin', async () => {
    const { cookie } = await signIn(ctx.app, 'csrf@example.com');
    const cross = await ctx.app.inject({
      method: 'POST',
      url: '/api/test/session',
      headers: { cookie, origin: 'https://evil.example' },
      payload: { email: 'csrf@example.com' },
    });
    expect(cross.statusCode).toBe(403);
    expect(cross.json().error.code).toBe('cross-site-request');
    const fetchSite = await ctx.app.inject({
      method: 'POST',
      url: '/api/test/session',
      headers: { cookie, 'sec-fetch-site': 'cross-site' },
      payload: { email: 'csrf@example.com' },
    });
    expect(fetchSite.statusCode).toBe(403);
    const same = await ctx.app.inject({
      method: 'POST',
      url: '/api/test/session',
      headers: { cookie, origin: 'http://localhost:3000' },
      payload: { email: 'csrf@example.com' },
    });
    expect(same.statusCode).toBe(200);
  });
});

describe.skipIf(!dbAvailable())('test-only helpers', () => {
  it('do not exist outside NODE_ENV=test', async () => {
    const { buildApp } = await import('../../app.ts');
    const { loadConfig } = await import('../../config/env.ts');
    const { createTestDatabase } = await import('../../../test/helpers.ts');
    const database = await createTestDatabase();
    const app = await buildApp({
      config: loadConfig({ NODE_ENV: 'development', WEB_DIST: '/nonexistent' }),
      database,
      closeDatabase: true,
    });
    const res = await app.inject({ method: 'POST', url: '/api/test/session', payload: {} });
    expect(res.statusCode).toBe(404);
    await app.close();
  });
});

describe.skipIf(!dbAvailable())('the token cookie over HTTPS', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ PUBLIC_URL: 'https://shop.example' });
  });
  afterAll(async () => ctx.close());

  it('is __Host-token: Secure, for the whole site, bound to this host (no Domain)', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/test/session',
      payload: { email: 'host@example.com' },
    });
    const token = res.cookies.find((c) => c.name === '__Host-token');
    expect(token).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
    expect(token?.domain).toBeUndefined();
    expect(res.cookies.find((c) => c.name === 'token')).toBeUndefined();
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { cookie: `__Host-token=${token!.value}` },
    });
    expect(me.json().user).toMatchObject({ email: 'host@example.com' });
    // The same token under the plain name (as a sibling subdomain could set it) signs nobody in.
    const shadow = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { cookie: `token=${token!.value}` },
    });
    expect(shadow.json()).toEqual({ user: null });
  });
});
