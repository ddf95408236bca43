import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbAvailable, type TestContext } from '../../../test/helpers.ts';
import { lookupRedirect, normalizeRedirectPath, saveRedirect } from './service.ts';

describe.skipIf(!dbAvailable())('redirect lookup (docs/product-rules.md#http-behaviour)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
    await saveRedirect(ctx.database.db, '/mall/old-oolong', '/mall/spring-oolong');
    await saveRedirect(ctx.database.db, '/mall/spring-oolong', '/mall/high-mountain-oolong', false);
    await saveRedirect(ctx.database.db, '/mall/partner', 'https://partner.example/tea');
    await saveRedirect(ctx.database.db, '/mall/loop-a', '/mall/loop-b');
    await saveRedirect(ctx.database.db, '/mall/loop-b', '/mall/loop-a');
  });
  afterAll(async () => ctx.close());

  const lookup = (path: string) =>
    ctx.app.inject({ method: 'GET', url: `/api/redirects?path=${encodeURIComponent(path)}` });

  it('returns null for a path without a redirect', async () => {
    const res = await lookup('/mall/high-mountain-oolong');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ redirect: null });
  });

  it('follows a chain to the final target; temporary anywhere makes it temporary', async () => {
    expect((await lookup('/mall/old-oolong')).json()).toEqual({
      redirect: { target: '/mall/high-mountain-oolong', permanent: false },
    });
  });

  it('matches regardless of case, trailing slash and query', async () => {
    expect((await lookup('/MALL/Old-Oolong/?ref=x')).json().redirect.target).toBe(
      '/mall/high-mountain-oolong',
    );
    expect(normalizeRedirectPath('/A/b/')).toBe('/a/b');
  });

  it('normalises a long run of slashes in linear time, keeping the old results', () => {
    expect(normalizeRedirectPath('/a//')).toBe('/a');
    expect(normalizeRedirectPath('///')).toBe('/');
    expect(normalizeRedirectPath('/')).toBe('/');
    const slashes = '/'.repeat(200_000);
    const start = performance.now();
    const [before, after] = [normalizeRedirectPath(`${slashes}x`), normalizeRedirectPath(`/x${slashes}`)];
    // The quadratic pattern took about 100 s here; a linear pass takes well under a millisecond,
    // so a generous bound catches the regression without depending on a busy machine's speed.
    expect(performance.now() - start).toBeLessThan(2_000);
    expect(before === `${slashes}x`).toBe(true);
    expect(after).toBe('/x');
  });

  it('returns external targets as they are', async () => {
    expect((await lookup('/mall/partner')).json()).toEqual({
      redirect: { target: 'https://partner.example/tea', permanent: true },
    });
  });

  it('stops on a loop instead of spinning', async () => {
    const result = await lookupRedirect(ctx.database.db, '/mall/loop-a');
    expect(result?.target).toMatch(/^\/mall\/loop-[ab]$/);
  });

  it('answers 400 with the reason for a bad path, never a 500', async () => {
    for (const url of [
      '/api/redirects',
      '/api/redirects?path=',
      '/api/redirects?path=mall',
      '/api/redirects?path=//evil.example',
      `/api/redirects?path=/${'a'.repeat(800)}`,
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.code).toBe('invalid-argument');
      expect(res.json().error.fields.path).toBeTruthy();
    }
  });
});
