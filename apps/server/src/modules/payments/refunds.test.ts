import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbAvailable, type TestContext } from '../../../test/helpers.ts';
import { latestMail, mailSettled } from '../../../test/mail.ts';
import { ORIGIN, ecpayNotice, notifyPayment, shopWithStaff, shopper } from '../../../test/shop.ts';
import { orders, outboxMessages, refunds } from '../../db/schema.ts';
import { authoriseTrade } from './sandbox/card-action.ts';
import { dbTrades } from './sandbox/index.ts';
import { refundFollowUp } from './refunds.ts';

/** Card refunds through the real app, its outbox and the built-in ECPay card sandbox. */
describe.skipIf(!dbAvailable())('card refunds', () => {
  let ctx: TestContext;
  let variant: string;
  let staffCookie: string;
  beforeAll(async () => {
    ({ ctx, variant, staffCookie } = await shopWithStaff('refund-staff@example.com'));
  });
  afterAll(async () => ctx.close());

  const staff = (orderNo: string, body: Record<string, unknown>) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${orderNo}/actions`,
      headers: { cookie: staffCookie, origin: ORIGIN },
      payload: body,
    });
  const trades = () => dbTrades(ctx.app.db);

  /** A card order of 600, paid at the sandbox: the card is authorised there and the paid notice carries its gwsr. */
  const paidCardOrder = async (email: string) => {
    const s = await shopper(ctx.app, email);
    await s.add(variant, 1);
    const orderNo = (
      (await s.order({ paymentMethod: 'credit_card' })).json() as { order: { orderNo: string } }
    ).order.orderNo;
    const tradeNo = `T${orderNo.slice(-12)}`;
    const gwsr = String(10_000_000 + Math.floor(Math.random() * 80_000_000));
    await authoriseTrade(trades(), { merchantTradeNo: `${orderNo}P1`, tradeNo, gwsr, amount: 600 });
    expect(
      await notifyPayment(ctx.app, ecpayNotice(orderNo, '1', '交易成功', { TradeNo: tradeNo, gwsr })),
    ).toBe('1|OK');
    await ctx.app.outbox.drain();
    return { s, orderNo, tradeNo };
  };

  it('staff refunding a paid card order pays it back through ECPay, once, and only then tells the member', async () => {
    const { s, orderNo, tradeNo } = await paidCardOrder('refund-card@example.com');
    const res = await staff(orderNo, { action: 'refund', reason: '商品瑕疵' });
    expect(res.statusCode).toBe(200);
    await ctx.app.outbox.drain();
    await mailSettled(ctx.database);
    const detail = (await s.call('GET', `/api/orders/${orderNo}`)).json() as {
      status: string;
      refunds: Array<{ method: string; amount: number; status: string }>;
      issuedInvoice: { status: string };
    };
    expect(detail.status).toBe('refunded');
    expect(detail.refunds).toMatchObject([{ method: 'card', amount: 600, status: 'done' }]);
    // The sandbox settled the payment at once, so the money went back by R (退刷).
    expect(await trades().get(tradeNo)).toMatchObject({ refunded: 600, closedAmount: 0 });
    expect(
      (
        await ctx.database.db
          .select()
          .from(refunds)
          .where(
            eq(
              refunds.orderId,
              (await ctx.database.db.select().from(orders).where(eq(orders.orderNo, orderNo)))[0]!.id,
            ),
          )
      )[0]?.result,
    ).toMatch(/^R：/);
    const mail = await latestMail(ctx.database, 'refund-card@example.com', 'order-refunded');
    expect(mail.text).toContain(`訂單 ${orderNo} 的退款 NT$600 已辦理完成。`);
    expect(mail.text).toContain('信用卡退款會退回原付款卡片');
    // The invoice of the refunded sale is voided.
    expect(detail.issuedInvoice.status).toBe('void');
    // A second refund of the same order is refused, and ECPay is not asked again.
    expect((await staff(orderNo, { action: 'refund', reason: '再退一次' })).statusCode).toBe(409);
    const order = (await ctx.database.db.select().from(orders).where(eq(orders.orderNo, orderNo)))[0]!;
    expect(await ctx.database.db.transaction((tx) => refundFollowUp(tx, order, 'refunded', '再退一次'))).toBe(
      false,
    );
    expect(await ctx.database.db.select().from(refunds).where(eq(refunds.orderId, order.id))).toHaveLength(1);
  });

  it('staff cancelling a paid card order refunds it in the same action', async () => {
    const { s, orderNo, tradeNo } = await paidCardOrder('refund-cancel@example.com');
    expect((await staff(orderNo, { action: 'cancel', reason: '缺貨' })).statusCode).toBe(200);
    await ctx.app.outbox.drain();
    await mailSettled(ctx.database);
    expect(
      ((await s.call('GET', `/api/orders/${orderNo}`)).json() as { refunds: unknown[] }).refunds,
    ).toMatchObject([{ amount: 600, status: 'done', reason: '店家取消訂單：缺貨' }]);
    expect((await trades().get(tradeNo))?.refunded).toBe(600);
  });

  it('a refund ECPay refuses waits in the console with why, and the member is not told it went through', async () => {
    const { orderNo, tradeNo } = await paidCardOrder('refund-refused@example.com');
    // The trade was given up at ECPay behind the shop's back: nothing is left to refund.
    const trade = (await trades().get(tradeNo))!;
    await trades().set({ ...trade, state: 'abandoned', closedAmount: 0 });
    expect((await staff(orderNo, { action: 'refund', reason: '測試' })).statusCode).toBe(200);
    await ctx.app.outbox.drain();
    const order = (await ctx.database.db.select().from(orders).where(eq(orders.orderNo, orderNo)))[0]!;
    const refund = (await ctx.database.db.select().from(refunds).where(eq(refunds.orderId, order.id)))[0]!;
    expect(refund.status).toBe('pending');
    const message = (
      await ctx.database.db
        .select()
        .from(outboxMessages)
        .where(eq(outboxMessages.key, `payment.refund:${refund.id}`))
    )[0];
    expect(message).toMatchObject({ status: 'failed', lastError: '這筆刷卡的授權已取消，沒有可退的金額。' });
    await mailSettled(ctx.database);
    await expect(
      latestMail(ctx.database, 'refund-refused@example.com', 'order-refunded', 200),
    ).rejects.toThrow();
  });
});
