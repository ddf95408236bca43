import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageOf } from '@shop/shared/admin';
import type { CouponDetail, CouponRow, TiersResponse } from '@shop/shared/admin-coupons';
import { createTestApp, dbAvailable, signIn, type TestContext } from '../../../test/helpers.ts';
import { seedTestCatalog, setRole } from '../../../test/fixtures.ts';
import { ORIGIN, shopper } from '../../../test/shop.ts';
import { auditLog, coupons, membershipTiers, productVariants, users } from '../../db/schema.ts';

const DAY = 86_400_000;

const DEFAULT_TIERS = [
  { code: 'regular', name: '一般會員', threshold: 0, discountPercent: 0, freeShippingOver: null },
  { code: 'silver', name: '銀卡會員', threshold: 6000, discountPercent: 3, freeShippingOver: 1200 },
  { code: 'gold', name: '金卡會員', threshold: 20000, discountPercent: 5, freeShippingOver: 800 },
];

describe.skipIf(!dbAvailable())('console: coupons and tiers', () => {
  let ctx: TestContext;
  let fx: Awaited<ReturnType<typeof seedTestCatalog>>;
  let variants: Record<string, string>;
  const cookies: Record<'owner' | 'staff' | 'viewer' | 'customer', string> = {
    owner: '',
    staff: '',
    viewer: '',
    customer: '',
  };
  const couponIds: Record<string, string> = {};

  const insert = async (code: string, values: Partial<typeof coupons.$inferInsert> = {}) => {
    const [row] = await ctx.database.db
      .insert(coupons)
      .values({
        code,
        name: `測試 ${code}`,
        kind: 'fixed',
        value: 100,
        startsAt: new Date(Date.now() - DAY),
        endsAt: new Date(Date.now() + 30 * DAY),
        ...values,
      })
      .returning();
    couponIds[code] = row!.id;
    return row!;
  };

  beforeAll(async () => {
    ctx = await createTestApp();
    fx = await seedTestCatalog(ctx.database);
    const rows = await ctx.database.db
      .select({ id: productVariants.id, sku: productVariants.sku })
      .from(productVariants);
    variants = Object.fromEntries(rows.map((r) => [r.sku, r.id]));
    await ctx.database.db.update(productVariants).set({ stock: 500 });
    for (const role of ['owner', 'staff', 'viewer', 'customer'] as const) {
      cookies[role] = (await signIn(ctx.app, `${role}@example.com`)).cookie;
      if (role !== 'customer') await setRole(ctx.database, `${role}@example.com`, role);
    }
    const birthdayOwner = await signIn(ctx.app, 'birthday@example.com');
    await insert('RUNNING10', {
      name: '十週年 9 折',
      kind: 'percent',
      value: 10,
      totalLimit: 50,
      usedCount: 7,
      listed: true,
    });
    await insert('PAUSEDNOW', { status: 'paused' });
    await insert('LATER', {
      startsAt: new Date(Date.now() + 10 * DAY),
      endsAt: new Date(Date.now() + 20 * DAY),
    });
    await insert('OVER', {
      startsAt: new Date(Date.now() - 20 * DAY),
      endsAt: new Date(Date.now() - 10 * DAY),
    });
    await insert('BDAY2026-ABC123', {
      name: '生日月禮券',
      ownerId: birthdayOwner.uid,
      value: 200,
      minSpend: 1000,
    });
  });
  afterAll(async () => ctx.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, cookie?: string, payload?: object) =>
    ctx.app.inject({
      method,
      url,
      headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
      ...(payload ? { payload } : {}),
    });
  const lastAudit = async (action: string, entityId: string | null = null) =>
    (
      await ctx.database.db
        .select()
        .from(auditLog)
        .where(
          entityId
            ? and(eq(auditLog.action, action), eq(auditLog.entityId, entityId))
            : eq(auditLog.action, action),
        )
        .orderBy(desc(auditLog.id))
        .limit(1)
    )[0];
  const auditCount = async () => (await ctx.database.db.select({ id: auditLog.id }).from(auditLog)).length;
  const couponCount = async () => (await ctx.database.db.select({ id: coupons.id }).from(coupons)).length;
  const list = async (query: string) => {
    const res = await call('GET', `/api/admin/coupons${query}`, cookies.viewer);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as PageOf<CouponRow>;
  };
  /** Reads are for every console role; writes for the owner only. */
  const readMatrix = async (url: string) => {
    expect((await call('GET', url)).statusCode).toBe(401);
    expect((await call('GET', url, cookies.customer)).statusCode).toBe(403);
    for (const role of ['viewer', 'staff', 'owner'] as const)
      expect((await call('GET', url, cookies[role])).statusCode, role).toBe(200);
  };
  const writeMatrix = async (method: 'POST' | 'PUT', url: string, payload?: object) => {
    const before = await auditCount();
    expect((await call(method, url, undefined, payload)).statusCode).toBe(401);
    for (const role of ['customer', 'viewer', 'staff'] as const) {
      const res = await call(method, url, cookies[role], payload);
      expect(res.statusCode, role).toBe(403);
      expect(res.json().error.code).toBe('forbidden');
    }
    expect(await auditCount()).toBe(before);
  };

  const body = (overrides: Record<string, unknown> = {}) => ({
    code: 'spring-500',
    name: '春茶上市',
    kind: 'fixed',
    value: 500,
    minSpend: 3000,
    startsAt: '2026-03-01T00:00:00+08:00',
    endsAt: '2099-04-01T00:00:00+08:00',
    totalLimit: 100,
    perMemberLimit: 1,
    tierCodes: ['silver', 'gold'],
    listed: true,
    ...overrides,
  });

  describe('GET /api/admin/coupons', () => {
    it('reads for every console role', async () => readMatrix('/api/admin/coupons'));

    it('lists coupons with state and usage, ending latest first', async () => {
      const page = await list('');
      expect(page.total).toBe(5);
      const running = page.items.find((c) => c.code === 'RUNNING10')!;
      expect(running).toMatchObject({
        name: '十週年 9 折',
        kind: 'percent',
        value: 10,
        usedCount: 7,
        totalLimit: 50,
        perMemberLimit: 1,
        status: 'active',
        state: 'running',
        listed: true,
        tierCodes: [],
        ownerEmail: null,
      });
      expect(Object.fromEntries(page.items.map((c) => [c.code, c.state]))).toEqual({
        RUNNING10: 'running',
        PAUSEDNOW: 'paused',
        LATER: 'upcoming',
        OVER: 'expired',
        'BDAY2026-ABC123': 'running',
      });
      expect(page.items.find((c) => c.code === 'BDAY2026-ABC123')!.ownerEmail).toBe('birthday@example.com');
      expect(page.items.map((c) => c.code).slice(-2)).toEqual(['LATER', 'OVER']);
    });

    it('filters by code or name, status, validity and scope, and pages', async () => {
      const codes = async (q: string) => (await list(q)).items.map((c) => c.code).sort();
      expect(await codes('?q=running')).toEqual(['RUNNING10']);
      expect(await codes('?q=%E5%8D%81%E9%80%B1%E5%B9%B4')).toEqual(['RUNNING10']); // 十週年
      expect(await codes('?status=paused')).toEqual(['PAUSEDNOW']);
      expect(await codes('?validity=now')).toEqual(['BDAY2026-ABC123', 'PAUSEDNOW', 'RUNNING10']);
      expect(await codes('?validity=upcoming')).toEqual(['LATER']);
      expect(await codes('?validity=expired')).toEqual(['OVER']);
      expect(await codes('?scope=personal')).toEqual(['BDAY2026-ABC123']);
      expect((await list('?scope=shared')).total).toBe(4);
      expect(await list('?pageSize=2&page=3')).toMatchObject({
        page: 3,
        pageSize: 2,
        total: 5,
        totalPages: 3,
      });
    });

    it('refuses bad filters with zh-TW field messages', async () => {
      const res = await call('GET', '/api/admin/coupons?validity=soon', cookies.owner);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields.validity).toBe('期間只能是目前有效、尚未開始或已結束');
      expect(
        (await call('GET', '/api/admin/coupons?status=deleted', cookies.owner)).json().error.fields.status,
      ).toBe('狀態只能是啟用或暫停');
    });
  });

  describe('POST /api/admin/coupons', () => {
    it('is the owner’s only', async () => {
      await writeMatrix('POST', '/api/admin/coupons', body({ code: 'NOT-MINE' }));
      expect(await ctx.database.db.select().from(coupons).where(eq(coupons.code, 'NOT-MINE'))).toHaveLength(
        0,
      );
    });

    it('creates a coupon (the code upper-cased), audited with what was made', async () => {
      const res = await call('POST', '/api/admin/coupons', cookies.owner, body());
      expect(res.statusCode, res.body).toBe(201);
      const c = res.json() as CouponDetail;
      couponIds['SPRING-500'] = c.id;
      expect(c).toMatchObject({
        code: 'SPRING-500',
        name: '春茶上市',
        kind: 'fixed',
        value: 500,
        minSpend: 3000,
        totalLimit: 100,
        perMemberLimit: 1,
        usedCount: 0,
        status: 'active',
        state: 'running',
        listed: true,
        tierCodes: ['silver', 'gold'],
        categoryIds: [],
        redemptions: [],
      });
      expect(c.startsAt).toBe('2026-02-28T16:00:00.000Z');
      expect(c.endsAt).toBe('2099-03-31T16:00:00.000Z');
      expect(await lastAudit('coupon.create', c.id)).toMatchObject({
        actorEmail: 'owner@example.com',
        actorRole: 'owner',
        entity: 'coupon',
        before: null,
        after: { code: 'SPRING-500', value: 500, tierCodes: ['silver', 'gold'], status: 'active' },
      });
      expect((await call('GET', `/api/admin/coupons/${c.id}`, cookies.viewer)).json()).toMatchObject({
        code: 'SPRING-500',
      });
    });

    it('refuses bad input with zh-TW field messages, creating nothing', async () => {
      const count = await couponCount();
      const audits = await auditCount();
      const fields = async (payload: object) => {
        const res = await call('POST', '/api/admin/coupons', cookies.owner, payload);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().error.code).toBe('invalid-argument');
        return res.json().error.fields as Record<string, string>;
      };
      expect(
        await fields(
          body({
            code: '春茶',
            name: '',
            value: 2.5,
            totalLimit: 0,
            perMemberLimit: 0,
            minSpend: -1,
            startsAt: '2026-03-01',
            kind: 'gift',
          }),
        ),
      ).toEqual({
        code: '優惠碼只能使用英文字母、數字與連字號，長度 3 到 32 個字元',
        name: '請填寫名稱',
        kind: '請選擇折扣方式',
        value: '折扣必須是整數',
        minSpend: '最低消費不能是負數',
        startsAt: '開始時間格式不正確',
        totalLimit: '總使用次數至少 1 次；不限次數請留空',
        perMemberLimit: '每人至少可用 1 次',
      });
      expect(await fields(body({ kind: 'percent', value: 150 }))).toEqual({
        value: '百分比折扣必須是 1 到 100 之間的整數',
      });
      expect(await fields(body({ kind: 'fixed', value: 0 }))).toEqual({
        value: '折抵金額必須是 1 以上的整數（新臺幣元）',
      });
      expect(await fields(body({ endsAt: '2026-02-01T00:00:00+08:00' }))).toEqual({
        endsAt: '結束時間必須晚於開始時間',
      });
      expect(await fields(body({ code: 'running10' }))).toEqual({ code: '這個優惠碼已經有了，請換一個' });
      expect(await fields(body({ code: 'NEW-ONE', tierCodes: ['platinum'] }))).toEqual({
        tierCodes: '有會員等級不存在，請重新選擇',
      });
      expect(
        await fields(body({ code: 'NEW-ONE', categoryIds: ['00000000-0000-4000-8000-000000000000'] })),
      ).toEqual({ categoryIds: '有商品分類不存在，請重新選擇' });
      expect(await fields(body({ code: 'NEW-ONE', usedCount: 5 }))).toHaveProperty('_');
      expect(await couponCount()).toBe(count);
      expect(await auditCount()).toBe(audits);
    });

    it('takes category limits and no total limit', async () => {
      const res = await call(
        'POST',
        '/api/admin/coupons',
        cookies.owner,
        body({
          code: 'OOLONG-ONLY',
          totalLimit: null,
          tierCodes: [],
          categoryIds: [fx.categories.oolong.id],
        }),
      );
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        totalLimit: null,
        tierCodes: [],
        categoryIds: [fx.categories.oolong.id],
      });
    });
  });

  describe('GET /api/admin/coupons/options', () => {
    it('reads for every console role: the tiers and categories a coupon can be limited to', async () => {
      await readMatrix('/api/admin/coupons/options');
      const o = (await call('GET', '/api/admin/coupons/options', cookies.viewer)).json();
      expect(o.tiers).toEqual([
        { code: 'regular', name: '一般會員' },
        { code: 'silver', name: '銀卡會員' },
        { code: 'gold', name: '金卡會員' },
      ]);
      expect(o.categories).toEqual([
        { id: fx.categories.tea.id, name: '茶葉', parentName: null },
        { id: fx.categories.oolong.id, name: '烏龍茶', parentName: '茶葉' },
        { id: fx.categories.black.id, name: '紅茶', parentName: '茶葉' },
        { id: fx.categories.ware.id, name: '茶器', parentName: null },
      ]);
    });
  });

  describe('GET /api/admin/coupons/:couponId', () => {
    it('reads for every console role', async () => readMatrix(`/api/admin/coupons/${couponIds.RUNNING10}`));

    it('shows the latest redemptions: order number, member, amount and time', async () => {
      const s = await shopper(ctx.app, 'redeemer@example.com');
      await ctx.database.db.update(users).set({ displayName: '用券的會員' }).where(eq(users.id, s.uid));
      await s.add(variants['LS-S']!, 1); // 980
      const placed = await s.order({ couponCode: 'running10' });
      expect(placed.statusCode, placed.body).toBe(201);
      const d = (
        await call('GET', `/api/admin/coupons/${couponIds.RUNNING10}`, cookies.viewer)
      ).json() as CouponDetail;
      expect(d.usedCount).toBe(8);
      expect(d.redemptions).toHaveLength(1);
      expect(d.redemptions[0]).toMatchObject({
        orderNo: placed.json().order.orderNo,
        memberId: s.uid,
        memberName: '用券的會員',
        memberEmail: 'redeemer@example.com',
        amount: 98,
      });
      expect(Date.now() - Date.parse(d.redemptions[0]!.at)).toBeLessThan(60_000);
    });

    it('answers 404 for an unknown coupon and 400 for a malformed id', async () => {
      expect(
        (await call('GET', '/api/admin/coupons/00000000-0000-4000-8000-000000000000', cookies.owner)).json()
          .error.message,
      ).toBe('找不到這張優惠券。');
      expect(
        (await call('GET', '/api/admin/coupons/SPRING', cookies.owner)).json().error.fields.couponId,
      ).toBe('優惠券編號格式不正確');
    });
  });

  describe('PUT /api/admin/coupons/:couponId', () => {
    it('is the owner’s only', async () => {
      await writeMatrix(
        'PUT',
        `/api/admin/coupons/${couponIds.RUNNING10}`,
        body({ code: 'RUNNING10', name: '改名' }),
      );
      expect(
        (await ctx.database.db.select().from(coupons).where(eq(coupons.id, couponIds.RUNNING10!)))[0]!.name,
      ).toBe('十週年 9 折');
    });

    it('saves the changes, audited with before and after', async () => {
      const url = `/api/admin/coupons/${couponIds.RUNNING10}`;
      const res = await call(
        'PUT',
        url,
        cookies.owner,
        body({
          code: 'RUNNING10',
          name: '十週年 85 折',
          kind: 'percent',
          value: 15,
          minSpend: 0,
          totalLimit: 60,
          perMemberLimit: 2,
          tierCodes: [],
        }),
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        id: couponIds.RUNNING10,
        name: '十週年 85 折',
        value: 15,
        totalLimit: 60,
        perMemberLimit: 2,
        usedCount: 8,
      });
      const row = await lastAudit('coupon.update', couponIds.RUNNING10);
      expect(row).toMatchObject({
        actorEmail: 'owner@example.com',
        before: { name: '十週年 9 折', value: 10, totalLimit: 50, perMemberLimit: 1 },
        after: { name: '十週年 85 折', value: 15, totalLimit: 60, perMemberLimit: 2 },
      });
    });

    it('refuses a total limit below the uses so far and a code another coupon has, changing nothing', async () => {
      const url = `/api/admin/coupons/${couponIds.RUNNING10}`;
      const audits = await auditCount();
      const low = await call('PUT', url, cookies.owner, body({ code: 'RUNNING10', totalLimit: 5 }));
      expect(low.statusCode).toBe(400);
      expect(low.json().error.fields.totalLimit).toBe('已經用了 8 次，總使用次數不能少於 8');
      expect((await call('PUT', url, cookies.owner, body({ code: 'LATER' }))).json().error.fields.code).toBe(
        '這個優惠碼已經有了，請換一個',
      );
      expect(
        (
          await call('PUT', url, cookies.owner, body({ code: 'RUNNING10', endsAt: '2020-01-01T00:00:00Z' }))
        ).json().error.fields.endsAt,
      ).toBe('結束時間必須晚於開始時間');
      expect(
        (
          await call(
            'PUT',
            '/api/admin/coupons/00000000-0000-4000-8000-000000000000',
            cookies.owner,
            body({ code: 'GHOST' }),
          )
        ).statusCode,
      ).toBe(404);
      expect(
        (await ctx.database.db.select().from(coupons).where(eq(coupons.id, couponIds.RUNNING10!)))[0],
      ).toMatchObject({ code: 'RUNNING10', totalLimit: 60 });
      expect(await auditCount()).toBe(audits);
    });
  });

  describe('pause and resume', () => {
    it('are the owner’s only', async () => {
      await writeMatrix('POST', `/api/admin/coupons/${couponIds.LATER}/pause`);
      await writeMatrix('POST', `/api/admin/coupons/${couponIds.PAUSEDNOW}/resume`);
      expect(
        (await ctx.database.db.select().from(coupons).where(eq(coupons.id, couponIds.LATER!)))[0]!.status,
      ).toBe('active');
    });

    it('a paused code is refused at checkout at once; resumed, it works again', async () => {
      const s = await shopper(ctx.app, 'checkout@example.com');
      await s.add(variants['DD-S']!, 1); // 480
      const quote = async () =>
        (
          await s.call('POST', '/api/checkout/quote', { shippingMethod: 'home', couponCode: 'RUNNING10' })
        ).json();
      expect(await quote()).toMatchObject({ couponError: null, discountTotal: 72 });

      const paused = await call('POST', `/api/admin/coupons/${couponIds.RUNNING10}/pause`, cookies.owner);
      expect(paused.statusCode, paused.body).toBe(200);
      expect(paused.json()).toMatchObject({ status: 'paused', state: 'paused' });
      expect(await quote()).toMatchObject({ couponError: '這個優惠碼目前暫停使用。', discountTotal: 0 });
      const refused = await s.order({ couponCode: 'RUNNING10' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.fields.couponCode).toBe('這個優惠碼目前暫停使用。');
      expect(await lastAudit('coupon.pause', couponIds.RUNNING10)).toMatchObject({
        actorEmail: 'owner@example.com',
        entity: 'coupon',
        before: { code: 'RUNNING10', status: 'active' },
        after: { code: 'RUNNING10', status: 'paused' },
      });
      const twice = await call('POST', `/api/admin/coupons/${couponIds.RUNNING10}/pause`, cookies.owner);
      expect(twice.statusCode).toBe(409);
      expect(twice.json().error.code).toBe('already-paused');

      const resumed = await call('POST', `/api/admin/coupons/${couponIds.RUNNING10}/resume`, cookies.owner);
      expect(resumed.json()).toMatchObject({ status: 'active', state: 'running' });
      expect(await lastAudit('coupon.resume', couponIds.RUNNING10)).toMatchObject({
        before: { status: 'paused' },
        after: { status: 'active' },
      });
      expect(await quote()).toMatchObject({ couponError: null, discountTotal: 72 });
      expect(
        (await call('POST', `/api/admin/coupons/${couponIds.RUNNING10}/resume`, cookies.owner)).json().error
          .code,
      ).toBe('already-active');
    });
  });

  describe('tiers', () => {
    const put = (tiers: unknown, cookie = cookies.owner) =>
      call('PUT', '/api/admin/tiers', cookie, { tiers });
    const stored = async () =>
      (await ctx.database.db.select().from(membershipTiers).orderBy(membershipTiers.sortOrder)).map((t) => ({
        code: t.code,
        name: t.name,
        threshold: t.threshold,
        discountPercent: t.discountPercent,
        freeShippingOver: t.freeShippingOver,
      }));

    it('GET reads for every console role, with members per tier', async () => {
      await readMatrix('/api/admin/tiers');
      const { tiers } = (await call('GET', '/api/admin/tiers', cookies.viewer)).json() as TiersResponse;
      expect(tiers.map(({ memberCount: _m, ...t }) => t)).toEqual(
        DEFAULT_TIERS.map((t, i) => ({ ...t, sortOrder: i + 1 })),
      );
      expect(tiers[0]!.memberCount).toBeGreaterThanOrEqual(7);
    });

    it('PUT is the owner’s only', async () => {
      await writeMatrix('PUT', '/api/admin/tiers', {
        tiers: DEFAULT_TIERS.map((t) => ({ ...t, discountPercent: 30 })),
      });
      expect(await stored()).toEqual(DEFAULT_TIERS);
    });

    it('refuses bad tiers with zh-TW field messages, changing nothing', async () => {
      const audits = await auditCount();
      const fields = async (tiers: unknown) => {
        const res = await put(tiers);
        expect(res.statusCode, res.body).toBe(400);
        return res.json().error.fields as Record<string, string>;
      };
      const [regular, silver, gold] = DEFAULT_TIERS;
      expect(await fields([{ ...regular, threshold: 100 }, silver, gold])).toEqual({
        'tiers.0.threshold': '最低的等級門檻必須是 0，讓每位會員都有等級',
      });
      expect(await fields([regular, { ...silver, threshold: 20000 }, gold])).toEqual({
        'tiers.2.threshold': '門檻必須高於上一個等級（NT$20,000）',
      });
      expect(
        await fields([
          regular,
          silver,
          { ...gold, discountPercent: 31, name: '金卡會員金卡會員金卡會', freeShippingOver: 0 },
        ]),
      ).toEqual({
        'tiers.2.discountPercent': '折扣必須是 0 到 30 的整數',
        'tiers.2.name': '等級名稱最多 10 個字',
        'tiers.2.freeShippingOver': '免運門檻必須是正整數；沿用全店規則請留空',
      });
      expect(await fields([regular, { ...silver, name: '  ' }, gold])).toEqual({
        'tiers.1.name': '請填寫等級名稱',
      });
      expect(await fields([regular, { ...silver, name: '一般會員' }, gold])).toEqual({
        'tiers.1.name': '等級名稱不能重複',
      });
      expect(await fields([regular, silver])).toEqual({
        tiers: '會員等級不能新增或刪除，只能修改現有的等級。',
      });
      expect(await fields([regular, silver, { ...gold, code: 'platinum' }])).toEqual({
        tiers: '會員等級不能新增或刪除，只能修改現有的等級。',
      });
      expect(await stored()).toEqual(DEFAULT_TIERS);
      expect(await auditCount()).toBe(audits);
    });

    it('an edit applies to a member’s next quote; members keep their tier until their next paid order', async () => {
      const s = await shopper(ctx.app, 'silver-member@example.com');
      await ctx.database.db.update(users).set({ tierCode: 'silver' }).where(eq(users.id, s.uid));
      await s.add(variants['LS-S']!, 1); // 980
      const quote = async () =>
        (await s.call('POST', '/api/checkout/quote', { shippingMethod: 'home' })).json();
      expect((await quote()).discounts).toEqual([{ kind: 'tier', label: '銀卡會員折扣 3%', amount: 29 }]);

      const next = [
        DEFAULT_TIERS[0],
        {
          ...DEFAULT_TIERS[1],
          name: '銀葉會員',
          threshold: 8000,
          discountPercent: 8,
          freeShippingOver: null,
        },
        DEFAULT_TIERS[2],
      ];
      const res = await put(next);
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json() as TiersResponse).tiers[1]).toMatchObject({
        code: 'silver',
        name: '銀葉會員',
        threshold: 8000,
        discountPercent: 8,
        freeShippingOver: null,
        sortOrder: 2,
      });
      expect(await stored()).toEqual(next);
      const row = await lastAudit('tiers.update');
      expect(row).toMatchObject({ actorEmail: 'owner@example.com', actorRole: 'owner', entity: 'tier' });
      expect((row!.before as { tiers: unknown[] }).tiers[1]).toEqual({
        code: 'silver',
        name: '銀卡會員',
        threshold: 6000,
        discountPercent: 3,
        freeShippingOver: 1200,
        sortOrder: 2,
      });
      expect((row!.after as { tiers: unknown[] }).tiers[1]).toEqual({
        code: 'silver',
        name: '銀葉會員',
        threshold: 8000,
        discountPercent: 8,
        freeShippingOver: null,
        sortOrder: 2,
      });

      // 8% of 980 = 78.4 → 78; the member has not spent NT$8,000 but stays silver until recomputed.
      expect((await quote()).discounts).toEqual([{ kind: 'tier', label: '銀葉會員折扣 8%', amount: 78 }]);
      expect(
        (await ctx.database.db.select({ t: users.tierCode }).from(users).where(eq(users.id, s.uid)))[0]!.t,
      ).toBe('silver');
      expect((await put(DEFAULT_TIERS)).statusCode).toBe(200);
    });
  });
});
