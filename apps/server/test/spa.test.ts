import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbAvailable, type TestContext } from './helpers.ts';

const INDEX =
  '<!doctype html><html lang="zh-Hant-TW"><head><title>山嵐茶事</title></head><body><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script></body></html>';

describe.skipIf(!dbAvailable())('serving the single-page app', () => {
  let ctx: TestContext;
  let dist: string;
  beforeAll(async () => {
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'shop-dist-'));
    await fs.mkdir(path.join(dist, 'assets'));
    await fs.writeFile(path.join(dist, 'index.html'), INDEX);
    await fs.writeFile(
      path.join(dist, 'assets', 'index-abc123.js'),
      `console.log(${JSON.stringify('x'.repeat(4000))});`,
    );
    await fs.writeFile(
      path.join(dist, 'build-manifest.json'),
      JSON.stringify({ buildId: 'b1', builtAt: '' }),
    );
    ctx = await createTestApp({ WEB_DIST: dist });
  });
  afterAll(async () => {
    await ctx.close();
    await fs.rm(dist, { recursive: true, force: true });
  });

  it('serves a known route with 200, its own title and no-cache', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/mall' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<title>線上商城｜山嵐茶事</title>');
  });

  it('serves a parameterised route with 200', async () => {
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/member/orderList/TW20261121000123' })).statusCode,
    ).toBe(200);
  });

  it('answers a path no route owns with the shell and status 404', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/that/path' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('<div id="root">');
  });

  it('answers unknown /api paths with the JSON error shape', async () => {
    for (const [method, url] of [
      ['GET', '/api/nope'],
      ['POST', '/api/nope'],
      ['DELETE', '/api'],
    ] as const) {
      const res = await ctx.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error.code).toBe('not-found');
      expect(typeof res.json().error.message).toBe('string');
    }
  });

  it('serves hashed assets as immutable for a year, compressed', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('gzip');
  });

  it('answers a missing asset with a plain 404, not the shell', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/assets/index-gone.js' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<div id="root">');
  });

  it('serves the build manifest revalidated every time', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/build-manifest.json?t=123' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.json()).toEqual({ buildId: 'b1', builtAt: '' });
  });

  it('sends security headers with a CSP that allows no inline script', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    // Plain http: no HSTS and no upgrade of requests.
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(csp).not.toContain('upgrade-insecure-requests');
  });
});
