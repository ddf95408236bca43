import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbAvailable, dbEngine, type TestContext } from '../../../test/helpers.ts';
import { seedTestCatalog, setRole } from '../../../test/fixtures.ts';
import { shopper } from '../../../test/shop.ts';
import { codeFrom, latestMail } from '../../../test/mail.ts';
import { couponRedemptions, coupons, orders, productVariants, users } from '../../db/schema.ts';
import { checkMacValue } from '../../lib/ecpay-check-mac.ts';
import { issueBirthdayCoupons } from './service.ts';

const DAY = 86_400_000;
const KEY = { hashKey: 'pwFHCqoQZGmho4w6', hashIV: 'EkRm7iFT261dpevs' };

describe.skipIf(!dbAvailable())('membership, coupons and the member area', () => {
  let ctx: TestContext;
  let fx: Awaited<ReturnType<typeof seedTestCatalog>>;
  let variants: Record<string, string>;
  beforeAll(async () => {
    ctx = await createTestApp();
    fx = await seedTestCatalog(ctx.database);
    const rows = await ctx.database.db
      .select({ id: productVariants.id, sku: productVariants.sku })
      .from(productVariants);
    variants = Object.fromEntries(rows.map((r) => [r.sku, r.id]));
    await ctx.database.db.update(productVariants).set({ stock: 500 });
  });
  afterAll(async () => ctx.close());

  const coupon = (code: string, values: Partial<typeof coupons.$inferInsert> = {}) =>
    ctx.database.db.insert(coupons).values({
      code,
      name: `測試 ${code}`,
      kind: 'fixed',
      value: 100,
      startsAt: new Date(Date.now() - DAY),
      endsAt: new Date(Date.now() + 30 * DAY),
      ...values,
    });
  const setTier = (email: string, tierCode: string) =>
    ctx.database.db.update(users).set({ tierCode }).where(eq(users.email, email));
  const pay = (merchantTradeNo: string, amount: number) => {
    const fields = {
      MerchantID: '3002607',
      MerchantTradeNo: merchantTradeNo,
      RtnCode: '1',
      RtnMsg: '交易成功',
      TradeNo: 'T1',
      TradeAmt: String(amount),
      PaymentType: 'Credit_CreditCard',
      SimulatePaid: '0',
    };
    return ctx.app.inject({
      method: 'POST',
      url: '/api/payments/ecpay/notify',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        ...fields,
        CheckMacValue: checkMacValue(fields, KEY.hashKey, KEY.hashIV),
      }).toString(),
    });
  };

  describe('discount arithmetic', () => {
    it('takes the tier percentage off the subtotal, rounded half up to whole TWD', async () => {
      const s = await shopper(ctx.app, 'gold-math@example.com');
      await setTier('gold-math@example.com', 'gold');
      await s.add(variants['CUP-1']!, 2); // 960
      await s.add(variants['LS-S']!, 1); // 980 → 1,940
      const q = (await s.call('POST', '/api/checkout/quote', { shippingMethod: 'home' })).json();
      // 5% of 1,940 = 97
      expect(q.discounts).toEqual([{ kind: 'tier', label: '金卡會員折扣 5%', amount: 97 }]);
      expect(q).toMatchObject({ subtotal: 1940, discountTotal: 97, shippingFee: 0, total: 1843 });
      await s.call('PATCH', `/api/cart/items/${variants['LS-S']}`, { quantity: 1 });
      await s.call('DELETE', `/api/cart/items/${variants['CUP-1']}`);
      await s.add(variants['RB-L']!, 0).catch(() => undefined);
      const small = (await s.call('POST', '/api/checkout/quote', { shippingMethod: 'home' })).json();
      // 5% of 980 = 49; gold ships free from NT$800 (the tier's threshold beats the shop's 1,500)
      expect(small).toMatchObject({ subtotal: 980, discountTotal: 49, shippingFee: 0, total: 931 });
    });

    it('applies a percentage coupon to what is left after the tier discount, and a fixed one up to the eligible amount', async () => {
      await coupon('TEA10', { kind: 'percent', value: 10 });
      await coupon('OOLONG300', { kind: 'fixed', value: 300, categoryIds: [fx.categories.oolong.id] });
      const s = await shopper(ctx.app, 'silver-math@example.com');
      await setTier('silver-math@example.com', 'silver');
      await s.add(variants['CUP-1']!, 1); // 480, ware
      await s.add(variants['DD-S']!, 1); // 480, oolong → 960
      const pct = (
        await s.call('POST', '/api/checkout/quote', { shippingMethod: 'home', couponCode: 'tea10' })
      ).json();
      // silver 3% of 960 = 28.8 → 29; then 10% of 931 = 93.1 → 93
      expect(pct.discounts.map((d: { amount: number }) => d.amount)).toEqual([29, 93]);
      expect(pct).toMatchObject({ discountTotal: 122, couponError: null });
      const cat = (
        await s.call('POST', '/api/checkout/quote', { shippingMethod: 'home', couponCode: 'OOLONG300' })
      ).json();
      // Only the oolong line counts: its share after the tier discount is 480 × 931 / 960 = 465.5 → 466; NT$300 fits.
      expect(cat.discounts[1]).toMatchObject({ kind: 'coupon', code: 'OOLONG300', amount: 300 });
    });

    it('stores exactly the discounts that applied on the order', async () => {
      await coupon('SAVE150', { value: 150, minSpend: 500 });
      const s = await shopper(ctx.app, 'stored@example.com');
      await s.add(variants['LS-S']!, 1);
      const { order } = (await s.order({ couponCode: 'save150' })).json();
      expect(order.discounts).toEqual([
        { label: '優惠碼 SAVE150（測試 SAVE150）', amount: 150, code: 'SAVE150' },
      ]);
      expect(order).toMatchObject({ subtotal: 980, discountTotal: 150, total: 980 - 150 + 120 + 30 });
    });
  });

  describe('refusal reasons', () => {
    it('says why a code is refused', async () => {
      await coupon('PAUSED', { status: 'paused' });
      await coupon('LATER', {
        startsAt: new Date('2099-03-01T00:00:00+08:00'),
        endsAt: new Date('2099-04-01T00:00:00+08:00'),
      });
      await coupon('OVER', {
        startsAt: new Date('2025-01-01T00:00:00+08:00'),
        endsAt: new Date('2025-02-01T00:00:00+08:00'),
      });
      await coupon('BIG', { minSpend: 5000 });
      await coupon('GONE', { totalLimit: 3, usedCount: 3 });
      await coupon('GOLDONLY', { tierCodes: ['gold'] });
      await coupon('WAREONLY', { categoryIds: [fx.categories.ware.id] });
      await coupon('ONCE', { perMemberLimit: 1 });
      const s = await shopper(ctx.app, 'refused@example.com');
      await s.add(variants['DD-S']!, 1);
      const reason = async (code: string) =>
        (await s.call('POST', '/api/checkout/quote', { shippingMethod: 'home', couponCode: code })).json()
          .couponError;
      expect(await reason('NOPE')).toBe('找不到這個優惠碼，請確認是否輸入正確。');
      expect(await reason('PAUSED')).toBe('這個優惠碼目前暫停使用。');
      expect(await reason('LATER')).toBe('這個優惠碼 2099/03/01 才開始使用。');
      expect(await reason('OVER')).toBe('這個優惠碼已於 2025/01/31 到期。');
      expect(await reason('BIG')).toBe('訂單滿 NT$5,000 才能使用這個優惠碼（還差 NT$4,520）。');
      expect(await reason('GONE')).toBe('這個優惠碼已經被用完了。');
      expect(await reason('GOLDONLY')).toBe('這個優惠碼限金卡會員使用。');
      expect(await reason('WAREONLY')).toBe('購物車裡沒有適用這個優惠碼的商品。');
      expect(await reason('ONCE')).toBeNull();
      expect((await s.call('GET', '/api/me/membership')).json().coupons).toEqual([]);
      await s.order({ couponCode: 'ONCE' });
      await s.add(variants['DD-S']!, 1);
      expect(await reason('ONCE')).toBe('您已經用過這個優惠碼了。');
      await ctx.database.db.update(coupons).set({ listed: true }).where(eq(coupons.code, 'ONCE'));
      const listed = (await s.call('GET', '/api/me/membership')).json().coupons;
      expect(listed.find((c: { code: string }) => c.code === 'ONCE')).toMatchObject({
        state: 'used',
        description:
          '全單折 NT$100，每人限用 1 次，' +
          listed
            .find((c: { code: string }) => c.code === 'ONCE')
            .description.split('，')
            .at(-1),
      });
      const res = await s.order({ couponCode: 'ONCE' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields.couponCode).toBe('您已經用過這個優惠碼了。');
    });

    it('gives the coupon back when an unpaid order is cancelled', async () => {
      await coupon('BACK', { totalLimit: 1 });
      const s = await shopper(ctx.app, 'giveback@example.com');
      await s.add(variants['DD-S']!, 1);
      const { order } = (await s.order({ couponCode: 'BACK', paymentMethod: 'credit_card' })).json();
      expect(
        (await ctx.database.db.select().from(coupons).where(eq(coupons.code, 'BACK')))[0]!.usedCount,
      ).toBe(1);
      await s.call('POST', `/api/orders/${order.orderNo}/cancel`);
      expect(
        (await ctx.database.db.select().from(coupons).where(eq(coupons.code, 'BACK')))[0]!.usedCount,
      ).toBe(0);
      expect(
        await ctx.database.db
          .select()
          .from(couponRedemptions)
          .innerJoin(orders, eq(orders.id, couponRedemptions.orderId))
          .where(eq(orders.orderNo, order.orderNo)),
      ).toHaveLength(0);
    });

    it.skipIf(dbEngine() !== 'postgres')(
      'lets only one of many concurrent checkouts take the last use of a coupon',
      async () => {
        await coupon('LAST1', { totalLimit: 1, perMemberLimit: 5 });
        const buyers = await Promise.all(
          Array.from({ length: 12 }, (_, i) => shopper(ctx.app, `last-coupon-${i}@example.com`)),
        );
        for (const b of buyers) await b.add(variants['LS-S']!, 1);
        const results = await Promise.all(buyers.map((b) => b.order({ couponCode: 'LAST1' })));
        expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
        expect(
          results.filter((r) => r.statusCode !== 201).every((r) => r.json().error.code === 'coupon-refused'),
        ).toBe(true);
        const [row] = await ctx.database.db.select().from(coupons).where(eq(coupons.code, 'LAST1'));
        expect(row!.usedCount).toBe(1);
      },
    );
  });

  describe('tiers', () => {
    it('move up when an order is paid and back down when it is refunded, and the member hears of it', async () => {
      const s = await shopper(ctx.app, 'climber@example.com');
      const heard: string[] = [];
      const stop = ctx.app.events.subscribe(
        s.uid,
        (e) => e.type === 'membership.updated' && heard.push(String(e.data.tier)),
      );
      expect((await s.call('GET', '/api/me/membership')).json()).toMatchObject({
        current: { code: 'regular' },
        next: { code: 'silver', threshold: 6000 },
        spend: 0,
        toNext: 6000,
      });
      await s.add(variants['POT-1']!, 2); // 6,400
      const { order } = (await s.order({ paymentMethod: 'credit_card' })).json();
      expect((await pay(`${order.orderNo}P1`, order.total)).body).toBe('1|OK');
      const after = (await s.call('GET', '/api/me/membership')).json();
      expect(after).toMatchObject({
        current: { code: 'silver', name: '銀卡會員' },
        next: { code: 'gold' },
        spend: order.total,
        toNext: 20000 - order.total,
      });
      expect(heard).toEqual(['silver']);
      const staff = await shopper(ctx.app, 'tier-staff@example.com');
      await setRole(ctx.database, 'tier-staff@example.com', 'staff');
      expect(
        (
          await staff.call('POST', `/api/admin/orders/${order.orderNo}/advance`, { status: 'refunded' })
        ).json().status,
      ).toBe('refunded');
      expect((await s.call('GET', '/api/me/membership')).json().current.code).toBe('regular');
      expect(heard).toEqual(['silver', 'regular']);
      stop();
    });
  });

  describe('profile, e-mail and birthday', () => {
    it('updates name and mobile, sets the birthday once, and issues the birthday-month coupon', async () => {
      const s = await shopper(ctx.app, 'birthday@example.com');
      // A member for a while: accounts created this month get no birthday coupon.
      await ctx.database.db
        .update(users)
        .set({ createdAt: new Date(Date.now() - 400 * DAY) })
        .where(eq(users.email, 'birthday@example.com'));
      const month = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Taipei', month: '2-digit' }).format(
        new Date(),
      );
      const res = await s.call('PATCH', '/api/me/profile', {
        displayName: '陳生日',
        phone: '0987-654-321',
        birthday: `1990-${month}-01`,
      });
      expect(res.json()).toMatchObject({
        displayName: '陳生日',
        phone: '0987654321',
        birthday: `1990-${month}-01`,
      });
      const mine = (await s.call('GET', '/api/me/membership')).json().coupons;
      const birthday = mine.filter((c: { name: string }) => c.name === '生日月禮券');
      expect(birthday).toHaveLength(1);
      expect(birthday[0]).toMatchObject({ personal: true, state: 'usable' });
      expect(birthday[0].description).toContain('滿 NT$1,000 折 NT$200');
      expect(await issueBirthdayCoupons(ctx.database.db)).toBe(0);
      const change = await s.call('PATCH', '/api/me/profile', {
        displayName: '陳生日',
        phone: '',
        birthday: '1991-01-01',
      });
      expect(change.statusCode).toBe(400);
      expect(change.json().error.fields.birthday).toContain('無法自行修改');
      const bad = await s.call('PATCH', '/api/me/profile', { displayName: '', phone: '123', birthday: 'x' });
      expect(Object.keys(bad.json().error.fields).sort()).toEqual(['birthday', 'displayName', 'phone']);
    });

    it('changes the e-mail only after the password and a link sent to the new address', async () => {
      const s = await shopper(ctx.app, 'old-address@example.com');
      await ctx.database.db
        .update(users)
        .set({ passwordHash: null })
        .where(eq(users.email, 'old-address@example.com'));
      expect(
        (
          await s.call('POST', '/api/me/email', { newEmail: 'new@example.com', password: 'whatever-pass' })
        ).json().error.code,
      ).toBe('wrong-password');
      const register = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        remoteAddress: '192.0.2.77',
        headers: { origin: 'http://localhost:3000' },
        payload: {
          displayName: '換信箱',
          email: 'mover@example.com',
          password: '搬家後的新信箱-2026',
          passwordConfirm: '搬家後的新信箱-2026',
          acceptTerms: true,
        },
      });
      const cookie = register.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
        ctx.app.inject({
          method,
          url,
          headers: { cookie, origin: 'http://localhost:3000' },
          ...(payload ? { payload } : {}),
        });
      expect(
        (
          await call('POST', '/api/me/email', {
            newEmail: 'taken@example.com',
            password: '搬家後的新信箱-2026',
          })
        ).statusCode,
      ).toBe(200);
      await shopper(ctx.app, 'taken-by-other@example.com');
      expect(
        (
          await call('POST', '/api/me/email', {
            newEmail: 'TAKEN-BY-OTHER@example.com',
            password: '搬家後的新信箱-2026',
          })
        ).json().error.code,
      ).toBe('email-already-in-use');
      const ok = await call('POST', '/api/me/email', {
        newEmail: 'moved@example.com',
        password: '搬家後的新信箱-2026',
      });
      expect(ok.json()).toEqual({ pendingEmail: 'moved@example.com' });
      expect((await call('GET', '/api/me/profile')).json()).toMatchObject({
        email: 'mover@example.com',
        pendingEmail: 'moved@example.com',
      });
      const link = (await latestMail(ctx.database, 'moved@example.com', 'verify-email')).meta.link;
      const verified = await call('POST', '/api/auth/verify-email', { code: codeFrom(link) });
      expect(verified.json()).toMatchObject({
        email: 'moved@example.com',
        user: { email: 'moved@example.com', emailVerified: true },
      });
      expect((await latestMail(ctx.database, 'mover@example.com', 'email-changed')).subject).toBe(
        '【山嵐茶事】您的電子郵件已經變更',
      );
      expect((await call('GET', '/api/me/profile')).json()).toMatchObject({
        email: 'moved@example.com',
        pendingEmail: null,
      });
    });
  });

  describe('address book', () => {
    it('keeps several addresses and stores with exactly one default', async () => {
      const s = await shopper(ctx.app, 'book@example.com');
      const home = {
        kind: 'home',
        label: '家裡',
        recipientName: '林小嵐',
        phone: '0912345678',
        city: '臺北市',
        district: '信義區',
        address: '松仁路 100 號',
      };
      let list = (await s.call('POST', '/api/me/addresses', home)).json().addresses;
      expect(list).toEqual([expect.objectContaining({ label: '家裡', postalCode: '110', isDefault: true })]);
      await s.pickStore('7-ELEVEN', '158703');
      const store = { id: '158703', name: '鹿谷門市', address: '南投縣鹿谷鄉中正路二段 123 號' };
      list = (
        await s.call('POST', '/api/me/addresses', {
          kind: 'cvs',
          recipientName: '林小嵐',
          phone: '0912345678',
          cvsBrand: '7-ELEVEN',
          storeId: store.id,
          isDefault: true,
        })
      ).json().addresses;
      expect(list.map((a: { kind: string; isDefault: boolean }) => [a.kind, a.isDefault])).toEqual([
        ['cvs', true],
        ['home', false],
      ]);
      expect(list[0]).toMatchObject({ storeName: store.name, storeAddress: store.address });
      list = (await s.call('POST', `/api/me/addresses/${list[1].id}/default`)).json().addresses;
      expect(list[0]).toMatchObject({ kind: 'home', isDefault: true });
      list = (await s.call('DELETE', `/api/me/addresses/${list[0].id}`)).json().addresses;
      expect(list).toEqual([expect.objectContaining({ kind: 'cvs', isDefault: true })]);
      const bad = await s.call('POST', '/api/me/addresses', { ...home, district: '鹿谷鄉' });
      expect(bad.json().error.fields.district).toBe('請選擇正確的鄉鎮市區');
      const other = await shopper(ctx.app, 'book-other@example.com');
      expect((await other.call('DELETE', `/api/me/addresses/${list[0].id}`)).statusCode).toBe(404);
    });
  });
});
