import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbAvailable, signIn, type TestContext } from './helpers.ts';
import { ORIGIN } from './shop.ts';

/**
 * The router decodes the path (`/%61pi/cart` reaches `/api/cart`), so every check that decides
 * what a request is must look at the path the router matched, not the raw bytes of the URL.
 */
describe.skipIf(!dbAvailable())('checks follow the routed path, however the URL is spelled', () => {
  let ctx: TestContext;
  let customer: string;
  beforeAll(async () => {
    ctx = await createTestApp({ MAINTENANCE_MODE: '1' });
    customer = (await signIn(ctx.app, 'encoded@example.com')).cookie;
  });
  afterAll(async () => ctx.close());

  const get = (url: string, cookie?: string) =>
    ctx.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

  it('maintenance closes an API route reached through a percent-encoded path', async () => {
    for (const url of ['/api/cart', '/%61pi/cart', '/%61%70%69/cart', '/api/%63art']) {
      const res = await get(url, customer);
      expect(res.statusCode, url).toBe(503);
      expect(res.json().error.code, url).toBe('maintenance');
      expect(res.headers['retry-after'], url).toBeDefined();
    }
  });

  it('maintenance answers a percent-encoded page address with the maintenance page too', async () => {
    for (const url of ['/mall', '/%6Dall', '/m%61ll?sort=new']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(503);
      expect(res.body, url).toContain('<h1>系統維護中</h1>');
    }
  });

  it('what stays open in maintenance stays open only for its own routes', async () => {
    expect((await get('/%61pi/health')).statusCode).toBe(200);
    expect((await get('/%61pi/site/status')).statusCode).toBe(200);
  });

  it('the session and the cross-site check apply to an encoded API path as to the plain one', async () => {
    // A forged cross-site write must be refused as such, not slip past the origin check.
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/%61pi/auth/logout',
      headers: { cookie: customer, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('cross-site-request');
    // The honest reader of an encoded path is still recognised.
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/%61pi/auth/me',
      headers: { cookie: customer, origin: ORIGIN },
    });
    expect(me.json().user?.email).toBe('encoded@example.com');
  });
});
