import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cvsMapRequests, cvsStores, productVariants } from '../../db/schema.ts';
import { verifyCheckMacValue } from '../../lib/ecpay-check-mac.ts';
import { createTestApp, dbAvailable, type TestContext } from '../../../test/helpers.ts';
import { seedTestCatalog } from '../../../test/fixtures.ts';
import { replyFromMap, shopper } from '../../../test/shop.ts';
import { startMapTrip } from './map.ts';

const MAP_FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe.skipIf(!dbAvailable())('choosing a pickup store on the store map', () => {
  let ctx: TestContext;
  let variants: Record<string, string>;

  beforeAll(async () => {
    ctx = await createTestApp();
    await seedTestCatalog(ctx.database);
    const rows = await ctx.database.db
      .select({ id: productVariants.id, sku: productVariants.sku })
      .from(productVariants);
    variants = Object.fromEntries(rows.map((r) => [r.sku, r.id]));
  });
  afterAll(async () => ctx.close());

  const storeCount = async () =>
    (await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(cvsStores))[0]!.n;

  it('signs a map form for the chain, with a token, the reply address and the phone layout when asked', async () => {
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: '/api/logistics/map',
          payload: { brand: '7-ELEVEN', returnTo: 'checkout' },
        })
      ).statusCode,
    ).toBe(401);
    const s = await shopper(ctx.app, 'map-form@example.com');
    const { action, fields } = await s.openMap('7-ELEVEN');
    expect(action).toBe('http://localhost:3000/sandbox/ecpay/logistics/Express/map');
    expect(fields).toMatchObject({
      MerchantID: '2000933',
      LogisticsType: 'CVS',
      LogisticsSubType: 'UNIMARTC2C',
      IsCollection: 'N',
      ServerReplyURL: 'http://localhost:3000/api/logistics/map-reply',
      Device: '0',
    });
    expect(fields.MerchantTradeNo).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(verifyCheckMacValue(fields, 'XBERn1YOvpM9nfZc', 'h1ONHk4P4yqbl5LK', 'md5')).toBe(true);
    const phone = (
      await s.call('POST', '/api/logistics/map', {
        brand: 'FAMILY',
        returnTo: 'address-book',
        device: 'mobile',
      })
    ).json();
    expect(phone.fields).toMatchObject({ LogisticsSubType: 'FAMIC2C', Device: '1' });
    expect(phone.fields.MerchantTradeNo).not.toBe(fields.MerchantTradeNo);
    const bad = await s.call('POST', '/api/logistics/map', {
      brand: 'LAWSON',
      returnTo: 'https://evil.example',
    });
    expect(bad.statusCode).toBe(400);
  });

  it('offers OK超商 only on a store-to-store (C2C) contract', async () => {
    const s = await shopper(ctx.app, 'map-b2c@example.com');
    expect((await ctx.app.inject({ method: 'GET', url: '/api/logistics/options' })).json()).toEqual({
      brands: ['7-ELEVEN', 'FAMILY', 'HILIFE', 'OK'],
    });
    const b2c = {
      db: ctx.database.db,
      settings: { ...ctx.app.config.logistics, type: 'B2C' as const },
      publicUrl: 'http://localhost:3000',
    };
    await expect(
      startMapTrip(b2c, s.uid, { brand: 'OK', returnTo: 'checkout', device: 'pc' }),
    ).rejects.toMatchObject({ statusCode: 400, fields: { brand: 'OK超商目前不提供取貨，請選擇其他超商。' } });
    expect(
      (await startMapTrip(b2c, s.uid, { brand: '7-ELEVEN', returnTo: 'checkout', device: 'pc' })).fields
        .LogisticsSubType,
    ).toBe('UNIMART');
  });

  it('the sandbox map lists the chain’s stores, searchable, and refuses a tampered form', async () => {
    const s = await shopper(ctx.app, 'map-sandbox@example.com');
    const { fields } = await s.openMap('7-ELEVEN');
    const page = await ctx.app.inject({
      method: 'POST',
      url: '/sandbox/ecpay/logistics/Express/map',
      headers: MAP_FORM,
      payload: new URLSearchParams(fields).toString(),
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('7-ELEVEN 電子地圖');
    expect(page.body).toContain('鹿谷門市');
    expect(page.body).not.toContain('全家');
    expect(page.body).toContain('action="http://localhost:3000/api/logistics/map-reply"');
    const search = await ctx.app.inject({
      method: 'POST',
      url: '/sandbox/ecpay/logistics/Express/map',
      headers: MAP_FORM,
      payload: new URLSearchParams({ ...fields, q: '澎湖' }).toString(),
    });
    expect(search.body).toContain('馬公門市');
    expect(search.body).toContain('離島');
    expect(search.body).not.toContain('鹿谷門市');
    const tampered = await ctx.app.inject({
      method: 'POST',
      url: '/sandbox/ecpay/logistics/Express/map',
      headers: MAP_FORM,
      payload: new URLSearchParams({ ...fields, ServerReplyURL: 'https://evil.example/steal' }).toString(),
    });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.body).toContain('CheckMacValue');
  });

  it('a reply for the trip records the store and sends the browser back with the token; only that member reads it', async () => {
    const s = await shopper(ctx.app, 'map-reply@example.com');
    const { fields } = await s.openMap('7-ELEVEN');
    const reply = await replyFromMap(ctx.app, fields, '158703');
    expect(reply.statusCode).toBe(303);
    expect(reply.headers.location).toBe(`/payment?cvsMap=${fields.MerchantTradeNo}`);
    const choice = await s.call('GET', `/api/logistics/map/${fields.MerchantTradeNo}`);
    expect(choice.statusCode).toBe(200);
    expect(choice.json()).toEqual({
      brand: '7-ELEVEN',
      id: '158703',
      name: '鹿谷門市',
      address: '南投縣鹿谷鄉中正路二段 123 號',
      phone: expect.stringMatching(/^049-\d{7}$/),
      outlying: false,
    });

    // Someone else holding the link reads nothing.
    const other = await shopper(ctx.app, 'map-other@example.com');
    expect((await other.call('GET', `/api/logistics/map/${fields.MerchantTradeNo}`)).statusCode).toBe(404);
    expect((await s.call('GET', '/api/logistics/map/AAAAAAAAAAAAAAAAAAAA')).statusCode).toBe(404);
    expect((await s.call('GET', '/api/logistics/map/short')).statusCode).toBe(400);

    // The address book goes back to the member area.
    const book = await s.openMap('FAMILY', 'address-book');
    expect((await replyFromMap(ctx.app, book.fields, '018234')).headers.location).toBe(
      `/member?cvsMap=${book.fields.MerchantTradeNo}`,
    );
  });

  it('refuses, and records nothing for, a reply with an unknown or expired token, another merchant, another chain or a broken store', async () => {
    const s = await shopper(ctx.app, 'map-refused@example.com');
    const { fields } = await s.openMap('7-ELEVEN');
    const before = await storeCount();
    const cases: Array<[string, Record<string, string>, string]> = [
      ['unknown token', { MerchantTradeNo: 'Zz0123456789Zz012345' }, '我們無法辨識'],
      ['another merchant', { MerchantID: '2000132' }, '我們無法辨識'],
      ['another chain', { LogisticsSubType: 'FAMIC2C' }, '我們無法辨識'],
      ['no store id', { CVSStoreID: '' }, '我們無法辨識'],
      ['markup in the store id', { CVSStoreID: '<b>1</b>' }, '我們無法辨識'],
      ['outlying flag not 0 or 1', { CVSOutSide: 'yes' }, '我們無法辨識'],
    ];
    for (const [what, overrides, text] of cases) {
      const res = await replyFromMap(ctx.app, fields, '189362', overrides);
      expect(res.statusCode, what).toBe(400);
      expect(res.headers['content-type'], what).toContain('text/html');
      expect(res.body, what).toContain(text);
    }
    expect(await storeCount()).toBe(before);
    const [trip] = await ctx.database.db
      .select()
      .from(cvsMapRequests)
      .where(eq(cvsMapRequests.token, fields.MerchantTradeNo!));
    expect(trip?.storeId).toBeNull();

    // 30 minutes later the trip is over.
    await ctx.database.db
      .update(cvsMapRequests)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(cvsMapRequests.token, fields.MerchantTradeNo!));
    const late = await replyFromMap(ctx.app, fields, '189362');
    expect(late.statusCode).toBe(400);
    expect(late.body).toContain('超過 30 分鐘');
    expect(late.body).toContain('href="/payment"');
    expect(await storeCount()).toBe(before);
    expect((await s.call('GET', `/api/logistics/map/${fields.MerchantTradeNo}`)).statusCode).toBe(404);
  });

  it('orders only to a store a map named, and prices an outlying-island store by the outlying rule', async () => {
    const s = await shopper(ctx.app, 'map-order@example.com');
    await s.add(variants['DD-S']!, 1);
    const shipping = (storeId: string) => ({
      method: 'cvs',
      recipientName: '林小嵐',
      phone: '0912345678',
      cvsBrand: '7-ELEVEN',
      storeId,
    });
    // 金城門市 is in the sandbox's list, but nobody has picked it on a map.
    const unpicked = await s.order({ shipping: shipping('156217') });
    expect(unpicked.statusCode).toBe(400);
    expect(unpicked.json().error.fields).toEqual({ 'shipping.storeId': '找不到這間門市，請重新選擇' });

    await s.pickStore('7-ELEVEN', '158703');
    await s.pickStore('7-ELEVEN', '189362');
    const quote = async (storeId: string) =>
      (
        await s.call('POST', '/api/checkout/quote', {
          shippingMethod: 'cvs',
          cvsBrand: '7-ELEVEN',
          storeId,
          paymentMethod: 'credit_card',
        })
      ).json();
    const island = await quote('189362');
    const main = await quote('158703');
    expect(island.shippingLines).toContainEqual({ label: '離島加收運費', amount: 150 });
    expect(island.total - main.total).toBe(150);
    expect([island.outlyingSurcharge, main.outlyingSurcharge]).toEqual([150, 0]);

    const placed = await s.order({ shipping: shipping('189362'), paymentMethod: 'credit_card' });
    expect(placed.statusCode, placed.body).toBe(201);
    expect(placed.json().order.total).toBe(island.total);
    expect(placed.json().order.shipping).toMatchObject({
      method: 'cvs',
      store: '7-ELEVEN 馬公門市',
      storeId: '189362',
      storeAddress: '澎湖縣馬公市中正路 38 號',
    });
  });

  it('a forged reply changes nothing shared: a store is described only by the provider’s own list, and a token takes one reply', async () => {
    // B picks the 澎湖 store honestly; A then posts a reply for the same store as if on the main island, with text of A's own.
    const b = await shopper(ctx.app, 'map-honest@example.com');
    await b.add(variants['DD-S']!, 1);
    await b.pickStore('7-ELEVEN', '189362');
    const a = await shopper(ctx.app, 'map-forger@example.com');
    const trip = await a.openMap('7-ELEVEN');
    const forged = {
      CVSOutSide: '0',
      CVSStoreName: '假門市請轉帳',
      CVSAddress: '臺北市信義區松仁路 1 號',
      CVSTelephone: '02-12345678',
    };
    expect((await replyFromMap(ctx.app, trip.fields, '189362', forged)).statusCode).toBe(303);
    // A's own trip reads the store as the provider lists it, not as the reply said.
    expect((await a.call('GET', `/api/logistics/map/${trip.fields.MerchantTradeNo}`)).json()).toMatchObject({
      id: '189362',
      name: '馬公門市',
      address: '澎湖縣馬公市中正路 38 號',
      outlying: true,
    });

    const quote = (
      await b.call('POST', '/api/checkout/quote', {
        shippingMethod: 'cvs',
        cvsBrand: '7-ELEVEN',
        storeId: '189362',
        paymentMethod: 'credit_card',
      })
    ).json();
    expect(quote.shippingFee).toBe(215);
    expect(quote.outlyingSurcharge).toBe(150);
    const placed = await b.order({
      shipping: {
        method: 'cvs',
        recipientName: '林小嵐',
        phone: '0912345678',
        cvsBrand: '7-ELEVEN',
        storeId: '189362',
      },
      paymentMethod: 'credit_card',
    });
    expect(placed.statusCode, placed.body).toBe(201);
    expect(placed.json().order.shipping).toMatchObject({
      store: '7-ELEVEN 馬公門市',
      storeAddress: '澎湖縣馬公市中正路 38 號',
    });
    expect(JSON.stringify(await ctx.database.db.select().from(cvsStores))).not.toContain('假門市');

    // The same token again (another store, or the same): refused, the trip keeps its first choice.
    const again = await replyFromMap(ctx.app, trip.fields, '158703');
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('請回到原頁面重新選擇門市');
    expect((await a.call('GET', `/api/logistics/map/${trip.fields.MerchantTradeNo}`)).json().id).toBe(
      '189362',
    );

    // A store the provider does not list is not a store, whatever the reply says of it.
    const ghost = await a.openMap('7-ELEVEN');
    const res = await replyFromMap(ctx.app, ghost.fields, '158703', { CVSStoreID: '999999' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('找不到這間門市');
    expect(await ctx.database.db.select().from(cvsStores).where(eq(cvsStores.storeId, '999999'))).toEqual([]);
    expect((await a.call('GET', `/api/logistics/map/${ghost.fields.MerchantTradeNo}`)).statusCode).toBe(404);
  });
});
