import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessages, products, users } from '../src/db/schema.ts';
import { createTestApp, dbAvailable, signIn, type TestContext } from './helpers.ts';
import { seedTestCatalog, setRole } from './fixtures.ts';
import { ORIGIN } from './shop.ts';

/**
 * PostgreSQL text cannot hold U+0000: a NUL that reached a statement answered 500. Anywhere a
 * client can put one (a JSON string, a form field, the address), it is refused with 400 and a
 * plain message before anything runs, and nothing is stored.
 */
describe.skipIf(!dbAvailable())('a NUL character in a request', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
    await seedTestCatalog(ctx.database);
  });
  afterAll(async () => ctx.close());

  const expectRefused = (res: { statusCode: number; json(): unknown }) => {
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: { code: 'invalid-argument', message: expect.stringContaining('無法使用的字元') },
    });
  };

  it('in a JSON field of the public contact form or sign-up: 400, nothing stored', async () => {
    const contact = await ctx.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { origin: ORIGIN },
      payload: {
        name: '林小嵐',
        email: 'lan@example.com',
        phone: '',
        subject: '商品諮詢',
        message: '請問凍頂烏龍\u0000適合冷泡嗎？想買來送長輩。',
        consent: true,
        website: '',
        startedAt: Date.now() - 60_000,
      },
    });
    expectRefused(contact);
    const signUp = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { origin: ORIGIN },
      payload: {
        displayName: '山嵐\u0000茶友',
        email: 'nul@example.com',
        password: '山嵐茶事-nul-2026',
        passwordConfirm: '山嵐茶事-nul-2026',
        acceptTerms: true,
      },
    });
    expectRefused(signUp);
    expect(await ctx.database.db.select().from(contactMessages)).toEqual([]);
    expect((await ctx.database.db.select().from(users)).filter((u) => u.email === 'nul@example.com')).toEqual(
      [],
    );
  });

  it('in a query string or a path: 400', async () => {
    expectRefused(await ctx.app.inject({ method: 'GET', url: '/api/catalog/products?q=%00' }));
    expectRefused(await ctx.app.inject({ method: 'GET', url: '/api/catalog/products/dong%00ding' }));
  });

  it('in a form post (a gateway callback): 400', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments/ecpay/notify',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'MerchantTradeNo=A%00B&RtnCode=1',
    });
    expectRefused(res);
  });

  it('in a product import (CSV): 400, nothing imported', async () => {
    const { cookie } = await signIn(ctx.app, 'owner@example.com');
    await setRole(ctx.database, 'owner@example.com', 'owner');
    const csv =
      'product_slug,product_name,category_slug,status,sku,options,price,compare_at_price,stock,low_stock_threshold\nnul-tea,"冬茶\u0000",oolong,draft,NT-1,規格=75 g,650,,8,2\n';
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/products/import',
      headers: { origin: ORIGIN, cookie, 'content-type': 'text/csv' },
      payload: csv,
    });
    expectRefused(res);
    expect((await ctx.database.db.select().from(products)).filter((p) => p.slug === 'nul-tea')).toEqual([]);
  });

  it('is told apart from the six characters \\u0000 typed as text, which are kept', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/catalog/products?q=${encodeURIComponent('\\u0000')}`,
    });
    expect(res.statusCode).toBe(200);
    const contact = await ctx.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { origin: ORIGIN },
      payload: {
        name: '林小嵐',
        email: 'lan@example.com',
        phone: '',
        subject: '商品諮詢',
        message: '程式裡的 \\u0000 是什麼意思？',
        consent: true,
        website: '',
        startedAt: Date.now() - 60_000,
      },
    });
    expect(contact.statusCode).toBe(200);
  });
});
