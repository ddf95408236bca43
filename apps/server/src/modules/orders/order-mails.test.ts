import { eq } from 'drizzle-orm';
import { BRAND } from '@shop/shared/brand';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbAvailable, signIn, type TestContext } from '../../../test/helpers.ts';
import { latestMail, mailSettled } from '../../../test/mail.ts';
import { ORIGIN, ecpayNotice, notifyPayment, shopWithStaff, shopper } from '../../../test/shop.ts';
import { setRole } from '../../../test/fixtures.ts';
import { enqueueDailyDigest } from './digest.ts';
import { mailOutbox, orders, outboxMessages, productVariants } from '../../db/schema.ts';

const SHOP_INBOX = BRAND.email;

/** The mails of an order's whole life, each written with its change (the outbox) and sent once. */
describe.skipIf(!dbAvailable())('order mails', () => {
  let ctx: TestContext;
  let variant: string;
  let staffCookie: string;
  beforeAll(async () => {
    ({ ctx, variant, staffCookie } = await shopWithStaff('mails-staff@example.com'));
  });
  afterAll(async () => ctx.close());

  const notify = (orderNo: string, rtnCode: string, rtnMsg: string) =>
    notifyPayment(ctx.app, ecpayNotice(orderNo, rtnCode, rtnMsg));
  const staff = (orderNo: string, body: Record<string, unknown>) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${orderNo}/actions`,
      headers: { cookie: staffCookie, origin: ORIGIN },
      payload: body,
    });
  /** A card order of one 480 tin (600 with shipping) by a new member. */
  const cardOrder = async (email: string) => {
    const s = await shopper(ctx.app, email);
    await s.add(variant, 1);
    const res = await s.order({ paymentMethod: 'credit_card' });
    expect(res.statusCode).toBe(201);
    return { s, orderNo: (res.json() as { order: { orderNo: string } }).order.orderNo };
  };
  const mailsTo = async (to: string) =>
    (
      await ctx.database.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.toAddress, to))
        .orderBy(mailOutbox.id)
    ).map((m) => m.meta.kind);
  /** Everything the outbox holds has been delivered. */
  const settled = async () => {
    await ctx.app.outbox.drain();
    await mailSettled(ctx.database);
  };

  it('a failed card payment, then the member cancels: one mail for each, saying what happened', async () => {
    const { s, orderNo } = await cardOrder('mails-failed@example.com');
    expect(await notify(orderNo, '10100058', '交易失敗')).toBe('1|OK');
    const failed = await latestMail(ctx.database, 'mails-failed@example.com', 'payment-failed');
    expect(failed.subject).toBe(`【山嵐茶事】付款未完成：${orderNo}`);
    expect(failed.text).toContain('重新付款');
    expect((await s.call('POST', `/api/orders/${orderNo}/cancel`)).statusCode).toBe(200);
    const cancelled = await latestMail(ctx.database, 'mails-failed@example.com', 'order-cancelled');
    expect(cancelled.text).toContain(`您已取消訂單 ${orderNo}。`);
    expect(cancelled.text).toContain('這筆訂單尚未付款，不會向您收取任何費用。');
    await settled();
    expect(await mailsTo('mails-failed@example.com')).toEqual([
      'order-placed',
      'payment-failed',
      'order-cancelled',
    ]);
  });

  it('a paid order: the member is told once however often ECPay repeats the notice, and the shop hears of the order once', async () => {
    const { orderNo } = await cardOrder('mails-paid@example.com');
    for (let i = 0; i < 3; i += 1) expect(await notify(orderNo, '1', '交易成功')).toBe('1|OK');
    await settled();
    // The invoice follows the payment (its own mail, e-invoices.test.ts).
    expect(await mailsTo('mails-paid@example.com')).toEqual(['order-placed', 'order-paid', 'invoice-issued']);
    const shop = (
      await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, SHOP_INBOX))
    ).filter((m) => m.subject.includes(orderNo));
    expect(shop).toHaveLength(1);
    expect(shop[0]!.subject).toBe(`【山嵐茶事】新訂單 ${orderNo}：NT$600`);
    expect(shop[0]!.meta.link).toBe(`http://localhost:3000/admin/orders/${orderNo}`);

    // Staff cancel the paid order with a reason: the member reads the reason and that the money comes back.
    const res = await staff(orderNo, { action: 'cancel', reason: '商品包裝破損，無法出貨' });
    expect(res.statusCode).toBe(200);
    const cancelled = await latestMail(ctx.database, 'mails-paid@example.com', 'order-cancelled');
    expect(cancelled.text).toContain(`訂單 ${orderNo} 已由山嵐茶事取消，原因是商品包裝破損，無法出貨。`);
    expect(cancelled.text).toContain('已付的 NT$600 會退還給您');
  });

  it('delivered and refunded each mail the member', async () => {
    const s = await shopper(ctx.app, 'mails-cod@example.com');
    await s.add(variant, 1);
    const orderNo = ((await s.order()).json() as { order: { orderNo: string } }).order.orderNo;
    // Cash on delivery is an order to fulfil at once: the shop hears of it when placed.
    await settled();
    expect(
      (await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, SHOP_INBOX))).some(
        (m) => m.subject.includes(orderNo),
      ),
    ).toBe(true);
    expect(
      (await staff(orderNo, { action: 'ship', carrier: '黑貓宅急便', trackingNo: '9012345678' })).statusCode,
    ).toBe(200);
    expect((await staff(orderNo, { action: 'deliver' })).statusCode).toBe(200);
    expect((await latestMail(ctx.database, 'mails-cod@example.com', 'order-delivered')).subject).toBe(
      `【山嵐茶事】商品已送達：${orderNo}`,
    );
    expect((await staff(orderNo, { action: 'refund', reason: '買家退貨' })).statusCode).toBe(200);
    // Cash on delivery is paid back by transfer: the member is asked for an account, and told again once staff made it.
    expect((await latestMail(ctx.database, 'mails-cod@example.com', 'refund-transfer')).text).toContain(
      `訂單 ${orderNo} 已辦理退款，款項會以銀行轉帳退還給您。`,
    );
    const put = await ctx.app.inject({
      method: 'PUT',
      url: `/api/orders/${orderNo}/refund-account`,
      headers: { cookie: s.cookie, origin: ORIGIN },
      payload: { bankCode: '808', account: '0123456789012', holder: '林小嵐' },
    });
    expect(put.statusCode).toBe(200);
    const task = (
      (
        await ctx.app.inject({
          method: 'GET',
          url: '/api/admin/refunds/transfers',
          headers: { cookie: staffCookie },
        })
      ).json() as { items: Array<{ id: string; orderNo: string }> }
    ).items.find((t) => t.orderNo === orderNo)!;
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: `/api/admin/refunds/${task.id}/done`,
          headers: { cookie: staffCookie, origin: ORIGIN },
          payload: {},
        })
      ).statusCode,
    ).toBe(200);
    expect((await latestMail(ctx.database, 'mails-cod@example.com', 'order-refunded')).text).toContain(
      `訂單 ${orderNo} 的退款 NT$630 已辦理完成。`,
    );
    await settled();
    // Cash on delivery is invoiced on delivery, and the invoice is voided with the refund (each in the background).
    expect((await mailsTo('mails-cod@example.com')).sort()).toEqual([
      'invoice-issued',
      'invoice-voided',
      'order-delivered',
      'order-placed',
      'order-refunded',
      'order-shipped',
      'refund-transfer',
    ]);
  });

  it('an unpaid order that runs out of time is mailed as expired', async () => {
    const { orderNo } = await cardOrder('mails-expired@example.com');
    await ctx.database.db
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(orders.orderNo, orderNo));
    await ctx.app.sweepExpiredOrders();
    expect((await latestMail(ctx.database, 'mails-expired@example.com', 'order-expired')).subject).toBe(
      `【山嵐茶事】訂單已逾期取消：${orderNo}`,
    );
  });

  it('a change that is refused writes no mail', async () => {
    const s = await shopper(ctx.app, 'mails-refused@example.com');
    await ctx.database.db.update(productVariants).set({ stock: 0 }).where(eq(productVariants.id, variant));
    try {
      expect((await s.add(variant, 1)).statusCode).toBe(409);
      const before = await ctx.database.db.select().from(outboxMessages);
      expect((await s.order()).statusCode).toBe(409);
      expect(await ctx.database.db.select().from(outboxMessages)).toHaveLength(before.length);
    } finally {
      await ctx.database.db
        .update(productVariants)
        .set({ stock: 100 })
        .where(eq(productVariants.id, variant));
    }
  });

  describe("the shop's own mails", () => {
    let ownerCookie: string;
    beforeAll(async () => {
      ownerCookie = (await signIn(ctx.app, 'mails-owner@example.com')).cookie;
      await setRole(ctx.database, 'mails-owner@example.com', 'owner');
    });
    const settings = (cookie: string, body?: object) =>
      ctx.app.inject({
        method: body ? 'PUT' : 'GET',
        url: '/api/admin/settings/notifications',
        headers: { cookie, origin: ORIGIN },
        ...(body ? { payload: body } : {}),
      });
    const digests = async () =>
      (await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, SHOP_INBOX))).filter(
        (m) => m.meta.kind === 'shop-daily-digest',
      );
    const deps = () => ({
      db: ctx.app.db,
      mailer: ctx.app.mailer,
      publicUrl: 'http://localhost:3000',
      shopNotifyEmail: SHOP_INBOX,
    });

    it('a morning digest of the day before, once however often it is asked for, from 08:00 Taipei', async () => {
      // 07:30 in Taipei: not yet.
      expect(await enqueueDailyDigest(deps(), new Date('2026-11-26T23:30:00Z'))).toBe(false);
      const at = new Date('2026-11-27T01:00:00Z'); // 09:00 on 27 November in Taipei
      expect(await enqueueDailyDigest(deps(), at)).toBe(true);
      expect(await enqueueDailyDigest(deps(), new Date(at.getTime() + 3600_000))).toBe(true);
      await mailSettled(ctx.database);
      const sent = await digests();
      expect(sent).toHaveLength(1);
      expect(sent[0]!.subject).toBe('【山嵐茶事】每日摘要：2026-11-26');
      expect(sent[0]!.text).toMatch(/昨天（2026-11-26）完成付款的訂單 \d+ 筆/);
    });

    it('the owner switches the new-order mail and the digest off; staff may only read the switches', async () => {
      expect((await settings(staffCookie)).json()).toEqual({ newOrderMail: true, dailyDigest: true });
      expect((await settings(staffCookie, { newOrderMail: false, dailyDigest: false })).statusCode).toBe(403);
      expect((await settings(ownerCookie, { newOrderMail: false })).statusCode).toBe(400);
      expect((await settings(ownerCookie, { newOrderMail: false, dailyDigest: false })).json()).toEqual({
        newOrderMail: false,
        dailyDigest: false,
      });
      const s = await shopper(ctx.app, 'mails-quiet@example.com');
      await s.add(variant, 1);
      const orderNo = ((await s.order()).json() as { order: { orderNo: string } }).order.orderNo;
      await mailSettled(ctx.database);
      expect(
        (await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, SHOP_INBOX))).some(
          (m) => m.subject.includes(orderNo),
        ),
      ).toBe(false);
      expect(await enqueueDailyDigest(deps(), new Date('2026-11-28T01:00:00Z'))).toBe(false);
      expect((await settings(ownerCookie, { newOrderMail: true, dailyDigest: true })).statusCode).toBe(200);
    });
  });
});
