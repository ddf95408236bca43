import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderDetail } from '@shop/shared/orders';
import { formatTwd } from '@shop/shared/money';
import { taipeiDay } from '@shop/shared/taipei-time';
import { mailOutbox } from '../src/db/schema.ts';
import { dashboard } from '../src/modules/dashboard/service.ts';
import { listMembers } from '../src/modules/membership/admin-service.ts';
import { membership } from '../src/modules/membership/service.ts';
import { enqueueDailyDigest } from '../src/modules/orders/digest.ts';
import { authoriseTrade } from '../src/modules/payments/sandbox/card-action.ts';
import { dbTrades } from '../src/modules/payments/sandbox/index.ts';
import { dbAvailable, type TestContext } from './helpers.ts';
import { mailSettled } from './mail.ts';
import { ORIGIN, ecpayNotice, notifyPayment, shopWithStaff, shopper } from './shop.ts';

/**
 * The money words (docs/product-rules.md, "Money words") give one answer wherever money is
 * counted: the member's tier spend, the console's member list, the dashboard and the morning digest.
 */
describe.skipIf(!dbAvailable())('money rules', () => {
  let ctx: TestContext;
  let variant: string;
  let staffCookie: string;
  beforeAll(async () => {
    ({ ctx, variant, staffCookie } = await shopWithStaff('money-staff@example.com'));
  });
  afterAll(async () => ctx.close());

  const staff = async (url: string, payload: object) => {
    const res = await ctx.app.inject({
      method: 'POST',
      url,
      headers: { cookie: staffCookie, origin: ORIGIN },
      payload,
    });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res;
  };
  const deliver = async (orderNo: string, cod: boolean) => {
    for (const body of [
      ...(cod ? [] : [{ status: 'processing' }]),
      { status: 'shipped', carrier: '黑貓宅急便', trackingNo: '123456789012' },
      { shipmentEvent: 'delivered' },
    ])
      await staff(`/api/admin/orders/${orderNo}/advance`, body);
  };

  it('cash on delivery, refunded and partly returned orders count the same in the tier, the member list, the dashboard and the digest', async () => {
    const s = await shopper(ctx.app, 'money-buyer@example.com');
    const place = async (paymentMethod: 'cod' | 'credit_card', quantity: number) => {
      await s.add(variant, quantity);
      const res = await s.order({ paymentMethod });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { order: OrderDetail }).order;
    };
    const pay = async (order: OrderDetail) => {
      const tradeNo = `T${order.orderNo.slice(-12)}`;
      const gwsr = String(10_000_000 + Math.floor(Math.random() * 80_000_000));
      await authoriseTrade(dbTrades(ctx.app.db), {
        merchantTradeNo: `${order.orderNo}P1`,
        tradeNo,
        gwsr,
        amount: order.total,
      });
      const notice = ecpayNotice(order.orderNo, '1', '交易成功', {
        TradeNo: tradeNo,
        gwsr,
        TradeAmt: String(order.total),
      });
      expect(await notifyPayment(ctx.app, notice)).toBe('1|OK');
    };

    // Counted: a paid card order, delivered.
    const kept = await place('credit_card', 1);
    await pay(kept);
    await deliver(kept.orderNo, false);
    // Counted less what went back: a paid card order of two tins, one of them returned.
    const partly = await place('credit_card', 2);
    await pay(partly);
    await deliver(partly.orderNo, false);
    const itemId = partly.items[0]!.id;
    const asked = await s.call('POST', `/api/orders/${partly.orderNo}/returns`, {
      items: [{ itemId, quantity: 1 }],
      reason: 'damaged',
      detail: '罐子凹了',
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const returned = (asked.json() as OrderDetail).returns[0]!.amount;
    await staff(`/api/admin/returns/${partly.orderNo}-R1/approve`, { message: '請寄回' });
    await staff(`/api/admin/returns/${partly.orderNo}-R1/receive`, { items: [{ itemId, restock: true }] });
    // Counted: cash on delivery once delivered (its money is collected then).
    const collected = await place('cod', 1);
    await deliver(collected.orderNo, true);
    // Not counted: cash on delivery not yet delivered; a paid order refunded; an unpaid order.
    await place('cod', 1);
    const refunded = await place('credit_card', 1);
    await pay(refunded);
    await staff(`/api/admin/orders/${refunded.orderNo}/actions`, { action: 'refund', reason: '缺貨' });
    await place('credit_card', 1);

    expect(returned).toBe(480);
    const expected = kept.total + partly.total - returned + collected.total;
    const now = new Date();

    // The tier rule, and the console's member list beside it.
    expect((await membership(ctx.app.db, s.uid, now)).spend).toBe(expected);
    const listed = await listMembers(ctx.app.db, { q: 'money-buyer', page: 1, pageSize: 20 }, now);
    expect(listed.items.map((m) => m.spend)).toEqual([expected]);

    // The dashboard: three sales today.
    expect((await dashboard(ctx.app.db, now)).today).toEqual({ sales: expected, orders: 3 });

    // The digest the next morning: the same three sales, the same money.
    const today = taipeiDay(now);
    const nextMorning = new Date(Date.parse(`${today}T09:00:00+08:00`) + 86_400_000);
    const digest = { db: ctx.app.db, mailer: ctx.app.mailer, publicUrl: 'http://localhost:3000' };
    expect(await enqueueDailyDigest({ ...digest, shopNotifyEmail: 'shop@example.com' }, nextMorning)).toBe(
      true,
    );
    await mailSettled(ctx.database);
    const [mail] = await ctx.database.db
      .select({ text: mailOutbox.text })
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, 'shop@example.com'));
    expect(mail?.text).toContain(`昨天（${today}）完成付款的訂單 3 筆，共 ${formatTwd(expected)}`);
  });
});
