import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbAvailable, signIn, type TestContext } from '../../../test/helpers.ts';
import { setRole } from '../../../test/fixtures.ts';
import { ORIGIN } from '../../../test/shop.ts';
import { latestMail } from '../../../test/mail.ts';
import { auditLog, contactMessages, contactReplies, contentItems } from '../../db/schema.ts';

const at = (iso: string) => new Date(iso);
const MESSAGES = [
  {
    referenceNo: 'C2026110100001',
    name: '林小嵐',
    email: 'lan@example.com',
    phone: '0912-345-678',
    subject: '商品諮詢',
    message: '請問凍頂烏龍適合冷泡嗎？想買來送長輩。',
    createdAt: at('2026-11-01T02:00:00Z'),
  },
  {
    referenceNo: 'C2026110200001',
    name: '陳大文',
    email: 'wen@example.com',
    phone: null,
    subject: '訂單與配送',
    message: '訂單 TW20261101000003 的茶罐有凹痕，請問可以換貨嗎？',
    createdAt: at('2026-11-02T02:00:00Z'),
    handledAt: at('2026-11-02T05:00:00Z'),
  },
  {
    referenceNo: 'C2026110300001',
    name: '王雅婷',
    email: 'ya.ting@example.com',
    phone: null,
    subject: '應徵工作',
    message: '我有三年烘焙經驗，希望應徵焙茶學徒，履歷隨信附上連結。',
    jobSlug: 'roasting-apprentice',
    createdAt: at('2026-11-03T02:00:00Z'),
  },
  {
    referenceNo: 'C2026110400001',
    name: '張先生',
    email: 'chang@example.com',
    phone: null,
    subject: '企業採購與禮盒',
    message: `公司年節想訂 50 盒禮盒，100%_手工 的款式有嗎？${'請協助報價。'.repeat(20)}`,
    createdAt: at('2026-11-04T02:00:00Z'),
    handledAt: at('2026-11-04T03:00:00Z'),
  },
  {
    referenceNo: 'C2026110500001',
    name: '李小姐',
    email: 'lee@example.com',
    phone: null,
    subject: '應徵工作',
    message: '想應徵已經下架的職缺，不知道還有沒有機會。',
    jobSlug: 'old-opening',
    createdAt: at('2026-11-05T02:00:00Z'),
  },
];

describe.skipIf(!dbAvailable())('contact messages in the console', () => {
  let ctx: TestContext;
  let owner: string;
  let staff: string;
  let viewer: string;
  let customer: string;
  beforeAll(async () => {
    ctx = await createTestApp();
    await ctx.database.db.insert(contactMessages).values(MESSAGES);
    await ctx.database.db.insert(contentItems).values({
      kind: 'job',
      slug: 'roasting-apprentice',
      data: { slug: 'roasting-apprentice', title: '焙茶學徒' },
    });
    owner = (await signIn(ctx.app, 'owner@example.com')).cookie;
    staff = (await signIn(ctx.app, 'staff@example.com')).cookie;
    viewer = (await signIn(ctx.app, 'viewer@example.com')).cookie;
    customer = (await signIn(ctx.app, 'customer@example.com')).cookie;
    await setRole(ctx.database, 'owner@example.com', 'owner');
    await setRole(ctx.database, 'staff@example.com', 'staff');
    await setRole(ctx.database, 'viewer@example.com', 'viewer');
  });
  afterAll(async () => ctx.close());

  const get = (url: string, cookie?: string) =>
    ctx.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  const refs = async (query: string, cookie = owner) => {
    const res = await get(`/api/admin/messages${query}`, cookie);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().items as Array<{ referenceNo: string }>).map((m) => m.referenceNo);
  };
  const mark = (referenceNo: string, body: unknown, cookie?: string) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/admin/messages/${referenceNo}/handled`,
      headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
      payload: body as object,
    });
  const handledAt = async (referenceNo: string) =>
    (
      await ctx.database.db.select().from(contactMessages).where(eq(contactMessages.referenceNo, referenceNo))
    )[0]!.handledAt;
  const audits = () =>
    ctx.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'message.handled'))
      .orderBy(desc(auditLog.id));

  describe('permissions', () => {
    it('lets every console role read the list and a message; anonymous 401, shoppers 403', async () => {
      for (const cookie of [owner, staff, viewer]) {
        expect((await get('/api/admin/messages', cookie)).statusCode).toBe(200);
        expect((await get('/api/admin/messages/C2026110100001', cookie)).statusCode).toBe(200);
      }
      for (const url of ['/api/admin/messages', '/api/admin/messages/C2026110100001']) {
        expect((await get(url)).statusCode).toBe(401);
        const res = await get(url, customer);
        expect(res.statusCode).toBe(403);
        expect(res.json().error.code).toBe('forbidden');
      }
    });

    it('lets the owner and staff mark a message; viewers and shoppers get 403, anonymous 401, and nothing changes', async () => {
      expect((await mark('C2026110100001', { handled: true })).statusCode).toBe(401);
      for (const cookie of [viewer, customer])
        expect((await mark('C2026110100001', { handled: true }, cookie)).statusCode).toBe(403);
      expect(await handledAt('C2026110100001')).toBeNull();
      expect(await audits()).toHaveLength(0);
    });
  });

  describe('the list', () => {
    it('is newest first by default, and can put the unhandled ones first', async () => {
      expect(await refs('')).toEqual([
        'C2026110500001',
        'C2026110400001',
        'C2026110300001',
        'C2026110200001',
        'C2026110100001',
      ]);
      expect(await refs('?sort=unhandled-first')).toEqual([
        'C2026110500001',
        'C2026110300001',
        'C2026110100001',
        'C2026110400001',
        'C2026110200001',
      ]);
    });

    it('shows a short excerpt and the state of each row', async () => {
      const res = (await get('/api/admin/messages?q=C2026110400001', owner)).json();
      expect(res.items).toHaveLength(1);
      expect(res.items[0]).toMatchObject({
        referenceNo: 'C2026110400001',
        name: '張先生',
        email: 'chang@example.com',
        subject: '企業採購與禮盒',
        jobSlug: null,
        createdAt: '2026-11-04T02:00:00.000Z',
        handledAt: '2026-11-04T03:00:00.000Z',
      });
      expect(res.items[0].excerpt).toHaveLength(61);
      expect(res.items[0].excerpt).toMatch(/^公司年節想訂 50 盒禮盒.*…$/);
    });

    it('filters by handled, subject and a search over name, e-mail, reference and text', async () => {
      expect(await refs('?handled=no')).toEqual(['C2026110500001', 'C2026110300001', 'C2026110100001']);
      expect(await refs('?handled=yes')).toEqual(['C2026110400001', 'C2026110200001']);
      expect(await refs(`?subject=${encodeURIComponent('應徵工作')}`)).toEqual([
        'C2026110500001',
        'C2026110300001',
      ]);
      expect(await refs(`?subject=${encodeURIComponent('應徵工作')}&handled=yes`)).toEqual([]);
      expect(await refs(`?q=${encodeURIComponent('陳大文')}`)).toEqual(['C2026110200001']);
      expect(await refs('?q=YA.TING@')).toEqual(['C2026110300001']);
      expect(await refs('?q=c20261101')).toEqual(['C2026110100001']);
      expect(await refs(`?q=${encodeURIComponent('冷泡')}`)).toEqual(['C2026110100001']);
      // LIKE wildcards are taken literally: only the message that has "100%_" in it.
      expect(await refs(`?q=${encodeURIComponent('100%_')}`)).toEqual(['C2026110400001']);
      expect(await refs(`?q=${encodeURIComponent('%')}`)).toEqual(['C2026110400001']);
    });

    it('pages', async () => {
      const res = (await get('/api/admin/messages?pageSize=2&page=3', owner)).json();
      expect(res).toMatchObject({ page: 3, pageSize: 2, total: 5, totalPages: 3 });
      expect(res.items.map((m: { referenceNo: string }) => m.referenceNo)).toEqual(['C2026110100001']);
    });

    it('refuses bad filters with zh-TW messages', async () => {
      const handled = await get('/api/admin/messages?handled=maybe', owner);
      expect(handled.statusCode).toBe(400);
      expect(handled.json().error.fields.handled).toBe('處理狀態必須是 yes 或 no');
      const subject = await get(`/api/admin/messages?subject=${encodeURIComponent('抱怨')}`, owner);
      expect(subject.json().error.fields.subject).toBe('沒有這個詢問類別');
      expect((await get('/api/admin/messages?sort=oldest', owner)).statusCode).toBe(400);
      expect((await get('/api/admin/messages?status=open', owner)).statusCode).toBe(400);
    });
  });

  describe('one message', () => {
    it('answers the whole message, with the job applied for', async () => {
      const res = await get('/api/admin/messages/C2026110300001', viewer);
      expect(res.json()).toEqual({
        referenceNo: 'C2026110300001',
        name: '王雅婷',
        email: 'ya.ting@example.com',
        phone: null,
        subject: '應徵工作',
        message: '我有三年烘焙經驗，希望應徵焙茶學徒，履歷隨信附上連結。',
        jobSlug: 'roasting-apprentice',
        jobTitle: '焙茶學徒',
        createdAt: '2026-11-03T02:00:00.000Z',
        handledAt: null,
        replies: [],
      });
      // A job no longer on the site keeps its slug, without a title.
      expect((await get('/api/admin/messages/C2026110500001', owner)).json()).toMatchObject({
        jobSlug: 'old-opening',
        jobTitle: null,
      });
    });

    it('answers 404 for an unknown reference and 400 for a malformed one', async () => {
      const missing = await get('/api/admin/messages/C2026010100099', owner);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.message).toBe('找不到客服來信 C2026010100099。');
      const bad = await get('/api/admin/messages/hello', owner);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields.referenceNo).toBe('客服單號格式不正確');
    });
  });

  describe('marking handled', () => {
    it('staff mark a message handled; the time is set and the audit row names them', async () => {
      const res = await mark('C2026110100001', { handled: true }, staff);
      expect(res.statusCode, res.body).toBe(200);
      const when = await handledAt('C2026110100001');
      expect(when).toBeInstanceOf(Date);
      expect(Date.now() - when!.getTime()).toBeLessThan(60_000);
      expect(res.json()).toMatchObject({ referenceNo: 'C2026110100001', handledAt: when!.toISOString() });
      const [row] = await audits();
      expect(row).toMatchObject({
        actorEmail: 'staff@example.com',
        actorRole: 'staff',
        entity: 'message',
        entityId: 'C2026110100001',
        before: { handled: false, handledAt: null },
        after: { handled: true, handledAt: when!.toISOString() },
      });
    });

    it('marking it again the same way keeps the first time and writes no audit row', async () => {
      const first = await handledAt('C2026110100001');
      const count = (await audits()).length;
      expect((await mark('C2026110100001', { handled: true }, owner)).json().handledAt).toBe(
        first!.toISOString(),
      );
      expect(await handledAt('C2026110100001')).toEqual(first);
      expect(await audits()).toHaveLength(count);
    });

    it('the owner marks it unhandled again', async () => {
      const res = await mark('C2026110100001', { handled: false }, owner);
      expect(res.json().handledAt).toBeNull();
      expect(await handledAt('C2026110100001')).toBeNull();
      const [row] = await audits();
      expect(row).toMatchObject({
        actorEmail: 'owner@example.com',
        after: { handled: false, handledAt: null },
        before: { handled: true },
      });
    });

    it('refuses a bad body with a zh-TW message and an unknown message with 404, changing nothing', async () => {
      const count = (await audits()).length;
      const bad = await mark('C2026110100001', { handled: 'yes' }, owner);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields.handled).toBe('請指定是否已處理');
      expect((await mark('C2026110100001', {}, owner)).statusCode).toBe(400);
      expect((await mark('C2026110100001', { handled: true, note: 'x' }, owner)).statusCode).toBe(400);
      expect((await mark('C2026010100099', { handled: true }, owner)).statusCode).toBe(404);
      expect(await handledAt('C2026110100001')).toBeNull();
      expect(await audits()).toHaveLength(count);
    });
  });
  describe('replying', () => {
    const reply = (referenceNo: string, body: unknown, cookie?: string) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/admin/messages/${referenceNo}/replies`,
        headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
        payload: body as object,
      });
    const repliesInDb = async () => (await ctx.database.db.select().from(contactReplies)).length;

    it('mails the reply to the sender from the shop, keeps it with the message and marks it handled', async () => {
      const res = await reply(
        'C2026110300001',
        { body: '  您好，焙茶學徒的面試時間是 11/20 下午。  ' },
        staff,
      );
      expect(res.statusCode, res.body).toBe(200);
      const answered = res.json();
      expect(answered.replies).toEqual([
        { body: '您好，焙茶學徒的面試時間是 11/20 下午。', at: expect.any(String), by: 'staff@example.com' },
      ]);
      expect(answered.handledAt).not.toBeNull();
      // Read again: the reply is kept.
      expect((await get('/api/admin/messages/C2026110300001', viewer)).json().replies).toHaveLength(1);

      // The mail is written once the reply is kept: wait for it rather than race it.
      const mail = await latestMail(ctx.database, 'ya.ting@example.com', 'contact-reply');
      expect(mail.subject).toBe('【山嵐茶事】回覆您的來信（C2026110300001）');
      expect(mail.meta).toMatchObject({ kind: 'contact-reply', replyTo: 'service@shanlan-tea.example' });
      expect(mail.text).toContain('王雅婷 您好：');
      expect(mail.text).toContain('您好，焙茶學徒的面試時間是 11/20 下午。');
      expect(mail.text).toContain('我有三年烘焙經驗');
      const [row] = await ctx.database.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'message.replied'))
        .orderBy(desc(auditLog.id));
      expect(row).toMatchObject({ actorEmail: 'staff@example.com', entityId: 'C2026110300001' });
    });

    it('refuses an empty reply beside the field, viewers and shoppers, and an unknown message, keeping nothing', async () => {
      const before = await repliesInDb();
      const empty = await reply('C2026110300001', { body: '   ' }, owner);
      expect(empty.statusCode).toBe(400);
      expect(empty.json().error.fields.body).toBe('請輸入回覆內容');
      expect(
        (await reply('C2026110300001', { body: 'x'.repeat(2001) }, owner)).json().error.fields.body,
      ).toBe('回覆內容最多 2000 個字');
      expect((await reply('C2026110300001', { body: '好的' }, viewer)).statusCode).toBe(403);
      expect((await reply('C2026110300001', { body: '好的' }, customer)).statusCode).toBe(403);
      expect((await reply('C2026110300001', { body: '好的' })).statusCode).toBe(401);
      expect((await reply('C2026010100099', { body: '好的' }, owner)).statusCode).toBe(404);
      expect(await repliesInDb()).toBe(before);
    });
  });
});
