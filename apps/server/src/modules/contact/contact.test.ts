import { and, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BRAND } from '@shop/shared/brand';
import { createTestApp, dbAvailable, type TestContext } from '../../../test/helpers.ts';
import { mailCount } from '../../../test/mail.ts';
import { ORIGIN } from '../../../test/shop.ts';
import { contactMessages, mailOutbox } from '../../db/schema.ts';

/** The calendar day in Taipei as YYYYMMDD, for reference numbers. */
const taipeiDay = (at: number) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Asia/Taipei',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  })
    .format(new Date(at))
    .replaceAll('-', '');

/** Where the shop reads its notices in tests (SHOP_NOTIFY_EMAIL's default outside production). */
const SHOP_INBOX = BRAND.email;

describe.skipIf(!dbAvailable())('contact form API', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Each test sends from its own address, so the per-IP limit never couples tests. */
  let lastIp = 0;
  const nextIp = () => `203.0.113.${++lastIp}`;

  const form = (overrides: Record<string, unknown> = {}) => ({
    name: '林小嵐',
    email: 'Lan.Lin@Example.com',
    phone: '0912-345-678',
    subject: '商品諮詢',
    message: '請問凍頂烏龍適合冷泡嗎？想買來送長輩。',
    consent: true,
    website: '',
    startedAt: Date.now() - 60_000,
    ...overrides,
  });
  const send = (payload: Record<string, unknown>, ip: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/contact',
      remoteAddress: ip,
      headers: { origin: ORIGIN },
      payload,
    });
  const stored = (referenceNo: string) =>
    ctx.database.db.select().from(contactMessages).where(eq(contactMessages.referenceNo, referenceNo));
  /** The shop's mail about one message; mail is sent in the background, so wait for it briefly. */
  const mailAbout = async (referenceNo: string) => {
    const until = Date.now() + 3_000;
    for (;;) {
      const [mail] = await ctx.database.db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.toAddress, SHOP_INBOX), like(mailOutbox.subject, `%${referenceNo}%`)));
      if (mail) return mail;
      if (Date.now() > until) throw new Error(`no mail about ${referenceNo}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const storedCount = async () =>
    (await ctx.database.db.select({ id: contactMessages.id }).from(contactMessages)).length;
  /** Waits until every stored message has its one mail (earlier tests do not wait for theirs). */
  const mailsSettled = async () => {
    const until = Date.now() + 3_000;
    while ((await mailCount(ctx.database, SHOP_INBOX)) !== (await storedCount())) {
      if (Date.now() > until) throw new Error('stored messages and mails to the shop do not match');
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  describe('a message from a person', () => {
    it('is stored with a reference number C + Taipei date + 5-digit sequence, and answered with no-store', async () => {
      const ip = nextIp();
      const before = Date.now();
      const res = await send(form(), ip);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const { referenceNo } = res.json() as { referenceNo: string };
      expect(referenceNo).toMatch(/^C\d{8}\d{5}$/);
      expect([taipeiDay(before), taipeiDay(Date.now())]).toContain(referenceNo.slice(1, 9));

      const [row] = await stored(referenceNo);
      expect(row).toMatchObject({
        name: '林小嵐',
        email: 'lan.lin@example.com',
        phone: '0912-345-678',
        subject: '商品諮詢',
        message: '請問凍頂烏龍適合冷泡嗎？想買來送長輩。',
        jobSlug: null,
        ip,
        handledAt: null,
      });
    });

    it('numbers messages one after another', async () => {
      const ip = nextIp();
      const a = (await send(form(), ip)).json().referenceNo as string;
      const b = (await send(form(), ip)).json().referenceNo as string;
      expect(Number(b.slice(-5))).toBe(Number(a.slice(-5)) + 1);
    });

    it('keeps an empty phone as null and remembers the job applied for', async () => {
      const res = await send(
        form({ phone: '', subject: '應徵工作', jobSlug: 'roasting-apprentice' }),
        nextIp(),
      );
      expect(res.statusCode, res.body).toBe(200);
      const [row] = await stored(res.json().referenceNo);
      expect(row).toMatchObject({ phone: null, subject: '應徵工作', jobSlug: 'roasting-apprentice' });
    });

    it('is mailed to the shop with the reference number in the subject, the sender’s words escaped in HTML', async () => {
      const message = '收到的茶罐有 <b>凹痕</b>，請問可以換貨嗎？ & 謝謝';
      const res = await send(form({ subject: '訂單與配送', message, name: '陳先生' }), nextIp());
      const { referenceNo } = res.json() as { referenceNo: string };
      const mail = await mailAbout(referenceNo);
      expect(mail.meta.kind).toBe('contact');
      // Answering the mail answers the sender.
      expect(mail.meta.replyTo).toBe('lan.lin@example.com');
      expect(mail.subject).toBe(`【${BRAND.name}】客服來信 ${referenceNo}：訂單與配送`);
      expect(mail.text).toContain(message);
      expect(mail.text).toContain('陳先生（Lan.Lin@Example.com，0912-345-678）來信：');
      expect(mail.html).toContain('收到的茶罐有 &lt;b&gt;凹痕&lt;/b&gt;，請問可以換貨嗎？ &amp; 謝謝');
      expect(mail.html).not.toContain('<b>凹痕</b>');
    });
  });

  describe('the sender', () => {
    it('gets a 已收到您的來信 mail with the reference number, without their message repeated', async () => {
      const message = '請問凍頂烏龍適合冷泡嗎？想買來送長輩。請點 http://spam.example';
      const res = await send(form({ message, name: '陳先生', email: 'Chen@Example.com' }), nextIp());
      const { referenceNo } = res.json() as { referenceNo: string };
      const until = Date.now() + 3_000;
      let mail: typeof mailOutbox.$inferSelect | undefined;
      while (!mail) {
        [mail] = await ctx.database.db
          .select()
          .from(mailOutbox)
          .where(
            and(eq(mailOutbox.toAddress, 'chen@example.com'), like(mailOutbox.subject, `%${referenceNo}%`)),
          );
        if (!mail && Date.now() > until) throw new Error('no acknowledgement');
        if (!mail) await new Promise((r) => setTimeout(r, 20));
      }
      expect(mail.subject).toBe(`【${BRAND.name}】已收到您的來信（${referenceNo}）`);
      expect(mail.meta.kind).toBe('contact-received');
      expect(mail.meta.replyTo).toBe(SHOP_INBOX);
      expect(mail.text).toContain('陳先生 您好，謝謝您來信詢問「商品諮詢」。');
      expect(mail.text).toContain(`您的來信編號是 ${referenceNo}`);
      expect(mail.text).not.toContain('spam.example');
      expect(mail.text).not.toContain('凍頂烏龍');
    });
  });

  describe('bots', () => {
    it('answer a filled honeypot with a believable reference number but store and mail nothing', async () => {
      await mailsSettled();
      const messagesBefore = await storedCount();
      const mailsBefore = await mailCount(ctx.database, SHOP_INBOX);
      const bot = await send(
        form({ website: 'https://spam.example', message: '便宜的廣告，請點擊連結購買！！' }),
        nextIp(),
      );
      expect(bot.statusCode).toBe(200);
      expect(bot.json().referenceNo).toMatch(/^C\d{13}$/);
      expect(await storedCount()).toBe(messagesBefore);

      // A real message afterwards: once its mail is in, the outbox grew by exactly that one.
      const real = (await send(form(), nextIp())).json().referenceNo as string;
      await mailAbout(real);
      expect(await mailCount(ctx.database, SHOP_INBOX)).toBe(mailsBefore + 1);
      expect(await storedCount()).toBe(messagesBefore + 1);
    });

    it('get a fake reference dated like a real one (the Taipei day, even when UTC is still on the day before)', async () => {
      // 01:30 in Taipei on 2 March is 17:30 UTC on 1 March.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2026-03-01T17:30:00Z'));
      const bot = await send(form({ website: 'x', startedAt: Date.now() - 60_000 }), nextIp());
      const real = await send(form({ startedAt: Date.now() - 60_000 }), nextIp());
      vi.useRealTimers();
      expect(real.json().referenceNo.slice(0, 9)).toBe('C20260302');
      expect(bot.json().referenceNo.slice(0, 9)).toBe('C20260302');
    });

    it('are refused when the form is sent within 3 seconds of being shown', async () => {
      const before = await storedCount();
      const res = await send(form({ startedAt: Date.now() - 1_000 }), nextIp());
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toEqual({
        code: 'too-fast',
        message: '送出得太快了，請確認內容後再按一次送出。',
      });
      expect(await storedCount()).toBe(before);
    });

    it('are refused when the form claims to have been shown in the future', async () => {
      const res = await send(form({ startedAt: Date.now() + 60_000 }), nextIp());
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('too-fast');
    });

    it('pass after a little over 3 seconds', async () => {
      const res = await send(form({ startedAt: Date.now() - 3_100 }), nextIp());
      expect(res.statusCode, res.body).toBe(200);
    });
  });

  describe('rate limit', () => {
    it('allows 5 messages an hour from one address, then answers 429 with Retry-After', async () => {
      const ip = nextIp();
      for (let i = 1; i <= 5; i++) expect((await send(form(), ip)).statusCode, `message ${i}`).toBe(200);
      const before = await storedCount();
      const sixth = await send(form(), ip);
      expect(sixth.statusCode).toBe(429);
      expect(sixth.json().error.code).toBe('too-many-requests');
      const retryAfter = Number(sixth.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(3_500);
      expect(retryAfter).toBeLessThanOrEqual(3_600);
      expect(await storedCount()).toBe(before);
      // Another address is not affected.
      expect((await send(form(), nextIp())).statusCode).toBe(200);
    });
  });

  describe('validation', () => {
    it.each([
      ['an empty name', { name: '  ' }, 'name', '姓名為必填欄位'],
      ['a missing name', { name: undefined }, 'name', '姓名為必填欄位'],
      ['an invalid email', { email: 'lan@' }, 'email', '電子郵件必須是有效的電子郵件地址'],
      ['a malformed phone number', { phone: 'call me' }, 'phone', '電話號碼格式不正確'],
      ['an unknown subject', { subject: '抱怨' }, 'subject', '請選擇詢問類別'],
      ['a message under 10 characters', { message: '你好' }, 'message', '訊息內容不能少於 10 個字元'],
      [
        'a message over 2000 characters',
        { message: '茶'.repeat(2001) },
        'message',
        '訊息內容不能超過 2000 個字元',
      ],
      ['consent not given', { consent: false }, 'consent', '請閱讀並同意隱私權政策'],
    ])('refuses %s with a zh-TW message for the field', async (_what, overrides, field, message) => {
      const before = await storedCount();
      const res = await send(form(overrides), nextIp());
      expect(res.statusCode).toBe(400);
      const { error } = res.json() as {
        error: { code: string; message: string; fields: Record<string, string> };
      };
      expect(error.code).toBe('invalid-argument');
      expect(error.fields[field]).toBe(message);
      expect(error.message).toBe(`${message}。`);
      expect(await storedCount()).toBe(before);
    });

    it('names every invalid field at once', async () => {
      const res = await send(form({ name: '', email: 'nope', consent: false }), nextIp());
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().error.fields).sort()).toEqual(['consent', 'email', 'name']);
    });

    it('refuses fields it does not know', async () => {
      const res = await send(form({ admin: true }), nextIp());
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('invalid-argument');
    });

    it('refuses a malformed job slug and a missing startedAt', async () => {
      expect((await send(form({ jobSlug: '../etc' }), nextIp())).json().error.fields.jobSlug).toBeTruthy();
      const missing = await send(form({ startedAt: undefined }), nextIp());
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error.fields.startedAt).toBeTruthy();
    });
  });
});
