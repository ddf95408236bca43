import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { createPool, postgresDatabase } from '../src/db/client.ts';
import { auditLog, cartItems, mailOutbox, orders, payments, productVariants } from '../src/db/schema.ts';
import { sendAbandonedCartReminders } from '../src/modules/cart/abandoned-cart.ts';
import { sendCardPaymentReminders } from '../src/modules/orders/payment-reminders.ts';
import { seedTestCatalog, setRole } from './fixtures.ts';
import { createTestDatabaseUrl, dbAvailable, dbEngine, testConfig, type TestContext } from './helpers.ts';
import { mailSettled } from './mail.ts';
import { ORIGIN, ecpayNotice, notifyPayment, shopWithStaff, shopper } from './shop.ts';

type Ctx = Pick<TestContext, 'app' | 'database'>;

/** Delivered mails of a kind to an address, once the outbox has sent everything asked for so far. */
async function mailsOf(ctx: Ctx, to: string, kind: string) {
  await ctx.app.outbox.drain();
  await mailSettled(ctx.database);
  return (await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to))).filter(
    (m) => m.meta.kind === kind,
  );
}

/** The hold ends in `minutes` (a card order placed 30 − minutes ago). */
async function holdEndsIn(ctx: Ctx, orderNo: string, minutes: number) {
  await ctx.database.db
    .update(orders)
    .set({ expiresAt: sql`now() + make_interval(mins => ${minutes}::int)` })
    .where(eq(orders.orderNo, orderNo));
}

/** The member's cart last changed `hours` ago. */
async function cartIdleFor(ctx: Ctx, userId: string, hours: number) {
  await ctx.database.db
    .update(cartItems)
    .set({ updatedAt: sql`now() - make_interval(secs => ${Math.round(hours * 3600)}::int)` })
    .where(eq(cartItems.userId, userId));
}

async function saveReminders(ctx: Ctx, cookie: string, body: Record<string, unknown>) {
  return ctx.app.inject({
    method: 'PUT',
    url: '/api/admin/settings/reminders',
    headers: { cookie, origin: ORIGIN },
    payload: {
      cardPayment: true,
      cardLeadMinutes: 10,
      atmTransfer: true,
      abandonedCart: true,
      abandonedCartHours: 24,
      ...body,
    },
  });
}

describe.skipIf(!dbAvailable())('reminder mails', () => {
  let ctx: TestContext;
  let variant: string;
  let ownerCookie: string;
  beforeAll(async () => {
    let staffCookie: string;
    ({ ctx, variant, staffCookie } = await shopWithStaff('reminders-owner@example.com'));
    await setRole(ctx.database, 'reminders-owner@example.com', 'owner');
    ownerCookie = staffCookie;
  });
  afterAll(async () => ctx.close());

  const cardOrder = async (email: string) => {
    const s = await shopper(ctx.app, email);
    await s.add(variant, 1);
    const res = await s.order({ paymentMethod: 'credit_card' });
    expect(res.statusCode, res.body).toBe(201);
    return { s, orderNo: (res.json() as { order: { orderNo: string } }).order.orderNo };
  };

  describe('card payment', () => {
    it('goes once when the hold is about to end, with the way back to pay; twice run, still once', async () => {
      const { orderNo } = await cardOrder('remind-card@example.com');
      await ctx.app.runReminderJobs();
      expect(await mailsOf(ctx, 'remind-card@example.com', 'card-payment-reminder')).toHaveLength(0);
      await holdEndsIn(ctx, orderNo, 8);
      await ctx.app.runReminderJobs();
      await ctx.app.runReminderJobs();
      const mails = await mailsOf(ctx, 'remind-card@example.com', 'card-payment-reminder');
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe(`【山嵐茶事】信用卡付款即將逾時：${orderNo}`);
      expect(mails[0]!.text).toContain('前往付款');
      expect(mails[0]!.meta.link).toBe(`http://localhost:3000/member/orderList/${orderNo}`);
      // Transactional: no unsubscribe header.
      expect(mails[0]!.meta.headers).toBeUndefined();
    });

    it('is not sent for an order paid meanwhile', async () => {
      const { orderNo } = await cardOrder('remind-paid@example.com');
      expect(await notifyPayment(ctx.app, ecpayNotice(orderNo, '1', '交易成功'))).toBe('1|OK');
      await holdEndsIn(ctx, orderNo, 5);
      await ctx.app.runReminderJobs();
      expect(await mailsOf(ctx, 'remind-paid@example.com', 'card-payment-reminder')).toHaveLength(0);
    });

    it('is not sent for an order the member cancelled', async () => {
      const { s, orderNo } = await cardOrder('remind-cancelled@example.com');
      expect((await s.call('POST', `/api/orders/${orderNo}/cancel`)).statusCode).toBe(200);
      await holdEndsIn(ctx, orderNo, 5);
      await ctx.app.runReminderJobs();
      expect(await mailsOf(ctx, 'remind-cancelled@example.com', 'card-payment-reminder')).toHaveLength(0);
    });

    it('is not sent while the owner has it off; the switch is audited', async () => {
      const off = await saveReminders(ctx, ownerCookie, { cardPayment: false });
      expect(off.statusCode, off.body).toBe(200);
      const [audit] = await ctx.database.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'reminders.settings'));
      expect(audit).toMatchObject({ entity: 'setting', entityId: 'reminders' });
      expect(audit!.after).toMatchObject({ cardPayment: false });
      try {
        const { orderNo } = await cardOrder('remind-off@example.com');
        await holdEndsIn(ctx, orderNo, 5);
        await ctx.app.runReminderJobs();
        expect(await mailsOf(ctx, 'remind-off@example.com', 'card-payment-reminder')).toHaveLength(0);
      } finally {
        expect((await saveReminders(ctx, ownerCookie, {})).statusCode).toBe(200);
      }
    });
  });

  describe('ATM transfer', () => {
    /** An ATM order with its account issued days ago, closing in `hours`. */
    const atmOrder = async (email: string, hours: number) => {
      const s = await shopper(ctx.app, email);
      await s.add(variant, 1);
      const res = await s.order({ paymentMethod: 'atm' });
      const orderNo = (res.json() as { order: { orderNo: string } }).order.orderNo;
      const info = await ctx.app.inject({
        method: 'POST',
        url: '/api/payments/ecpay/payment-info',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: ecpayNotice(orderNo, '2', 'Get VirtualAccount Succeeded', {
          PaymentType: 'ATM_TAISHIN',
          BankCode: '812',
          vAccount: '9103522175887271',
          ExpireDate: '2099/12/31',
        }),
      });
      expect(info.body).toBe('1|OK');
      const [order] = await ctx.database.db.select().from(orders).where(eq(orders.orderNo, orderNo));
      const [attempt] = await ctx.database.db.select().from(payments).where(eq(payments.orderId, order!.id));
      expect(attempt!.status).toBe('waiting_transfer');
      await ctx.database.db
        .update(payments)
        .set({ createdAt: sql`now() - interval '3 days'` })
        .where(eq(payments.orderId, order!.id));
      await ctx.database.db
        .update(orders)
        .set({ expiresAt: sql`now() + make_interval(hours => ${hours}::int)` })
        .where(eq(orders.id, order!.id));
      return { s, orderNo };
    };

    it('goes once a day before the deadline, with the account, the amount and the deadline', async () => {
      const { orderNo } = await atmOrder('remind-atm@example.com', 30);
      await ctx.app.runReminderJobs();
      expect(await mailsOf(ctx, 'remind-atm@example.com', 'atm-transfer-reminder')).toHaveLength(0);
      await ctx.database.db
        .update(orders)
        .set({ expiresAt: sql`now() + interval '20 hours'` })
        .where(eq(orders.orderNo, orderNo));
      await ctx.app.runReminderJobs();
      await ctx.app.runReminderJobs();
      const mails = await mailsOf(ctx, 'remind-atm@example.com', 'atm-transfer-reminder');
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe(`【山嵐茶事】ATM 轉帳期限將至：${orderNo}`);
      expect(mails[0]!.text).toContain('812 台新銀行');
      expect(mails[0]!.text).toContain('9103 5221 7588 7271');
      expect(mails[0]!.text).toContain('NT$600');
      expect(mails[0]!.text).toContain('2099/12/31 23:59');
      expect(mails[0]!.meta.headers).toBeUndefined();
    });

    it('is not sent once the transfer arrived', async () => {
      const { orderNo } = await atmOrder('remind-atm-paid@example.com', 40);
      expect(
        await notifyPayment(ctx.app, ecpayNotice(orderNo, '1', '交易成功', { PaymentType: 'ATM_TAISHIN' })),
      ).toBe('1|OK');
      const [paid] = await ctx.database.db.select().from(orders).where(eq(orders.orderNo, orderNo));
      expect(paid!.status).toBe('paid');
      await ctx.database.db
        .update(orders)
        .set({ expiresAt: sql`now() + interval '10 hours'` })
        .where(eq(orders.orderNo, orderNo));
      await ctx.app.runReminderJobs();
      expect(await mailsOf(ctx, 'remind-atm-paid@example.com', 'atm-transfer-reminder')).toHaveLength(0);
    });

    it('is not sent while the owner has it off', async () => {
      expect((await saveReminders(ctx, ownerCookie, { atmTransfer: false })).statusCode).toBe(200);
      try {
        await atmOrder('remind-atm-off@example.com', 10);
        await ctx.app.runReminderJobs();
        expect(await mailsOf(ctx, 'remind-atm-off@example.com', 'atm-transfer-reminder')).toHaveLength(0);
      } finally {
        expect((await saveReminders(ctx, ownerCookie, {})).statusCode).toBe(200);
      }
    });
  });

  describe('abandoned cart', () => {
    const consent = (cookie: string, granted: boolean) =>
      ctx.app.inject({
        method: 'PUT',
        url: '/api/me/marketing-consent',
        headers: { cookie, origin: ORIGIN },
        payload: { granted },
      });

    it('goes only to members who agreed to marketing mail, once per cart until it changes, with one-click unsubscribe', async () => {
      const yes = await shopper(ctx.app, 'cart-yes@example.com');
      const no = await shopper(ctx.app, 'cart-no@example.com');
      expect((await consent(yes.cookie, true)).json()).toMatchObject({ granted: true });
      for (const s of [yes, no]) {
        expect((await s.add(variant, 2)).statusCode).toBe(200);
        await cartIdleFor(ctx, s.uid, 23);
      }
      await ctx.app.runReminderJobs();
      expect(await mailsOf(ctx, 'cart-yes@example.com', 'abandoned-cart')).toHaveLength(0);

      for (const s of [yes, no]) await cartIdleFor(ctx, s.uid, 25);
      await ctx.app.runReminderJobs();
      await ctx.app.runReminderJobs();
      const mails = await mailsOf(ctx, 'cart-yes@example.com', 'abandoned-cart');
      expect(mails).toHaveLength(1);
      expect(await mailsOf(ctx, 'cart-no@example.com', 'abandoned-cart')).toHaveLength(0);
      const mail = mails[0]!;
      expect(mail.subject).toBe('【山嵐茶事】您的購物車還留著這些茶');
      expect(mail.text).toContain('×\u00a02');
      expect(mail.meta.link).toBe('http://localhost:3000/cart');
      const header = mail.meta.headers?.['List-Unsubscribe'] ?? '';
      expect(header).toMatch(/^<http:\/\/localhost:3000\/unsubscribe\/[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}>$/);
      expect(mail.meta.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
      expect(mail.html).toContain(header.slice(1, -1));

      // The cart changes: one more reminder once it has been idle again.
      expect((await yes.add(variant, 1)).statusCode).toBe(200);
      await cartIdleFor(ctx, yes.uid, 24.5);
      await ctx.app.runReminderJobs();
      expect(await mailsOf(ctx, 'cart-yes@example.com', 'abandoned-cart')).toHaveLength(2);

      // One POST with the one-click body, as a mail app sends it: unsubscribed, and no more reminders.
      const url = new URL(header.slice(1, -1));
      const res = await ctx.app.inject({
        method: 'POST',
        url: url.pathname,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(res.statusCode).toBe(200);
      expect((await yes.call('GET', '/api/me/marketing-consent')).json()).toMatchObject({ granted: false });
      expect((await yes.add(variant, 1)).statusCode).toBe(200);
      await cartIdleFor(ctx, yes.uid, 24.2);
      await ctx.app.runReminderJobs();
      expect(await mailsOf(ctx, 'cart-yes@example.com', 'abandoned-cart')).toHaveLength(2);
    });

    it('is not sent while the owner has it off, and waits the delay the owner set', async () => {
      const s = await shopper(ctx.app, 'cart-delay@example.com');
      expect((await consent(s.cookie, true)).statusCode).toBe(200);
      expect((await s.add(variant, 1)).statusCode).toBe(200);
      await cartIdleFor(ctx, s.uid, 30);
      expect((await saveReminders(ctx, ownerCookie, { abandonedCart: false })).statusCode).toBe(200);
      await ctx.app.runReminderJobs();
      expect(await mailsOf(ctx, 'cart-delay@example.com', 'abandoned-cart')).toHaveLength(0);
      expect(
        (await saveReminders(ctx, ownerCookie, { abandonedCart: true, abandonedCartHours: 48 })).statusCode,
      ).toBe(200);
      await ctx.app.runReminderJobs();
      expect(await mailsOf(ctx, 'cart-delay@example.com', 'abandoned-cart')).toHaveLength(0);
      expect((await saveReminders(ctx, ownerCookie, { abandonedCartHours: 6 })).statusCode).toBe(200);
      await ctx.app.runReminderJobs();
      expect(await mailsOf(ctx, 'cart-delay@example.com', 'abandoned-cart')).toHaveLength(1);
      expect((await saveReminders(ctx, ownerCookie, {})).statusCode).toBe(200);
    });
  });

  describe('the console settings', () => {
    it('refuses a lead time the hold cannot give, with a message beside the field, and changes nothing', async () => {
      const before = (
        await ctx.app.inject({
          method: 'GET',
          url: '/api/admin/settings/reminders',
          headers: { cookie: ownerCookie },
        })
      ).json();
      const res = await saveReminders(ctx, ownerCookie, { cardLeadMinutes: 30, abandonedCartHours: 0 });
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(res.json())).toContain('最多 20 分鐘');
      expect(JSON.stringify(res.json())).toContain('至少 1 小時');
      const after = (
        await ctx.app.inject({
          method: 'GET',
          url: '/api/admin/settings/reminders',
          headers: { cookie: ownerCookie },
        })
      ).json();
      expect(after).toEqual(before);
    });

    it('reads with the defaults until saved; a shopper may not change them', async () => {
      const shopperOne = await shopper(ctx.app, 'not-staff@example.com');
      const res = await saveReminders(ctx, shopperOne.cookie, { cardPayment: false });
      expect(res.statusCode).toBe(403);
    });
  });
});

// Several instances share one PostgreSQL; an embedded database belongs to one process only.
describe.skipIf(!dbAvailable() || dbEngine() !== 'postgres')('reminders on two instances', () => {
  const apps: Ctx[] = [];
  let variant = '';
  beforeAll(async () => {
    const url = await createTestDatabaseUrl();
    for (let i = 0; i < 2; i += 1) {
      const database = postgresDatabase(createPool(url, { max: 10 }));
      const app = await buildApp({ config: testConfig(), database, closeDatabase: false });
      await app.ready();
      apps.push({ app, database });
    }
    await seedTestCatalog(apps[0]!.database);
    const [row] = await apps[0]!.database.db
      .select({ id: productVariants.id })
      .from(productVariants)
      .where(eq(productVariants.sku, 'DD-S'));
    variant = row!.id;
  });
  afterAll(async () => {
    for (const a of apps) {
      await a.app.close();
      await a.database.close();
    }
  });

  it('each reminder goes once, whether the jobs run on both at once or their work runs on both at once', async () => {
    const [a, b] = [apps[0]!, apps[1]!];
    const s = await shopper(a.app, 'two-card@example.com');
    await s.add(variant, 1);
    const orderNo = (await s.order({ paymentMethod: 'credit_card' })).json().order.orderNo as string;
    await holdEndsIn(a, orderNo, 5);
    const cart = await shopper(b.app, 'two-cart@example.com');
    await b.app.inject({
      method: 'PUT',
      url: '/api/me/marketing-consent',
      headers: { cookie: cart.cookie, origin: ORIGIN },
      payload: { granted: true },
    });
    await cart.add(variant, 1);
    await cartIdleFor(a, cart.uid, 25);

    // The scheduled jobs, at the same moment on both instances, twice.
    await Promise.all([a.app.runReminderJobs(), b.app.runReminderJobs()]);
    await Promise.all([a.app.runReminderJobs(), b.app.runReminderJobs()]);
    expect(await mailsOf(a, 'two-card@example.com', 'card-payment-reminder')).toHaveLength(1);
    expect(await mailsOf(a, 'two-cart@example.com', 'abandoned-cart')).toHaveLength(1);

    // Without the jobs' lock: the claims alone keep it to one.
    const s2 = await shopper(a.app, 'two-card-2@example.com');
    await s2.add(variant, 1);
    const second = (await s2.order({ paymentMethod: 'credit_card' })).json().order.orderNo as string;
    await holdEndsIn(a, second, 5);
    const cart2 = await shopper(a.app, 'two-cart-2@example.com');
    await a.app.inject({
      method: 'PUT',
      url: '/api/me/marketing-consent',
      headers: { cookie: cart2.cookie, origin: ORIGIN },
      payload: { granted: true },
    });
    await cart2.add(variant, 1);
    await cartIdleFor(a, cart2.uid, 25);
    const deps = (c: Ctx) => ({
      db: c.app.db,
      mailer: c.app.mailer,
      publicUrl: 'http://localhost:3000',
      mailLinkSecret: c.app.config.mailLinkSecret,
    });
    const card = await Promise.all(
      [a, b, a, b].map((c) => sendCardPaymentReminders(deps(c), { enabled: true, leadMinutes: 10 })),
    );
    const carts = await Promise.all(
      [a, b, a, b].map((c) => sendAbandonedCartReminders(deps(c), { enabled: true, delayHours: 24 })),
    );
    expect(card.reduce((x, y) => x + y, 0)).toBe(1);
    expect(carts.reduce((x, y) => x + y, 0)).toBe(1);
    expect(await mailsOf(a, 'two-card-2@example.com', 'card-payment-reminder')).toHaveLength(1);
    expect(await mailsOf(b, 'two-cart-2@example.com', 'abandoned-cart')).toHaveLength(1);
  });
});
