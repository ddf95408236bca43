import { and, desc, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberDetail, MemberRow } from '@shop/shared/admin-members';
import type { PageOf } from '@shop/shared/admin';
import { createTestApp, dbAvailable, signIn, type TestContext } from '../../../test/helpers.ts';
import { seedTestCatalog, setRole } from '../../../test/fixtures.ts';
import { ORIGIN, shopper } from '../../../test/shop.ts';
import { auditLog, coupons, productVariants, sessions, users } from '../../db/schema.ts';
import { checkMacValue } from '../../lib/ecpay-check-mac.ts';

const DAY = 86_400_000;
const KEY = { hashKey: 'pwFHCqoQZGmho4w6', hashIV: 'EkRm7iFT261dpevs' };

describe.skipIf(!dbAvailable())('console: members', () => {
  let ctx: TestContext;
  let variants: Record<string, string>;
  const cookies: Record<'owner' | 'staff' | 'viewer' | 'customer', string> = {
    owner: '',
    staff: '',
    viewer: '',
    customer: '',
  };
  const ids = { owner: '', staff: '', viewer: '', customer: '', buyer: '', quiet: '' };
  let buyer: Awaited<ReturnType<typeof shopper>>;
  let firstOrderNo = '';
  let secondOrderNo = '';

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

  beforeAll(async () => {
    ctx = await createTestApp();
    await seedTestCatalog(ctx.database);
    const rows = await ctx.database.db
      .select({ id: productVariants.id, sku: productVariants.sku })
      .from(productVariants);
    variants = Object.fromEntries(rows.map((r) => [r.sku, r.id]));
    await ctx.database.db.update(productVariants).set({ stock: 500 });
    for (const role of ['owner', 'staff', 'viewer', 'customer'] as const) {
      const s = await signIn(ctx.app, `${role}@example.com`);
      cookies[role] = s.cookie;
      ids[role] = s.uid;
      if (role !== 'customer') await setRole(ctx.database, `${role}@example.com`, role);
    }
    // A member with a paid order (NT$6,400: silver), an unpaid one, an address and a listed coupon.
    buyer = await shopper(ctx.app, 'tea.lover@example.com');
    ids.buyer = buyer.uid;
    await ctx.database.db
      .update(users)
      .set({ displayName: '茶友阿明', phone: '0911222333', birthday: '1988-02-14' })
      .where(eq(users.id, buyer.uid));
    await buyer.add(variants['POT-1']!, 2);
    const first = (await buyer.order({ paymentMethod: 'credit_card' })).json().order;
    firstOrderNo = first.orderNo;
    expect((await pay(`${first.orderNo}P1`, first.total)).body).toBe('1|OK');
    await buyer.add(variants['CUP-1']!, 3);
    secondOrderNo = (await buyer.order({ paymentMethod: 'cod' })).json().order.orderNo;
    await buyer.call('POST', '/api/me/addresses', {
      kind: 'home',
      label: '家裡',
      recipientName: '茶友阿明',
      phone: '0911222333',
      city: '臺北市',
      district: '信義區',
      address: '松仁路 100 號',
    });
    await ctx.database.db.insert(coupons).values({
      code: 'HELLO100',
      name: '見面禮',
      kind: 'fixed',
      value: 100,
      startsAt: new Date(Date.now() - DAY),
      endsAt: new Date(Date.now() + 30 * DAY),
      listed: true,
    });
    const quiet = await signIn(ctx.app, 'quiet@example.com');
    ids.quiet = quiet.uid;
    await ctx.database.db.update(users).set({ displayName: '安靜的會員' }).where(eq(users.id, quiet.uid));
  });
  afterAll(async () => ctx.close());

  const get = (url: string, cookie?: string) =>
    ctx.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  const post = (url: string, payload: object | undefined, cookie?: string) =>
    ctx.app.inject({
      method: 'POST',
      url,
      headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
      ...(payload ? { payload } : {}),
    });
  const list = async (query: string, cookie = cookies.viewer) => {
    const res = await get(`/api/admin/members${query}`, cookie);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as PageOf<MemberRow>;
  };
  const audits = (action: string, entityId: string) =>
    ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, action), eq(auditLog.entityId, entityId)))
      .orderBy(desc(auditLog.id));
  const disabledAt = async (id: string) =>
    (await ctx.database.db.select({ d: users.disabledAt }).from(users).where(eq(users.id, id)))[0]!.d;

  describe('GET /api/admin/members', () => {
    it('is for console roles only: anonymous 401, a customer 403, viewer, staff and owner 200', async () => {
      expect((await get('/api/admin/members')).statusCode).toBe(401);
      const shopperRes = await get('/api/admin/members', cookies.customer);
      expect(shopperRes.statusCode).toBe(403);
      expect(shopperRes.json().error.code).toBe('forbidden');
      for (const role of ['viewer', 'staff', 'owner'] as const)
        expect((await get('/api/admin/members', cookies[role])).statusCode, role).toBe(200);
    });

    it('lists members with tier, 12-month spending (paid orders only) and order count', async () => {
      const page = await list('?q=tea.lover');
      expect(page).toMatchObject({ page: 1, pageSize: 20, total: 1, totalPages: 1 });
      const row = page.items[0]!;
      expect(row).toMatchObject({
        id: ids.buyer,
        name: '茶友阿明',
        email: 'tea.lover@example.com',
        phone: '0911222333',
        role: 'customer',
        tierCode: 'silver',
        tierName: '銀卡會員',
        spend: 6400,
        orderCount: 2,
        disabledAt: null,
      });
      expect(Date.parse(row.joinedAt)).toBeGreaterThan(Date.now() - DAY);
    });

    it('searches name, e-mail and phone (dashes allowed), and filters by tier and status', async () => {
      expect((await list('?q=%E8%8C%B6%E5%8F%8B')).items.map((r) => r.email)).toEqual([
        'tea.lover@example.com',
      ]); // 茶友
      expect((await list('?q=0911-222')).items.map((r) => r.email)).toEqual(['tea.lover@example.com']);
      expect((await list('?q=QUIET')).items.map((r) => r.name)).toEqual(['安靜的會員']);
      // % is a literal character, not a wildcard.
      expect((await list('?q=%25')).total).toBe(0);
      expect((await list('?tier=silver')).items.map((r) => r.email)).toEqual(['tea.lover@example.com']);
      expect((await list('?tier=gold')).total).toBe(0);
      const all = await list('');
      expect(all.total).toBe(6);
      expect((await list('?status=active')).total).toBe(6);
      expect((await list('?status=disabled')).total).toBe(0);
    });

    it('pages on the server, newest members first', async () => {
      const first = await list('?pageSize=2');
      expect(first).toMatchObject({ page: 1, pageSize: 2, total: 6, totalPages: 3 });
      expect(first.items.map((r) => r.email)).toEqual(['quiet@example.com', 'tea.lover@example.com']);
      const third = await list('?pageSize=2&page=3');
      expect(third.items.map((r) => r.email)).toEqual(['staff@example.com', 'owner@example.com']);
      const seen = new Set(
        [...first.items, ...(await list('?pageSize=2&page=2')).items, ...third.items].map((r) => r.id),
      );
      expect(seen.size).toBe(6);
    });

    it('refuses bad filters with zh-TW field messages', async () => {
      const bad = await get('/api/admin/members?status=gone', cookies.owner);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields.status).toBe('狀態只能是使用中或已停用');
      expect((await get('/api/admin/members?pageSize=500', cookies.owner)).json().error.fields.pageSize).toBe(
        '每頁最多 100 筆',
      );
      expect((await get('/api/admin/members?tier=GOLD!', cookies.owner)).json().error.fields.tier).toBe(
        '會員等級格式不正確',
      );
      expect((await get('/api/admin/members?sort=name', cookies.owner)).statusCode).toBe(400);
    });
  });

  describe('GET /api/admin/members/:memberId', () => {
    it('is for console roles only', async () => {
      const url = `/api/admin/members/${ids.buyer}`;
      expect((await get(url)).statusCode).toBe(401);
      expect((await get(url, cookies.customer)).statusCode).toBe(403);
      for (const role of ['viewer', 'staff', 'owner'] as const)
        expect((await get(url, cookies[role])).statusCode, role).toBe(200);
    });

    it('shows the profile, tier progress, addresses, recent orders and coupons held', async () => {
      const d = (await get(`/api/admin/members/${ids.buyer}`, cookies.viewer)).json() as MemberDetail;
      expect(d.profile).toMatchObject({
        id: ids.buyer,
        name: '茶友阿明',
        email: 'tea.lover@example.com',
        emailVerified: true,
        phone: '0911222333',
        birthday: '1988-02-14',
        role: 'customer',
        disabledAt: null,
        disabledReason: null,
      });
      expect(d.membership).toMatchObject({
        current: { code: 'silver', discountPercent: 3 },
        next: { code: 'gold', threshold: 20000 },
        spend: 6400,
        toNext: 13600,
      });
      expect(d.addresses).toEqual([
        expect.objectContaining({
          kind: 'home',
          label: '家裡',
          city: '臺北市',
          district: '信義區',
          postalCode: '110',
          isDefault: true,
        }),
      ]);
      expect(d.orderCount).toBe(2);
      expect(d.orders.map((o) => [o.orderNo, o.status, o.paymentMethod, o.itemCount])).toEqual([
        [secondOrderNo, 'processing', 'cod', 3],
        [firstOrderNo, 'paid', 'credit_card', 2],
      ]);
      expect(d.orders[1]!.total).toBe(6400);
      expect(d.coupons).toEqual([
        expect.objectContaining({ code: 'HELLO100', name: '見面禮', state: 'usable', personal: false }),
      ]);
    });

    it('answers 404 for an unknown member and 400 for a malformed id', async () => {
      const missing = await get('/api/admin/members/00000000-0000-4000-8000-000000000000', cookies.owner);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.message).toBe('找不到這位會員。');
      const bad = await get('/api/admin/members/abc', cookies.owner);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields.memberId).toBe('會員編號格式不正確');
    });
  });

  describe('disable and enable', () => {
    it('refuses anonymous callers (401), customers and viewers (403), changing nothing', async () => {
      for (const action of ['disable', 'enable']) {
        const url = `/api/admin/members/${ids.quiet}/${action}`;
        expect((await post(url, { reason: '測試' })).statusCode).toBe(401);
        expect((await post(url, { reason: '測試' }, cookies.customer)).statusCode).toBe(403);
        expect((await post(url, { reason: '測試' }, cookies.viewer)).statusCode).toBe(403);
      }
      expect(await disabledAt(ids.quiet)).toBeNull();
      expect(await audits('member.disable', ids.quiet)).toHaveLength(0);
    });

    it('needs a reason: 400 with a zh-TW field message, changing nothing', async () => {
      const url = `/api/admin/members/${ids.quiet}/disable`;
      const empty = await post(url, { reason: '   ' }, cookies.staff);
      expect(empty.statusCode).toBe(400);
      expect(empty.json().error.fields.reason).toBe('請填寫停用原因');
      expect((await post(url, { reason: '長'.repeat(201) }, cookies.staff)).json().error.fields.reason).toBe(
        '原因不能超過 200 個字元',
      );
      expect((await post(url, {}, cookies.staff)).json().error.fields.reason).toBe('請填寫原因');
      expect((await post(url, { reason: '灌單', notify: true }, cookies.staff)).statusCode).toBe(400);
      expect(await disabledAt(ids.quiet)).toBeNull();
      expect(await audits('member.disable', ids.quiet)).toHaveLength(0);
    });

    it('disabling ends every session of the member at once; enabling lets them sign in again', async () => {
      const second = await signIn(ctx.app, 'tea.lover@example.com');
      expect((await get('/api/me/profile', buyer.cookie)).statusCode).toBe(200);
      const res = await post(
        `/api/admin/members/${ids.buyer}/disable`,
        { reason: '  多次惡意棄單  ' },
        cookies.staff,
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ id: ids.buyer, revokedSessions: 2 });
      expect(res.json().disabledAt).not.toBeNull();
      // The very next request of either browser is signed out.
      expect((await get('/api/me/profile', buyer.cookie)).statusCode).toBe(401);
      expect((await get('/api/me/profile', second.cookie)).statusCode).toBe(401);
      expect(
        await ctx.database.db
          .select()
          .from(sessions)
          .where(and(eq(sessions.userId, ids.buyer), isNull(sessions.revokedAt))),
      ).toHaveLength(0);

      const [row] = await audits('member.disable', ids.buyer);
      expect(row).toMatchObject({
        actorId: ids.staff,
        actorEmail: 'staff@example.com',
        actorRole: 'staff',
        entity: 'user',
        before: { disabledAt: null, role: 'customer' },
        after: { reason: '多次惡意棄單', revokedSessions: 2, role: 'customer' },
      });
      expect((row!.after as { disabledAt: string }).disabledAt).toBe(res.json().disabledAt);

      expect((await list('?status=disabled')).items.map((r) => r.id)).toEqual([ids.buyer]);
      const d = (await get(`/api/admin/members/${ids.buyer}`, cookies.viewer)).json() as MemberDetail;
      expect(d.profile).toMatchObject({ disabledReason: '多次惡意棄單' });
      expect(d.profile.disabledAt).toBe(res.json().disabledAt);

      const again = await post(
        `/api/admin/members/${ids.buyer}/disable`,
        { reason: '再一次' },
        cookies.staff,
      );
      expect(again.statusCode).toBe(409);
      expect(again.json().error.code).toBe('already-disabled');

      const enabled = await post(
        `/api/admin/members/${ids.buyer}/enable`,
        { reason: '已與會員聯繫' },
        cookies.owner,
      );
      expect(enabled.statusCode, enabled.body).toBe(200);
      expect(enabled.json()).toEqual({ id: ids.buyer, disabledAt: null, revokedSessions: 0 });
      expect(await disabledAt(ids.buyer)).toBeNull();
      const [back] = await audits('member.enable', ids.buyer);
      expect(back).toMatchObject({
        actorEmail: 'owner@example.com',
        actorRole: 'owner',
        before: { disabledAt: res.json().disabledAt },
        after: { disabledAt: null, reason: '已與會員聯繫' },
      });
      // Old sessions stay ended; a new sign-in works.
      expect((await get('/api/me/profile', buyer.cookie)).statusCode).toBe(401);
      const fresh = await signIn(ctx.app, 'tea.lover@example.com');
      expect((await get('/api/me/profile', fresh.cookie)).statusCode).toBe(200);
      expect(
        (await post(`/api/admin/members/${ids.buyer}/enable`, undefined, cookies.owner)).json().error.code,
      ).toBe('not-disabled');
    });

    it('enable needs no reason', async () => {
      await post(`/api/admin/members/${ids.quiet}/disable`, { reason: '測試帳號' }, cookies.owner);
      const res = await post(`/api/admin/members/${ids.quiet}/enable`, undefined, cookies.staff);
      expect(res.statusCode, res.body).toBe(200);
      expect((await audits('member.enable', ids.quiet))[0]).toMatchObject({
        actorRole: 'staff',
        after: { reason: '' },
      });
    });

    it('staff may disable customers only; console accounts are the owner’s to disable', async () => {
      const refused = await post(
        `/api/admin/members/${ids.viewer}/disable`,
        { reason: '離職' },
        cookies.staff,
      );
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.message).toBe('管理後台帳號只能由店主停用或啟用。');
      expect(await disabledAt(ids.viewer)).toBeNull();
      expect(await audits('member.disable', ids.viewer)).toHaveLength(0);

      const ok = await post(`/api/admin/members/${ids.viewer}/disable`, { reason: '離職' }, cookies.owner);
      expect(ok.statusCode, ok.body).toBe(200);
      expect((await get('/api/admin/members', cookies.viewer)).statusCode).toBe(401);
      expect(
        (await post(`/api/admin/members/${ids.viewer}/enable`, { reason: '回任' }, cookies.staff)).statusCode,
      ).toBe(403);
      expect(
        (await post(`/api/admin/members/${ids.viewer}/enable`, { reason: '回任' }, cookies.owner)).statusCode,
      ).toBe(200);
      cookies.viewer = (await signIn(ctx.app, 'viewer@example.com')).cookie;
      await setRole(ctx.database, 'viewer@example.com', 'viewer');
    });

    it('nobody can disable themselves', async () => {
      for (const role of ['owner', 'staff'] as const) {
        const res = await post(`/api/admin/members/${ids[role]}/disable`, { reason: '測試' }, cookies[role]);
        expect(res.statusCode, role).toBe(409);
        expect(res.json().error).toMatchObject({ code: 'own-account', message: '不能停用自己的帳號。' });
        expect(await disabledAt(ids[role])).toBeNull();
      }
    });

    it('answers 404 for an unknown member', async () => {
      const res = await post(
        '/api/admin/members/00000000-0000-4000-8000-000000000000/disable',
        { reason: '測試' },
        cookies.owner,
      );
      expect(res.statusCode).toBe(404);
    });
  });
});
