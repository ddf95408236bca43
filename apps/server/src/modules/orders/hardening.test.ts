import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbAvailable, dbEngine, type TestContext } from '../../../test/helpers.ts';
import { seedTestCatalog } from '../../../test/fixtures.ts';
import { mailCount } from '../../../test/mail.ts';
import { ORIGIN, shopper } from '../../../test/shop.ts';
import {
  couponRedemptions,
  coupons,
  mailOutbox,
  orderEvents,
  orders,
  payments,
  productVariants,
  users,
} from '../../db/schema.ts';
import { rows } from '../../db/rows.ts';
import { checkMacValue } from '../../lib/ecpay-check-mac.ts';

const ECPAY = { merchantId: '3002607', hashKey: 'pwFHCqoQZGmho4w6', hashIV: 'EkRm7iFT261dpevs' };
const DAY = 86_400_000;
const MINUTE = 60_000;

/**
 * Abuse of orders, stock holds and coupons (see docs/product-rules.md): who may order, how many
 * orders may hold stock unpaid, how long a hold lasts, what a late payment may restore, and that
 * decisions about an order are taken from its locked row.
 */
describe.skipIf(!dbAvailable())('orders: holds, limits and races', () => {
  let ctx: TestContext;
  let variants: Record<string, string>;
  beforeAll(async () => {
    ctx = await createTestApp({ PUBLIC_URL: 'http://localhost:3000' });
    await seedTestCatalog(ctx.database);
    const found = await ctx.database.db
      .select({ id: productVariants.id, sku: productVariants.sku })
      .from(productVariants);
    variants = Object.fromEntries(found.map((r) => [r.sku, r.id]));
    await ctx.database.db.update(productVariants).set({ stock: 500 });
  });
  afterAll(async () => ctx.close());

  const db = () => ctx.database.db;
  const stockOf = async (sku: string) =>
    (
      await db()
        .select({ s: productVariants.stock })
        .from(productVariants)
        .where(eq(productVariants.sku, sku))
    )[0]!.s;
  const orderRow = async (orderNo: string) =>
    (await db().select().from(orders).where(eq(orders.orderNo, orderNo)))[0]!;
  const unverify = (email: string) =>
    db().update(users).set({ emailVerifiedAt: null }).where(eq(users.email, email));
  const notify = (fields: Record<string, string>, path = '/api/payments/ecpay/notify') =>
    ctx.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
  const signed = (fields: Record<string, string>) => ({
    ...fields,
    CheckMacValue: checkMacValue(fields, ECPAY.hashKey, ECPAY.hashIV),
  });
  const paidNotice = (merchantTradeNo: string, amount: number) =>
    signed({
      MerchantID: ECPAY.merchantId,
      MerchantTradeNo: merchantTradeNo,
      RtnCode: '1',
      RtnMsg: '交易成功',
      TradeNo: `T${Date.now()}`,
      TradeAmt: String(amount),
      PaymentType: 'Credit_CreditCard',
      SimulatePaid: '0',
    });
  const atmInfo = (merchantTradeNo: string, amount: number, expireDate: string) =>
    signed({
      MerchantID: ECPAY.merchantId,
      MerchantTradeNo: merchantTradeNo,
      RtnCode: '2',
      RtnMsg: 'Get VirtualAccount Succeeded',
      TradeNo: 'T1',
      TradeAmt: String(amount),
      PaymentType: 'ATM_TAISHIN',
      BankCode: '812',
      vAccount: '9103522175887271',
      ExpireDate: expireDate,
    });
  /** The order's time ran out and the sweep has run. */
  const expire = async (orderNo: string) => {
    await db()
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(orders.orderNo, orderNo));
    await ctx.app.sweepExpiredOrders();
    expect((await orderRow(orderNo)).status).toBe('expired');
  };
  const buy = async (
    s: Awaited<ReturnType<typeof shopper>>,
    overrides: Record<string, unknown> = {},
    sku = 'DD-S',
  ) => {
    await s.add(variants[sku]!, 1);
    return s.order(overrides);
  };

  describe('who may order', () => {
    it('refuses an account whose e-mail is not verified, saying how to verify, and holds nothing', async () => {
      const s = await shopper(ctx.app, 'unverified@example.com');
      await unverify('unverified@example.com');
      const before = await stockOf('DD-S');
      const res = await buy(s, { paymentMethod: 'credit_card' });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('email-not-verified');
      expect(res.json().error.message).toContain('驗證信');
      expect(await stockOf('DD-S')).toBe(before);
      expect((await s.call('GET', '/api/cart')).json().lines).toHaveLength(1);
      expect((await s.call('GET', '/api/orders')).json().total).toBe(0);
      // Cash on delivery is no way around it.
      expect((await s.order({ paymentMethod: 'cod' })).json().error.code).toBe('email-not-verified');
    });
  });

  describe('how many orders may hold stock', () => {
    it('allows at most 3 unpaid orders per account; the refusal says to pay or cancel one, and cancelling frees a place', async () => {
      const s = await shopper(ctx.app, 'hoarder@example.com');
      const placed: string[] = [];
      for (const paymentMethod of ['credit_card', 'atm', 'credit_card']) {
        const res = await buy(s, { paymentMethod });
        expect(res.statusCode, res.body).toBe(201);
        placed.push(res.json().order.orderNo);
      }
      const before = await stockOf('DD-S');
      const fourth = await buy(s, { paymentMethod: 'credit_card' });
      expect(fourth.statusCode).toBe(409);
      expect(fourth.json().error.code).toBe('too-many-open-orders');
      expect(fourth.json().error.message).toMatch(/付款.*取消/);
      expect(await stockOf('DD-S')).toBe(before);
      expect((await s.call('POST', `/api/orders/${placed[0]}/cancel`)).statusCode).toBe(200);
      expect((await s.order({ paymentMethod: 'credit_card' })).statusCode).toBe(201);
    });

    it('allows at most 3 cash-on-delivery orders not yet shipped per account', async () => {
      const s = await shopper(ctx.app, 'cod-hoarder@example.com');
      for (let i = 0; i < 3; i++)
        expect((await buy(s, { paymentMethod: 'cod' }, 'CUP-1')).statusCode).toBe(201);
      const before = await stockOf('CUP-1');
      const fourth = await buy(s, { paymentMethod: 'cod' }, 'CUP-1');
      expect(fourth.statusCode).toBe(409);
      expect(fourth.json().error.code).toBe('too-many-open-orders');
      expect(fourth.json().error.message).toContain('出貨');
      expect(await stockOf('CUP-1')).toBe(before);
    });

    it.skipIf(dbEngine() !== 'postgres')(
      'counts under a lock: with 2 orders open, 4 concurrent attempts make exactly 1 more',
      async () => {
        const s = await shopper(ctx.app, 'rush-hoarder@example.com');
        for (let i = 0; i < 2; i++)
          expect((await buy(s, { paymentMethod: 'credit_card' })).statusCode).toBe(201);
        await s.add(variants['CUP-1']!, 1);
        const results = await Promise.all(
          Array.from({ length: 4 }, () => s.order({ paymentMethod: 'credit_card' })),
        );
        expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
        expect(results.filter((r) => r.statusCode !== 201).map((r) => r.json().error.code)).toEqual([
          'too-many-open-orders',
          'too-many-open-orders',
          'too-many-open-orders',
        ]);
        const [open] = rows<{ n: number }>(
          await db().execute(
            sql`select count(*)::int as n from orders o join users u on u.id = o.user_id where u.email = 'rush-hoarder@example.com'`,
          ),
        );
        expect(open!.n).toBe(3);
      },
    );
  });

  describe('how long a hold lasts', () => {
    it('paying again never moves a card order’s deadline', async () => {
      const s = await shopper(ctx.app, 'again@example.com');
      const { order } = (await buy(s, { paymentMethod: 'credit_card' })).json();
      // Twenty minutes have passed: ten are left.
      const deadline = new Date(Date.now() + 10 * MINUTE);
      await db().update(orders).set({ expiresAt: deadline }).where(eq(orders.orderNo, order.orderNo));
      for (let i = 0; i < 3; i++)
        expect((await s.call('POST', `/api/orders/${order.orderNo}/pay`)).statusCode).toBe(200);
      expect((await orderRow(order.orderNo)).expiresAt?.toISOString()).toBe(deadline.toISOString());
    });

    it('an ATM order holds stock only for the short window until an account is issued, then until the account’s deadline', async () => {
      const s = await shopper(ctx.app, 'atm-hold@example.com');
      const { order } = (await buy(s, { paymentMethod: 'atm' })).json();
      const hold = new Date(order.expiresAt).getTime() - Date.now();
      expect(hold).toBeGreaterThan(29 * MINUTE);
      expect(hold).toBeLessThanOrEqual(30 * MINUTE);
      expect(
        (
          await notify(
            atmInfo(`${order.orderNo}P1`, order.total, '2099/12/31'),
            '/api/payments/ecpay/payment-info',
          )
        ).body,
      ).toBe('1|OK');
      expect((await orderRow(order.orderNo)).expiresAt?.toISOString()).toBe('2099-12-31T15:59:59.000Z');
    });

    it('an account issued after the order expired neither revives it nor is mailed', async () => {
      const s = await shopper(ctx.app, 'atm-late@example.com');
      const { order } = (await buy(s, { paymentMethod: 'atm' })).json();
      await expire(order.orderNo);
      const expiredAt = (await orderRow(order.orderNo)).expiresAt;
      expect(
        (
          await notify(
            atmInfo(`${order.orderNo}P1`, order.total, '2099/12/31'),
            '/api/payments/ecpay/payment-info',
          )
        ).body,
      ).toBe('1|OK');
      const row = await orderRow(order.orderNo);
      expect(row.status).toBe('expired');
      expect(row.expiresAt?.toISOString()).toBe(expiredAt?.toISOString());
      await new Promise((r) => setTimeout(r, 200));
      const mails = await db()
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.toAddress, 'atm-late@example.com'));
      expect(mails.filter((m) => m.meta.kind === 'atm-info')).toEqual([]);
    });
  });

  describe('a late payment and its coupon', () => {
    const coupon = (code: string, values: Partial<typeof coupons.$inferInsert> = {}) =>
      db()
        .insert(coupons)
        .values({
          code,
          name: `測試 ${code}`,
          kind: 'fixed',
          value: 100,
          startsAt: new Date(Date.now() - DAY),
          endsAt: new Date(Date.now() + 30 * DAY),
          ...values,
        });
    const usedCount = async (code: string) =>
      (await db().select().from(coupons).where(eq(coupons.code, code)))[0]!.usedCount;
    const redemptionsOf = async (code: string) =>
      db()
        .select()
        .from(couponRedemptions)
        .innerJoin(coupons, eq(coupons.id, couponRedemptions.couponId))
        .where(eq(coupons.code, code));

    it('restores an expired order only by counting its coupon again', async () => {
      await coupon('LATEBACK', { totalLimit: 5 });
      const s = await shopper(ctx.app, 'late-coupon@example.com');
      const { order } = (await buy(s, { paymentMethod: 'credit_card', couponCode: 'LATEBACK' })).json();
      await expire(order.orderNo);
      expect(await usedCount('LATEBACK')).toBe(0);
      expect((await notify(paidNotice(`${order.orderNo}P1`, order.total))).body).toBe('1|OK');
      expect((await orderRow(order.orderNo)).status).toBe('paid');
      expect(await usedCount('LATEBACK')).toBe(1);
      expect(await redemptionsOf('LATEBACK')).toHaveLength(1);
    });

    it('keeps the order expired (money kept for a refund) when the coupon’s last use went to someone else meanwhile', async () => {
      await coupon('LASTONE', { totalLimit: 1 });
      const a = await shopper(ctx.app, 'late-a@example.com');
      const { order } = (await buy(a, { paymentMethod: 'credit_card', couponCode: 'LASTONE' })).json();
      await expire(order.orderNo);
      const b = await shopper(ctx.app, 'late-b@example.com');
      expect((await buy(b, { paymentMethod: 'credit_card', couponCode: 'LASTONE' })).statusCode).toBe(201);
      const stock = await stockOf('DD-S');
      expect((await notify(paidNotice(`${order.orderNo}P1`, order.total))).body).toBe('1|OK');
      expect((await orderRow(order.orderNo)).status).toBe('expired');
      expect(await usedCount('LASTONE')).toBe(1);
      expect(await redemptionsOf('LASTONE')).toHaveLength(1);
      expect(await stockOf('DD-S')).toBe(stock);
      const [payment] = await db()
        .select()
        .from(payments)
        .where(eq(payments.merchantTradeNo, `${order.orderNo}P1`));
      expect(payment!.status).toBe('paid');
      const events = await db().select().from(orderEvents).where(eq(orderEvents.orderId, payment!.orderId));
      expect(events.at(-1)!.note).toContain('退款');
    });

    it('does not let a member use a once-per-member coupon twice through a late payment', async () => {
      await coupon('ONCEONLY', { perMemberLimit: 1 });
      const s = await shopper(ctx.app, 'late-once@example.com');
      const { order } = (await buy(s, { paymentMethod: 'credit_card', couponCode: 'ONCEONLY' })).json();
      await expire(order.orderNo);
      expect((await buy(s, { paymentMethod: 'cod', couponCode: 'ONCEONLY' })).statusCode).toBe(201);
      expect((await notify(paidNotice(`${order.orderNo}P1`, order.total))).body).toBe('1|OK');
      expect((await orderRow(order.orderNo)).status).toBe('expired');
      expect(await redemptionsOf('ONCEONLY')).toHaveLength(1);
    });
  });

  describe.skipIf(dbEngine() !== 'postgres')('decisions from the locked row', () => {
    /** Holds the order's row lock while `start` sends its request, then applies `change`, as a payment landing at that moment would. */
    async function withOrderLocked<T>(
      orderNo: string,
      start: () => Promise<T>,
      change: Partial<typeof orders.$inferInsert>,
    ): Promise<T> {
      let pending!: Promise<T>;
      await db().transaction(async (tx) => {
        await tx.execute(sql`select id from orders where order_no = ${orderNo} for update`);
        pending = start();
        // Wait until the request queues behind the lock (or has already answered without waiting for it).
        const until = Date.now() + 2000;
        let settled = false;
        void pending.finally(() => (settled = true));
        while (!settled && Date.now() < until) {
          const [w] = rows<{ n: number }>(
            await db().execute(
              sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
            ),
          );
          if (w!.n > 0) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        await tx.update(orders).set(change).where(eq(orders.orderNo, orderNo));
      });
      return pending;
    }

    it('a member cannot cancel an order that shipped while the cancel was on its way', async () => {
      const s = await shopper(ctx.app, 'race-cancel@example.com');
      const { order } = (await buy(s, { paymentMethod: 'cod' })).json();
      const res = await withOrderLocked(
        order.orderNo,
        () => s.call('POST', `/api/orders/${order.orderNo}/cancel`),
        { status: 'shipped' },
      );
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error.code).toBe('not-cancellable');
      expect((await orderRow(order.orderNo)).status).toBe('shipped');
    });

    it('a member cannot start paying again for an order that was paid meanwhile', async () => {
      const s = await shopper(ctx.app, 'race-pay@example.com');
      const { order } = (await buy(s, { paymentMethod: 'credit_card' })).json();
      const res = await withOrderLocked(
        order.orderNo,
        () => s.call('POST', `/api/orders/${order.orderNo}/pay`),
        { status: 'paid', paidAt: new Date() },
      );
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error.code).toBe('not-payable');
      const attempts = await db()
        .select()
        .from(payments)
        .innerJoin(orders, eq(orders.id, payments.orderId))
        .where(eq(orders.orderNo, order.orderNo));
      expect(attempts).toHaveLength(1);
    });
  });

  describe('order mail', () => {
    it('an account signed up with someone else’s address cannot make the shop mail them an order', async () => {
      const register = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        remoteAddress: '192.0.2.91',
        headers: { origin: ORIGIN },
        payload: {
          displayName: '冒名者',
          email: 'victim@example.com',
          password: '別人的信箱-2026-茶',
          passwordConfirm: '別人的信箱-2026-茶',
          acceptTerms: true,
        },
      });
      expect(register.statusCode, register.body).toBe(201);
      const cookie = register.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      const call = (method: 'POST', url: string, payload: object) =>
        ctx.app.inject({ method, url, headers: { cookie, origin: ORIGIN }, payload });
      await call('POST', '/api/cart/items', { variantId: variants['DD-S']!, quantity: 1 });
      const res = await call('POST', '/api/orders', {
        idempotencyKey: 'victim-order-0000000000',
        shipping: {
          method: 'home',
          recipientName: '林小嵐',
          phone: '0912345678',
          city: '南投縣',
          district: '鹿谷鄉',
          address: '興產路 87 號',
        },
        invoice: { type: 'member' },
        paymentMethod: 'cod',
      });
      expect(res.statusCode).toBe(403);
      await new Promise((r) => setTimeout(r, 200));
      const mails = await db()
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.toAddress, 'victim@example.com'));
      expect(mails.map((m) => m.meta.kind)).toEqual(['verify-email']);
    });

    it('order mail goes only to a verified account address', async () => {
      const s = await shopper(ctx.app, 'lapsed@example.com');
      const { order } = (await buy(s, { paymentMethod: 'credit_card' })).json();
      await new Promise((r) => setTimeout(r, 200));
      const placedMails = await mailCount(ctx.database, 'lapsed@example.com');
      expect(placedMails).toBe(1);
      // An order kept from before the address stopped being a verified one (e.g. placed before this rule).
      await unverify('lapsed@example.com');
      expect((await notify(paidNotice(`${order.orderNo}P1`, order.total))).body).toBe('1|OK');
      expect((await orderRow(order.orderNo)).status).toBe('paid');
      await new Promise((r) => setTimeout(r, 200));
      expect(await mailCount(ctx.database, 'lapsed@example.com')).toBe(placedMails);
      const paid = await db()
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.toAddress, 'lapsed@example.com')));
      expect(paid.map((m) => m.meta.kind)).toEqual(['order-placed']);
    });
  });
});
