import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbAvailable, dbEngine, type TestContext } from '../../../test/helpers.ts';
import { seedTestCatalog, setRole } from '../../../test/fixtures.ts';
import { shopper, shopWithCatalog } from '../../../test/shop.ts';
import { latestMail } from '../../../test/mail.ts';
import { orderEvents, orders, productVariants } from '../../db/schema.ts';
import { checkMacValue } from '../../lib/ecpay-check-mac.ts';
import { cliTokenFile } from '../../lib/cli-token.ts';
import fs from 'node:fs';
import { formatTwd } from '@shop/shared/money';

const ECPAY = { merchantId: '3002607', hashKey: 'pwFHCqoQZGmho4w6', hashIV: 'EkRm7iFT261dpevs' };

describe.skipIf(!dbAvailable())('cart, checkout and orders', () => {
  let ctx: TestContext;
  let variants: Record<string, string>;
  beforeAll(async () => {
    ({ ctx, variants } = await shopWithCatalog());
  });
  afterAll(async () => ctx.close());

  const stockOf = async (sku: string) =>
    (
      await ctx.database.db
        .select({ s: productVariants.stock })
        .from(productVariants)
        .where(eq(productVariants.sku, sku))
    )[0]!.s;
  const setStock = (sku: string, stock: number) =>
    ctx.database.db.update(productVariants).set({ stock }).where(eq(productVariants.sku, sku));
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
  const paidNotice = (merchantTradeNo: string, amount: number, extra: Record<string, string> = {}) =>
    signed({
      MerchantID: ECPAY.merchantId,
      MerchantTradeNo: merchantTradeNo,
      RtnCode: '1',
      RtnMsg: '交易成功',
      TradeNo: `T${Date.now()}`,
      TradeAmt: String(amount),
      PaymentDate: '2026/11/22 10:00:00',
      PaymentType: 'Credit_CreditCard',
      SimulatePaid: '0',
      ...extra,
    });

  describe('cart', () => {
    it('adds, changes and removes lines; the total is computed on the server', async () => {
      const s = await shopper(ctx.app, 'cart@example.com');
      expect((await s.add(variants['DD-S']!, 2)).json()).toMatchObject({ itemCount: 2, subtotal: 960 });
      const again = (await s.add(variants['DD-S']!, 1)).json();
      expect(again.lines[0]).toMatchObject({
        quantity: 3,
        unitPrice: 480,
        lineTotal: 1440,
        variantLabel: '75 g',
        problem: null,
      });
      expect(
        (await s.call('PATCH', `/api/cart/items/${variants['DD-S']}`, { quantity: 1 })).json().subtotal,
      ).toBe(480);
      expect((await s.call('DELETE', `/api/cart/items/${variants['DD-S']}`)).json()).toMatchObject({
        lines: [],
        itemCount: 0,
        subtotal: 0,
      });
    });

    it('caps a line at the stock and refuses sold-out variants', async () => {
      const s = await shopper(ctx.app, 'cap@example.com');
      const over = await s.add(variants['POT-1']!, 4);
      expect(over.statusCode).toBe(409);
      expect(over.json().error).toMatchObject({
        code: 'insufficient-stock',
        message: '「朱泥手拉坯茶壺」目前只剩 3 件，無法再加入更多。',
      });
      const sold = await s.add(variants['RB-S']!, 1);
      expect(sold.json().error.code).toBe('sold-out');
      expect((await s.add(variants['POT-1']!, 0)).statusCode).toBe(400);
      expect(
        (await s.call('POST', '/api/cart/items', { variantId: 'not-a-uuid', quantity: 1 })).statusCode,
      ).toBe(400);
    });

    it('points out a price change and a stock shortfall since the line was added', async () => {
      const s = await shopper(ctx.app, 'notice@example.com');
      await s.add(variants['CUP-1']!, 3);
      await ctx.database.db
        .update(productVariants)
        .set({ price: 520 })
        .where(eq(productVariants.sku, 'CUP-1'));
      await setStock('CUP-1', 2);
      const line = (await s.call('GET', '/api/cart')).json().lines[0];
      expect(line).toMatchObject({
        unitPrice: 520,
        priceChangedFrom: 480,
        stock: 2,
        problem: 'insufficient-stock',
      });
      await ctx.database.db
        .update(productVariants)
        .set({ price: 480 })
        .where(eq(productVariants.sku, 'CUP-1'));
      await setStock('CUP-1', 50);
    });

    it('is for members only', async () => {
      expect((await ctx.app.inject({ method: 'GET', url: '/api/cart' })).statusCode).toBe(401);
    });
  });

  describe('quote', () => {
    it('prices shipping from the one fee table: free above the threshold, outlying surcharge, COD fee', async () => {
      const s = await shopper(ctx.app, 'quote@example.com');
      await s.add(variants['DD-S']!, 1);
      const home = (
        await s.call('POST', '/api/checkout/quote', {
          shippingMethod: 'home',
          city: '南投縣',
          district: '鹿谷鄉',
        })
      ).json();
      expect(home).toMatchObject({ subtotal: 480, shippingFee: 120, total: 600, toFreeShipping: 1020 });
      const island = (
        await s.call('POST', '/api/checkout/quote', {
          shippingMethod: 'home',
          city: '澎湖縣',
          district: '馬公市',
          paymentMethod: 'cod',
        })
      ).json();
      expect(island).toMatchObject({ shippingFee: 120 + 150 + 30, total: 780 });
      const cvs = (await s.call('POST', '/api/checkout/quote', { shippingMethod: 'cvs' })).json();
      expect(cvs).toMatchObject({ shippingFee: 65, total: 545 });
      await s.add(variants['DD-S']!, 3);
      expect((await s.call('POST', '/api/checkout/quote', { shippingMethod: 'home' })).json()).toMatchObject({
        subtotal: 1920,
        shippingFee: 0,
        total: 1920,
      });
    });
  });

  describe('placing an order', () => {
    it('takes stock, copies the lines, empties the cart and numbers the order', async () => {
      const s = await shopper(ctx.app, 'buyer@example.com');
      const before = await stockOf('CUP-1');
      await s.add(variants['CUP-1']!, 2);
      const res = await s.order();
      expect(res.statusCode, res.body).toBe(201);
      const { order, payment } = res.json();
      expect(order.orderNo).toMatch(/^TW\d{8}\d{6}$/);
      expect(order).toMatchObject({
        status: 'processing',
        paymentMethod: 'cod',
        subtotal: 960,
        shippingFee: 120 + 30,
        total: 1110,
        canCancel: true,
      });
      expect(order.items).toEqual([
        expect.objectContaining({
          productName: '白瓷品茗杯',
          variantLabel: '150 g',
          sku: 'CUP-1',
          unitPrice: 480,
          quantity: 2,
          lineTotal: 960,
        }),
      ]);
      expect(order.shipping).toMatchObject({ postalCode: '558', address: '南投縣鹿谷鄉興產路 87 號' });
      expect(payment).toBeNull();
      expect(await stockOf('CUP-1')).toBe(before - 2);
      expect((await s.call('GET', '/api/cart')).json().lines).toEqual([]);
      // Later price changes do not touch the order.
      await ctx.database.db
        .update(productVariants)
        .set({ price: 999 })
        .where(eq(productVariants.sku, 'CUP-1'));
      expect((await s.call('GET', `/api/orders/${order.orderNo}`)).json().items[0].unitPrice).toBe(480);
      await ctx.database.db
        .update(productVariants)
        .set({ price: 480 })
        .where(eq(productVariants.sku, 'CUP-1'));
    });

    it('answers with the order exactly as it reads back, payment form included (card, several lines)', async () => {
      const s = await shopper(ctx.app, 'read-back@example.com');
      await s.add(variants['CUP-1']!, 1);
      await s.add(variants['DD-S']!, 2);
      await s.add(variants['LS-S']!, 1);
      const placed = await s.order({ paymentMethod: 'credit_card' });
      expect(placed.statusCode, placed.body).toBe(201);
      const { order, payment } = placed.json();
      expect(order.items.map((i: { sku: string }) => i.sku)).toHaveLength(3);
      expect((await s.call('GET', `/api/orders/${order.orderNo}`)).json()).toEqual(order);
      // The mail lists the lines as the order's page does.
      const mail = await latestMail(ctx.database, 'read-back@example.com', 'order-placed');
      type Line = { productName: string; variantLabel: string; quantity: number; lineTotal: number };
      expect(mail.text).toContain(
        [
          '購買內容：',
          ...order.items.map(
            (i: Line) =>
              `${i.productName}（${i.variantLabel}）× ${i.quantity}\u3000${formatTwd(i.lineTotal)}`,
          ),
        ].join('\n'),
      );
      const again = await s.call('POST', `/api/orders/${order.orderNo}/pay`);
      expect(again.statusCode, again.body).toBe(200);
      // The form is the first attempt's; paying again makes a new attempt: the same form but for
      // its trade number, its time and its signature.
      expect(payment.fields.MerchantTradeNo).toBe(`${order.orderNo}P1`);
      const { MerchantTradeNo: _a, MerchantTradeDate: _b, CheckMacValue: _c, ...first } = payment.fields;
      const {
        MerchantTradeNo: _d,
        MerchantTradeDate: _e,
        CheckMacValue: _f,
        ...second
      } = again.json().payment.fields;
      expect(second).toEqual(first);
    });

    it('makes one order for a double-click or a retried request with the same key', async () => {
      const s = await shopper(ctx.app, 'double@example.com');
      const before = await stockOf('CUP-1');
      await s.add(variants['CUP-1']!, 1);
      const key = randomUUID();
      const [a, b] = await Promise.all([s.order({ idempotencyKey: key }), s.order({ idempotencyKey: key })]);
      expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
      expect(a.json().order.orderNo).toBe(b.json().order.orderNo);
      const c = await s.order({ idempotencyKey: key });
      expect(c.json().order.orderNo).toBe(a.json().order.orderNo);
      expect(await stockOf('CUP-1')).toBe(before - 1);
      const mine = await ctx.database.db.select().from(orders).where(eq(orders.idempotencyKey, key));
      expect(mine).toHaveLength(1);
    });

    it('refuses bad input beside the field and changes nothing', async () => {
      const s = await shopper(ctx.app, 'bad-input@example.com');
      await s.add(variants['CUP-1']!, 1);
      const before = await stockOf('CUP-1');
      const cases: Array<[Record<string, unknown>, string]> = [
        [
          { invoice: { type: 'company', taxId: '12345678', companyTitle: '山嵐茶事有限公司' } },
          'invoice.taxId',
        ],
        [{ invoice: { type: 'mobile', mobileBarcode: 'ABC1234' } }, 'invoice.mobileBarcode'],
        [{ invoice: { type: 'donation', donationCode: '12' } }, 'invoice.donationCode'],
        [
          {
            shipping: {
              method: 'home',
              recipientName: '林小嵐',
              phone: '0212345678',
              city: '南投縣',
              district: '鹿谷鄉',
              address: '興產路 87 號',
            },
          },
          'shipping.phone',
        ],
        [
          {
            shipping: {
              method: 'home',
              recipientName: '林小嵐',
              phone: '0912345678',
              city: '南投縣',
              district: '信義區',
              address: '興產路 87 號',
            },
          },
          'shipping.district',
        ],
        [
          {
            shipping: {
              method: 'cvs',
              recipientName: '林小嵐',
              phone: '0912345678',
              cvsBrand: '7-ELEVEN',
              storeId: '000000',
            },
            paymentMethod: 'credit_card',
          },
          'shipping.storeId',
        ],
        [{ paymentMethod: 'bitcoin' }, 'paymentMethod'],
      ];
      for (const [override, field] of cases) {
        const res = await s.order(override);
        expect(res.statusCode, JSON.stringify(override)).toBe(400);
        expect(res.json().error.fields?.[field], `${field}: ${res.body}`).toBeTruthy();
      }
      expect(await stockOf('CUP-1')).toBe(before);
      expect((await s.call('GET', '/api/cart')).json().lines).toHaveLength(1);
    });

    it('refuses an empty cart, and a cart whose stock ran out, naming the item', async () => {
      const s = await shopper(ctx.app, 'empty@example.com');
      expect((await s.order()).json().error.code).toBe('cart-empty');
      await s.add(variants['LS-L']!, 2);
      await setStock('LS-L', 1);
      const res = await s.order();
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({ code: 'cart-changed' });
      expect(res.json().error.message).toContain('梨山高山茶（150 g）」只剩 1 件');
      await setStock('LS-L', 2);
    });

    it.skipIf(dbEngine() !== 'postgres')(
      'never oversells: 50 concurrent orders for the last 5 units make exactly 5 orders',
      async () => {
        await setStock('LS-S', 5);
        const buyers = await Promise.all(
          Array.from({ length: 50 }, (_, i) => shopper(ctx.app, `rush${i}@example.com`)),
        );
        await Promise.all(
          buyers.map((b) =>
            ctx.database.db
              .update(productVariants)
              .set({ stock: 5 })
              .where(eq(productVariants.sku, 'LS-S'))
              .then(() => b),
          ),
        );
        for (const b of buyers) await b.add(variants['LS-S']!, 1);
        await setStock('LS-S', 5);
        const results = await Promise.all(buyers.map((b) => b.order()));
        const created = results.filter((r) => r.statusCode === 201);
        const refused = results.filter((r) => r.statusCode === 409);
        expect(created).toHaveLength(5);
        expect(refused).toHaveLength(45);
        expect(
          refused.every((r) => ['insufficient-stock', 'cart-changed'].includes(r.json().error.code)),
        ).toBe(true);
        expect(await stockOf('LS-S')).toBe(0);
      },
    );
  });

  describe('paying by card through ECPay', () => {
    async function cardOrder(email: string) {
      const s = await shopper(ctx.app, email);
      await s.add(variants['DD-S']!, 1);
      const res = await s.order({ paymentMethod: 'credit_card' });
      expect(res.statusCode, res.body).toBe(201);
      return { s, ...res.json() };
    }

    it('gives a signed AIO form for the sandbox gateway, and expires 30 minutes later', async () => {
      const { order, payment } = await cardOrder('card@example.com');
      expect(order).toMatchObject({ status: 'pending_payment', total: 600, canPay: true, canCancel: true });
      expect(new Date(order.expiresAt).getTime() - Date.now()).toBeGreaterThan(29 * 60_000);
      expect(payment.action).toBe('http://localhost:3000/sandbox/ecpay/aio');
      const { CheckMacValue, ...fields } = payment.fields;
      expect(fields).toMatchObject({
        MerchantID: '3002607',
        MerchantTradeNo: `${order.orderNo}P1`,
        PaymentType: 'aio',
        TotalAmount: '600',
        ChoosePayment: 'Credit',
        EncryptType: '1',
        ReturnURL: 'http://localhost:3000/api/payments/ecpay/notify',
      });
      expect(fields.MerchantTradeDate).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(CheckMacValue).toBe(checkMacValue(fields, ECPAY.hashKey, ECPAY.hashIV));
    });

    it('marks the order paid on a valid notification, and a replay changes nothing', async () => {
      const { s, order } = await cardOrder('paid@example.com');
      const res = await notify(paidNotice(`${order.orderNo}P1`, 600));
      expect(res.body).toBe('1|OK');
      const paid = (await s.call('GET', `/api/orders/${order.orderNo}`)).json();
      expect(paid).toMatchObject({
        status: 'paid',
        payment: { status: 'paid' },
        canPay: false,
        canCancel: true,
      });
      const events = async () =>
        (
          await ctx.database.db
            .select()
            .from(orderEvents)
            .innerJoin(orders, eq(orders.id, orderEvents.orderId))
            .where(eq(orders.orderNo, order.orderNo))
        ).length;
      const count = await events();
      expect((await notify(paidNotice(`${order.orderNo}P1`, 600))).body).toBe('1|OK');
      expect(await events()).toBe(count);
    });

    it('ignores forged notifications: bad CheckMacValue, wrong amount, unknown trade, another merchant', async () => {
      const { s, order } = await cardOrder('forged@example.com');
      const good = paidNotice(`${order.orderNo}P1`, 600);
      expect((await notify({ ...good, CheckMacValue: 'A'.repeat(64) })).body).toBe('0|CheckMacValue error');
      expect((await notify({ ...good, TradeAmt: '1' })).body).toBe('0|CheckMacValue error');
      expect((await notify(paidNotice(`${order.orderNo}P1`, 1))).body).toBe('0|TradeAmt does not match');
      expect((await notify(paidNotice('TW20990101999999P1', 600))).body).toBe('0|MerchantTradeNo not found');
      expect(
        (await notify(signed({ ...paidNotice(`${order.orderNo}P1`, 600), MerchantID: '9999999' }))).body,
      ).toBe('0|CheckMacValue error');
      expect((await s.call('GET', `/api/orders/${order.orderNo}`)).json().status).toBe('pending_payment');
    });

    it('records a failed payment, then a retry with a new trade number succeeds', async () => {
      const { s, order } = await cardOrder('retry@example.com');
      expect(
        (
          await notify(
            signed({ ...paidNotice(`${order.orderNo}P1`, 600), RtnCode: '10100058', RtnMsg: '授權失敗' }),
          )
        ).body,
      ).toBe('1|OK');
      const failed = (await s.call('GET', `/api/orders/${order.orderNo}`)).json();
      expect(failed).toMatchObject({
        status: 'payment_failed',
        canPay: true,
        payment: { status: 'failed', message: '付款未成功：授權失敗。' },
      });
      const retry = await s.call('POST', `/api/orders/${order.orderNo}/pay`);
      expect(retry.json().payment.fields.MerchantTradeNo).toBe(`${order.orderNo}P2`);
      expect((await notify(paidNotice(`${order.orderNo}P2`, 600))).body).toBe('1|OK');
      expect((await s.call('GET', `/api/orders/${order.orderNo}`)).json().status).toBe('paid');
    });

    it('never takes a simulated payment as real in production', async () => {
      const prod = await createTestApp({ PUBLIC_URL: 'http://localhost:3000' });
      try {
        (prod.app.config as { isProduction: boolean }).isProduction = true;
        await seedTestCatalog(prod.database);
        const rows = await prod.database.db
          .select({ id: productVariants.id, sku: productVariants.sku })
          .from(productVariants);
        const s = await shopper(prod.app, 'sim@example.com');
        await s.add(rows.find((r) => r.sku === 'DD-S')!.id, 1);
        const { order } = (await s.order({ paymentMethod: 'credit_card' })).json();
        const res = await prod.app.inject({
          method: 'POST',
          url: '/api/payments/ecpay/notify',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams(
            paidNotice(`${order.orderNo}P1`, 600, { SimulatePaid: '1' }),
          ).toString(),
        });
        expect(res.body).toBe('1|OK');
        expect((await s.call('GET', `/api/orders/${order.orderNo}`)).json().status).toBe('pending_payment');
      } finally {
        await prod.close();
      }
    });
  });

  describe('ATM', () => {
    it('shows the virtual account after the payment-info notification, then the transfer pays the order', async () => {
      const s = await shopper(ctx.app, 'atm@example.com');
      await s.add(variants['DD-S']!, 1);
      const { order, payment } = (await s.order({ paymentMethod: 'atm' })).json();
      expect(payment.fields).toMatchObject({
        ChoosePayment: 'ATM',
        ExpireDate: '3',
        PaymentInfoURL: 'http://localhost:3000/api/payments/ecpay/payment-info',
      });
      const info = signed({
        MerchantID: ECPAY.merchantId,
        MerchantTradeNo: `${order.orderNo}P1`,
        RtnCode: '2',
        RtnMsg: 'Get VirtualAccount Succeeded',
        TradeNo: 'T1',
        TradeAmt: '600',
        PaymentType: 'ATM_TAISHIN',
        BankCode: '812',
        vAccount: '9103522175887271',
        ExpireDate: '2099/12/31',
      });
      expect((await notify(info, '/api/payments/ecpay/payment-info')).body).toBe('1|OK');
      const waiting = (await s.call('GET', `/api/orders/${order.orderNo}`)).json();
      expect(waiting).toMatchObject({
        status: 'pending_payment',
        canPay: false,
        payment: {
          status: 'waiting_transfer',
          atm: {
            bankCode: '812',
            bank: '812 台新銀行',
            account: '9103522175887271',
            expireDate: '2099/12/31',
            deadline: '2099/12/31 23:59',
          },
        },
      });
      expect(waiting.expiresAt).toBe('2099-12-31T15:59:59.000Z');
      expect((await notify(paidNotice(`${order.orderNo}P1`, 600, { PaymentType: 'ATM_TAISHIN' }))).body).toBe(
        '1|OK',
      );
      expect((await s.call('GET', `/api/orders/${order.orderNo}`)).json().status).toBe('paid');
    });
  });

  describe('expiry, cancellation and privacy', () => {
    it('expires an unpaid card order after its 30 minutes and gives the stock back', async () => {
      const s = await shopper(ctx.app, 'late@example.com');
      const before = await stockOf('DD-S');
      await s.add(variants['DD-S']!, 2);
      const { order } = (await s.order({ paymentMethod: 'credit_card' })).json();
      expect(await stockOf('DD-S')).toBe(before - 2);
      await ctx.database.db
        .update(orders)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(orders.orderNo, order.orderNo));
      await ctx.app.sweepExpiredOrders();
      expect((await s.call('GET', `/api/orders/${order.orderNo}`)).json().status).toBe('expired');
      expect(await stockOf('DD-S')).toBe(before);
    });

    it('lets the member cancel while unpaid, returning stock; after payment too, until it ships', async () => {
      const s = await shopper(ctx.app, 'cancel@example.com');
      const before = await stockOf('DD-S');
      await s.add(variants['DD-S']!, 1);
      const { order } = (await s.order({ paymentMethod: 'credit_card' })).json();
      const cancelled = await s.call('POST', `/api/orders/${order.orderNo}/cancel`);
      expect(cancelled.json().status).toBe('cancelled');
      expect(await stockOf('DD-S')).toBe(before);
      // The unpaid order's line went back to the cart (cart-return.test.ts): ordering again takes it.
      expect(
        (await s.call('GET', '/api/cart'))
          .json()
          .lines.map((l: { sku: string; quantity: number }) => [l.sku, l.quantity]),
      ).toEqual([['DD-S', 1]]);
      const second = (await s.order({ paymentMethod: 'credit_card' })).json().order;
      await notify(paidNotice(`${second.orderNo}P1`, 600));
      // Paid, not shipped: the member may still cancel; the money goes back by card, the stock to the shelf.
      const paid = (await s.call('GET', `/api/orders/${second.orderNo}`)).json();
      expect(paid).toMatchObject({ status: 'paid', canCancel: true });
      const paidCancel = await s.call('POST', `/api/orders/${second.orderNo}/cancel`);
      expect(paidCancel.statusCode, paidCancel.body).toBe(200);
      expect(paidCancel.json()).toMatchObject({
        status: 'cancelled',
        canCancel: false,
        refunds: [{ method: 'card', amount: second.total }],
        cartNote: null,
      });
      expect(await stockOf('DD-S')).toBe(before);
      expect((await s.call('GET', '/api/cart')).json().lines).toEqual([]);

      // Shipped: too late to cancel; the member is told to ask.
      await s.add(variants['DD-S']!, 1);
      const third = (await s.order({ paymentMethod: 'cod' })).json().order;
      expect(third.status).toBe('processing');
      expect((await s.call('GET', `/api/orders/${third.orderNo}`)).json().canCancel).toBe(true);
      await ctx.database.db
        .update(orders)
        .set({ status: 'shipped' })
        .where(eq(orders.orderNo, third.orderNo));
      expect((await s.call('GET', `/api/orders/${third.orderNo}`)).json().canCancel).toBe(false);
      const refused = await s.call('POST', `/api/orders/${third.orderNo}/cancel`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toMatchObject({
        code: 'not-cancellable',
        message: '這筆訂單目前為「已出貨」，無法自行取消，請與客服聯絡。',
      });
    });

    it('a cash-on-delivery order the member cancels before shipping is cancelled with nothing to refund', async () => {
      const s = await shopper(ctx.app, 'cancel-cod@example.com');
      const before = await stockOf('DD-S');
      await s.add(variants['DD-S']!, 1);
      const { order } = (await s.order({ paymentMethod: 'cod' })).json();
      const res = await s.call('POST', `/api/orders/${order.orderNo}/cancel`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ status: 'cancelled', refunds: [] });
      expect(await stockOf('DD-S')).toBe(before);
    });

    it("one member cannot read, cancel or pay another's order: 404, exactly as for a missing one", async () => {
      const owner = await shopper(ctx.app, 'owner@example.com');
      const other = await shopper(ctx.app, 'other@example.com');
      await owner.add(variants['DD-S']!, 1);
      const { order } = (await owner.order({ paymentMethod: 'credit_card' })).json();
      const missing = await other.call('GET', '/api/orders/TW20990101999999');
      for (const res of [
        await other.call('GET', `/api/orders/${order.orderNo}`),
        await other.call('POST', `/api/orders/${order.orderNo}/cancel`),
        await other.call('POST', `/api/orders/${order.orderNo}/pay`),
      ]) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual(missing.json());
      }
      expect(
        (await other.call('GET', '/api/orders')).json().items.map((o: { orderNo: string }) => o.orderNo),
      ).not.toContain(order.orderNo);
      expect((await owner.call('GET', `/api/orders/${order.orderNo}`)).json().status).toBe('pending_payment');
    });

    it("lists a member's orders newest first, filtered by status", async () => {
      const s = await shopper(ctx.app, 'list@example.com');
      for (let i = 0; i < 2; i++) {
        await s.add(variants['CUP-1']!, 1);
        await s.order();
      }
      const all = (await s.call('GET', '/api/orders')).json();
      expect(all.total).toBe(2);
      expect(all.items[0]).toMatchObject({
        itemCount: 1,
        firstItemName: '白瓷品茗杯',
        status: 'processing',
        paymentMethod: 'cod',
        shippingMethod: 'home',
      });
      expect(all.items[0].createdAt >= all.items[1].createdAt).toBe(true);
      expect((await s.call('GET', '/api/orders?status=processing')).json().total).toBe(2);
      expect((await s.call('GET', '/api/orders?status=paid')).json().total).toBe(0);
      expect((await s.call('GET', '/api/orders?status=bogus')).statusCode).toBe(400);
      expect((await s.call('GET', '/api/orders/not-an-order')).statusCode).toBe(400);
    });
  });

  describe('moving orders along (staff)', () => {
    it('refuses shoppers (403) and anonymous callers (401); staff follow the state machine', async () => {
      const s = await shopper(ctx.app, 'ship@example.com');
      await s.add(variants['CUP-1']!, 1);
      const { order } = (await s.order()).json();
      const url = `/api/admin/orders/${order.orderNo}/advance`;
      expect((await ctx.app.inject({ method: 'POST', url, payload: { status: 'shipped' } })).statusCode).toBe(
        401,
      );
      expect((await s.call('POST', url, { status: 'shipped' })).statusCode).toBe(403);
      const staff = await shopper(ctx.app, 'staff-orders@example.com');
      await setRole(ctx.database, 'staff-orders@example.com', 'staff');
      expect((await staff.call('POST', url, { status: 'completed' })).json().error.code).toBe(
        'invalid-transition',
      );
      const shipped = (
        await staff.call('POST', url, {
          status: 'shipped',
          carrier: '黑貓宅急便',
          trackingNo: '905512345678',
          location: '南投鹿谷',
        })
      ).json();
      expect(shipped.status).toBe('shipped');
      expect(shipped.events.at(-2)).toMatchObject({
        kind: 'shipment',
        shipmentEvent: 'created',
        carrier: '黑貓宅急便',
        trackingNo: '905512345678',
      });
      expect(shipped.events.at(-1)).toMatchObject({ kind: 'status', status: 'shipped' });
      await staff.call('POST', url, { shipmentEvent: 'in_transit', location: '台中轉運中心' });
      const delivered = (
        await staff.call('POST', url, { shipmentEvent: 'delivered', location: '南投縣鹿谷鄉' })
      ).json();
      expect(delivered.status).toBe('delivered');
      expect(
        delivered.events
          .filter((e: { kind: string }) => e.kind === 'shipment')
          .map((e: { shipmentEvent: string }) => e.shipmentEvent),
      ).toEqual(['created', 'in_transit', 'delivered']);
    });

    it('accepts the command line token', async () => {
      const s = await shopper(ctx.app, 'cli@example.com');
      await s.add(variants['CUP-1']!, 1);
      const { order } = (await s.order()).json();
      const url = `/api/admin/orders/${order.orderNo}/advance`;
      const wrong = await ctx.app.inject({
        method: 'POST',
        url,
        headers: { 'x-admin-cli-token': 'wrong' },
        payload: { status: 'shipped' },
      });
      expect(wrong.statusCode).toBe(401);
      const token = fs.readFileSync(cliTokenFile(ctx.app.config.dataDir), 'utf8').trim();
      expect(fs.statSync(cliTokenFile(ctx.app.config.dataDir)).mode & 0o777).toBe(0o600);
      const right = await ctx.app.inject({
        method: 'POST',
        url,
        headers: { 'x-admin-cli-token': token },
        payload: { status: 'shipped' },
      });
      expect(right.json().status).toBe('shipped');
    });
  });
});
