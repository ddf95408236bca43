import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SHIPPING_RULES } from '@shop/shared/shipping';
import { createTestApp, dbAvailable, signIn, type TestContext } from '../../../test/helpers.ts';
import { seedTestCatalog, setRole } from '../../../test/fixtures.ts';
import { seedTestContent } from '../../../test/content-fixtures.ts';
import { ORIGIN, shopper } from '../../../test/shop.ts';
import { auditLog, productVariants, siteSettings, users } from '../../db/schema.ts';
import { writeShippingRules } from './shipping-rules.ts';

const DEFAULT_EDITABLE = {
  home: { fee: 120, freeOver: 1500, leadTime: '付款後 1–3 個工作天出貨，出貨後約 1–2 天送達' },
  cvs: { fee: 65, freeOver: 1000, leadTime: '付款後 1–3 個工作天出貨，出貨後約 2–3 天到店' },
  outlyingSurcharge: 150,
  codFee: 30,
};
const NEW_RULES = {
  home: { fee: 99, freeOver: 2000, leadTime: '付款後 2 個工作天內出貨' },
  cvs: { fee: 55, freeOver: 900, leadTime: '付款後 3 個工作天內到店' },
  outlyingSurcharge: 180,
  codFee: 40,
};

describe.skipIf(!dbAvailable())('shipping fee rules in the console', () => {
  let ctx: TestContext;
  let owner: string;
  let staff: string;
  let viewer: string;
  let customer: string;
  let variants: Record<string, string>;
  beforeAll(async () => {
    ctx = await createTestApp();
    await seedTestCatalog(ctx.database);
    await seedTestContent(ctx);
    const rows = await ctx.database.db
      .select({ id: productVariants.id, sku: productVariants.sku })
      .from(productVariants);
    variants = Object.fromEntries(rows.map((r) => [r.sku, r.id]));
    owner = (await signIn(ctx.app, 'owner@example.com')).cookie;
    staff = (await signIn(ctx.app, 'staff@example.com')).cookie;
    viewer = (await signIn(ctx.app, 'viewer@example.com')).cookie;
    customer = (await signIn(ctx.app, 'customer@example.com')).cookie;
    await setRole(ctx.database, 'owner@example.com', 'owner');
    await setRole(ctx.database, 'staff@example.com', 'staff');
    await setRole(ctx.database, 'viewer@example.com', 'viewer');
  });
  afterAll(async () => ctx.close());

  const get = (url: string, cookie?: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'GET', url, headers: { ...headers, ...(cookie ? { cookie } : {}) } });
  const put = (body: unknown, cookie?: string) =>
    ctx.app.inject({
      method: 'PUT',
      url: '/api/admin/settings/shipping',
      headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
      payload: body as object,
    });
  const publicRules = async () => (await get('/api/site/shipping-rules')).json();
  const shippingAudits = () =>
    ctx.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'shipping.update'))
      .orderBy(desc(auditLog.id));
  const storedRow = async () =>
    (await ctx.database.db.select().from(siteSettings).where(eq(siteSettings.key, 'shipping')))[0];
  const transportText = async () => JSON.stringify((await get('/api/content/pages/transport')).json());

  describe('before the owner saves anything', () => {
    it('the public table answers the defaults, with an ETag, a short cache and 304 on a repeat', async () => {
      expect(await storedRow()).toBeUndefined();
      const res = await get('/api/site/shipping-rules');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        home: { method: 'home', label: '宅配到府', ...DEFAULT_EDITABLE.home },
        cvs: { method: 'cvs', label: '超商取貨', ...DEFAULT_EDITABLE.cvs },
        outlyingSurcharge: 150,
        codFee: 30,
      });
      expect(res.headers['cache-control']).toBe('public, max-age=5');
      const etag = res.headers.etag as string;
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await get('/api/site/shipping-rules', undefined, { 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    });

    it('every console role reads them (updatedAt null: the defaults); anonymous callers get 401, shoppers 403', async () => {
      for (const cookie of [owner, staff, viewer]) {
        const res = await get('/api/admin/settings/shipping', cookie);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.json()).toEqual({ rules: DEFAULT_SHIPPING_RULES, updatedAt: null });
      }
      const anonymous = await get('/api/admin/settings/shipping');
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json().error.code).toBe('unauthenticated');
      const shopperRes = await get('/api/admin/settings/shipping', customer);
      expect(shopperRes.statusCode).toBe(403);
      expect(shopperRes.json().error.code).toBe('forbidden');
    });
  });

  describe('saving', () => {
    it('is for the owner only: anonymous 401, shopper, staff and viewer 403, and nothing changes', async () => {
      expect((await put(NEW_RULES)).statusCode).toBe(401);
      for (const cookie of [customer, staff, viewer]) {
        const res = await put(NEW_RULES, cookie);
        expect(res.statusCode).toBe(403);
        expect(res.json().error).toEqual({ code: 'forbidden', message: expect.stringMatching(/權限/) });
      }
      expect(await storedRow()).toBeUndefined();
      expect(await shippingAudits()).toHaveLength(0);
      expect((await publicRules()).home.fee).toBe(120);
    });

    it('refuses bad values with zh-TW messages beside each field, changing nothing', async () => {
      const cases: Array<[unknown, Record<string, string>]> = [
        [{ ...NEW_RULES, home: { ...NEW_RULES.home, fee: -1 } }, { 'home.fee': '運費不能是負數' }],
        [{ ...NEW_RULES, home: { ...NEW_RULES.home, fee: 12.5 } }, { 'home.fee': '運費必須是整數' }],
        [{ ...NEW_RULES, cvs: { ...NEW_RULES.cvs, freeOver: 0 } }, { 'cvs.freeOver': '免運門檻至少為 NT$1' }],
        [{ ...NEW_RULES, cvs: { ...NEW_RULES.cvs, fee: '65' } }, { 'cvs.fee': '運費必須是整數' }],
        [
          { ...NEW_RULES, home: { ...NEW_RULES.home, leadTime: '   ' } },
          { 'home.leadTime': '請填寫出貨與到貨時間' },
        ],
        [
          { ...NEW_RULES, cvs: { ...NEW_RULES.cvs, leadTime: '到'.repeat(61) } },
          { 'cvs.leadTime': '出貨與到貨時間不能超過 60 個字' },
        ],
        [{ ...NEW_RULES, outlyingSurcharge: -5 }, { outlyingSurcharge: '離島加收運費不能是負數' }],
        [{ ...NEW_RULES, codFee: undefined }, { codFee: '請填寫貨到付款手續費' }],
        [{ ...NEW_RULES, codFee: 20_000 }, { codFee: '貨到付款手續費不能超過 NT$10,000' }],
      ];
      for (const [body, fields] of cases) {
        const res = await put(body, owner);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().error.code).toBe('invalid-argument');
        expect(res.json().error.fields).toEqual(fields);
      }
      // Names are fixed in code; unknown fields are refused.
      const label = await put({ ...NEW_RULES, home: { ...NEW_RULES.home, label: '快遞' } }, owner);
      expect(label.statusCode).toBe(400);
      expect((await put({ ...NEW_RULES, freeShipping: true }, owner)).statusCode).toBe(400);
      expect(await storedRow()).toBeUndefined();
      expect(await shippingAudits()).toHaveLength(0);
    });

    it('lets the owner save; the audit row keeps who, before and after', async () => {
      const res = await put(
        { ...NEW_RULES, home: { ...NEW_RULES.home, leadTime: `  ${NEW_RULES.home.leadTime}  ` } },
        owner,
      );
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.rules).toEqual({
        home: { method: 'home', label: '宅配到府', ...NEW_RULES.home },
        cvs: { method: 'cvs', label: '超商取貨', ...NEW_RULES.cvs },
        outlyingSurcharge: 180,
        codFee: 40,
      });
      expect(Date.parse(body.updatedAt)).toBeGreaterThan(Date.now() - 60_000);
      expect((await storedRow())?.value).toEqual(NEW_RULES);
      const audits = await shippingAudits();
      expect(audits).toHaveLength(1);
      expect(audits[0]).toMatchObject({
        actorEmail: 'owner@example.com',
        actorRole: 'owner',
        entity: 'setting',
        entityId: 'shipping',
        before: DEFAULT_EDITABLE,
        after: NEW_RULES,
      });
      expect((await get('/api/admin/settings/shipping', viewer)).json()).toEqual(body);
    });

    it('takes effect at once: the public table, the checkout quote, the order and the content tokens', async () => {
      const rules = await publicRules();
      expect(rules.home).toMatchObject({ fee: 99, freeOver: 2000 });
      expect(rules.codFee).toBe(40);

      const s = await shopper(ctx.app, 'after-change@example.com');
      await s.add(variants['DD-S']!, 2); // 960
      const home = (await s.call('POST', '/api/checkout/quote', { shippingMethod: 'home' })).json();
      expect(home).toMatchObject({ subtotal: 960, shippingFee: 99, total: 1059, toFreeShipping: 1040 });
      expect(home.shippingLines).toEqual([{ label: '宅配到府運費', amount: 99 }]);
      const island = (
        await s.call('POST', '/api/checkout/quote', {
          shippingMethod: 'home',
          city: '澎湖縣',
          district: '馬公市',
          paymentMethod: 'cod',
        })
      ).json();
      expect(island).toMatchObject({ shippingFee: 99 + 180 + 40, total: 960 + 319 });
      // 960 is over the new NT$900 store-pickup threshold.
      const cvs = (await s.call('POST', '/api/checkout/quote', { shippingMethod: 'cvs' })).json();
      expect(cvs).toMatchObject({ shippingFee: 0, total: 960 });
      expect(cvs.shippingLines[0]).toEqual({ label: '超商取貨運費（滿 NT$900 免運）', amount: 0 });

      const placed = await s.order();
      expect(placed.statusCode, placed.body).toBe(201);
      expect(placed.json().order).toMatchObject({ subtotal: 960, shippingFee: 99 + 40, total: 960 + 139 });

      const transport = await transportText();
      expect(transport).toContain('運費 NT$99，滿 NT$2,000 免運');
      expect(transport).toContain('運費 NT$55，滿 NT$900 免運');
      expect(transport).toContain('另加 NT$180');
      expect(transport).toContain('另收手續費 NT$40');
      expect(transport).not.toContain('NT$120');
    });

    it('keeps a member tier’s lower free-shipping threshold (the lower of the two wins)', async () => {
      const s = await shopper(ctx.app, 'gold-after-change@example.com');
      await ctx.database.db
        .update(users)
        .set({ tierCode: 'gold' })
        .where(eq(users.email, 'gold-after-change@example.com'));
      await s.add(variants['CUP-1']!, 2); // 960 − 5% = 912, over gold's NT$800
      expect((await s.call('POST', '/api/checkout/quote', { shippingMethod: 'home' })).json()).toMatchObject({
        discountTotal: 48,
        shippingFee: 0,
        toFreeShipping: 0,
      });
      // The owner lowers the shop's threshold below the tier's: the shop's applies.
      expect(
        (await put({ ...NEW_RULES, home: { ...NEW_RULES.home, freeOver: 700 } }, owner)).statusCode,
      ).toBe(200);
      await s.call('PATCH', `/api/cart/items/${variants['CUP-1']}`, { quantity: 1 }); // 480 − 24 = 456
      expect((await s.call('POST', '/api/checkout/quote', { shippingMethod: 'home' })).json()).toMatchObject({
        shippingFee: 99,
        toFreeShipping: 700 - 456,
      });
      expect((await put(NEW_RULES, owner)).statusCode).toBe(200);
      expect((await s.call('POST', '/api/checkout/quote', { shippingMethod: 'home' })).json()).toMatchObject({
        shippingFee: 99,
        toFreeShipping: 800 - 456,
      });
    });

    it('is read through a cache of a few seconds: a save elsewhere shows after that', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        expect((await publicRules()).home.fee).toBe(99);
        // As if another instance had saved.
        await writeShippingRules(ctx.database.db, { ...NEW_RULES, home: { ...NEW_RULES.home, fee: 77 } });
        expect((await publicRules()).home.fee).toBe(99);
        vi.setSystemTime(Date.now() + 5_100);
        expect((await publicRules()).home.fee).toBe(77);
      } finally {
        vi.useRealTimers();
      }
      expect((await put(NEW_RULES, owner)).statusCode).toBe(200);
      expect((await publicRules()).home.fee).toBe(99);
    });

    it('falls back to the defaults field by field when the stored row does not fit', async () => {
      await ctx.database.db
        .update(siteSettings)
        .set({ value: { home: { fee: -3, freeOver: 1800 }, codFee: 'x' } })
        .where(eq(siteSettings.key, 'shipping'));
      const res = await get('/api/admin/settings/shipping', owner);
      expect(res.json().rules).toEqual({
        home: {
          method: 'home',
          label: '宅配到府',
          fee: 120,
          freeOver: 1800,
          leadTime: DEFAULT_EDITABLE.home.leadTime,
        },
        cvs: { method: 'cvs', label: '超商取貨', ...DEFAULT_EDITABLE.cvs },
        outlyingSurcharge: 150,
        codFee: 30,
      });
      expect((await put(NEW_RULES, owner)).statusCode).toBe(200);
      const [last] = await ctx.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'shipping.update'), eq(auditLog.entityId, 'shipping')))
        .orderBy(desc(auditLog.id))
        .limit(1);
      expect(last?.before).toMatchObject({ home: { fee: 120, freeOver: 1800 } });
    });
  });
});
