import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STORE_PAYMENTS, type StorePaymentSettings } from '@shop/shared/store-payments';
import { dbAvailable, type TestContext } from '../../../test/helpers.ts';
import { ORIGIN, shopper, shopWithCatalog } from '../../../test/shop.ts';
import { latestMail } from '../../../test/mail.ts';
import { orderEvents, orders, payments, productVariants } from '../../db/schema.ts';
import { checkMacValue, verifyCheckMacValue } from '../../lib/ecpay-check-mac.ts';
import { requestRefund } from './refunds.ts';
import { storeCodeOf } from './ecpay/store-code.ts';

/*
 * 超商代碼 (CVS), 超商條碼 (BARCODE) and card instalments through ECPay's AIO protocol
 * (docs/integrations/ecpay-store-payments.md): the payment-info notice (RtnCode 10100073) verified,
 * stored and shown; the paid notice once; ranges and terms refused on the server at their edges; an
 * expired code cancelled by the unpaid-order sweep; an instalment payment refunded only whole.
 */

const ECPAY = { merchantId: '3002607', hashKey: 'pwFHCqoQZGmho4w6', hashIV: 'EkRm7iFT261dpevs' };

/*
 * Known answers: payment-info notices with the fields ECPay's PaymentInfoURL page lists for CVS
 * (PaymentNo, ExpireDate; Barcode1–3 blank) and BARCODE (Barcode1–3, ExpireDate; PaymentNo blank),
 * signed with the stage merchant's keys. The expected values were computed outside this code base
 * with Python's hashlib and urllib.parse.quote_plus (safe '-_.!*()', then lower-cased), the same
 * recipe that reproduces ECPay's own worked example (ecpay-check-mac.test.ts) to the last digit.
 */
const CVS_INFO = {
  MerchantID: '3002607',
  MerchantTradeNo: 'TW20261128000042P1',
  StoreID: '',
  RtnCode: '10100073',
  RtnMsg: 'Get CVS Code Succeeded.',
  TradeNo: '2611281030123456',
  TradeAmt: '1280',
  PaymentType: 'CVS_CVS',
  TradeDate: '2026/11/28 10:30:00',
  CustomField1: '',
  CustomField2: '',
  CustomField3: '',
  CustomField4: '',
  PaymentNo: 'LLL22251222',
  ExpireDate: '2026/12/05 10:30:00',
  Barcode1: '',
  Barcode2: '',
  Barcode3: '',
};
const CVS_INFO_MAC = 'EE159C3FEDF8F12C7874ABB7558DDDEAD079DF2E11D90799EB35836BE85C0E79';
const BARCODE_INFO = {
  ...CVS_INFO,
  RtnMsg: 'Get Barcode Succeeded.',
  PaymentType: 'BARCODE_BARCODE',
  PaymentNo: '',
  Barcode1: '2612056R1',
  Barcode2: '1234567890123456',
  Barcode3: '1226000000001280',
};
const BARCODE_INFO_MAC = 'A955F2278DFDCC3EDE95EC2AAA3EA4B51BD4631D99D26B547D307459C9A63508';

describe('CheckMacValue of store payment-info notices (known answers)', () => {
  it('signs a CVS code notice and a barcode notice as ECPay does', () => {
    expect(checkMacValue(CVS_INFO, ECPAY.hashKey, ECPAY.hashIV)).toBe(CVS_INFO_MAC);
    expect(checkMacValue(BARCODE_INFO, ECPAY.hashKey, ECPAY.hashIV)).toBe(BARCODE_INFO_MAC);
    expect(
      verifyCheckMacValue({ ...CVS_INFO, CheckMacValue: CVS_INFO_MAC }, ECPAY.hashKey, ECPAY.hashIV),
    ).toBe(true);
    // One changed digit of a barcode breaks it.
    expect(
      verifyCheckMacValue(
        { ...BARCODE_INFO, Barcode2: '1234567890123457', CheckMacValue: BARCODE_INFO_MAC },
        ECPAY.hashKey,
        ECPAY.hashIV,
      ),
    ).toBe(false);
  });

  it('reads the code or the three barcodes, and refuses what it cannot show', () => {
    expect(storeCodeOf(CVS_INFO)).toEqual({
      paymentNo: 'LLL22251222',
      barcodes: null,
      expireDate: '2026/12/05 10:30:00',
    });
    expect(storeCodeOf(BARCODE_INFO)).toEqual({
      paymentNo: null,
      barcodes: ['2612056R1', '1234567890123456', '1226000000001280'],
      expireDate: '2026/12/05 10:30:00',
    });
    expect(storeCodeOf({ ...BARCODE_INFO, Barcode3: '' })).toBeNull();
    expect(storeCodeOf({ ...BARCODE_INFO, Barcode1: 'abc<script>' })).toBeNull();
    expect(storeCodeOf({ ...CVS_INFO, PaymentNo: '' })).toBeNull();
    expect(storeCodeOf({ ...CVS_INFO, ExpireDate: 'soon' })).toBeNull();
  });
});

describe.skipIf(!dbAvailable())('store payments and instalments through ECPay', () => {
  let ctx: TestContext;
  let variants: Record<string, string>;
  let ownerCookie: string;
  beforeAll(async () => {
    ({ ctx, variants } = await shopWithCatalog());
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/test/session',
      payload: { email: 'owner-sp@example.com', role: 'owner' },
    });
    ownerCookie = res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  });
  afterAll(async () => ctx.close());

  const post = (path: string, fields: Record<string, string>) =>
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
  const info = (
    merchantTradeNo: string,
    amount: number,
    base = CVS_INFO,
    extra: Record<string, string> = {},
  ) =>
    signed({
      ...base,
      MerchantTradeNo: merchantTradeNo,
      TradeAmt: String(amount),
      ExpireDate: '2099/12/31 18:30:00',
      ...extra,
    });
  const paid = (merchantTradeNo: string, amount: number, extra: Record<string, string> = {}) =>
    signed({
      MerchantID: ECPAY.merchantId,
      MerchantTradeNo: merchantTradeNo,
      RtnCode: '1',
      RtnMsg: '交易成功',
      TradeNo: `T${merchantTradeNo}`,
      TradeAmt: String(amount),
      PaymentDate: '2026/11/28 11:00:00',
      PaymentType: 'CVS_CVS',
      SimulatePaid: '0',
      ...extra,
    });
  const saveSettings = (body: StorePaymentSettings) =>
    ctx.app.inject({
      method: 'PUT',
      url: '/api/admin/settings/store-payments',
      headers: { cookie: ownerCookie, origin: ORIGIN },
      payload: body,
    });
  const stockOf = async (sku: string) =>
    (
      await ctx.database.db
        .select({ s: productVariants.stock })
        .from(productVariants)
        .where(eq(productVariants.sku, sku))
    )[0]!.s;

  async function storeOrder(email: string, method: 'cvs_code' | 'cvs_barcode') {
    const s = await shopper(ctx.app, email);
    await s.add(variants['DD-S']!, 1);
    const res = await s.order({ paymentMethod: method });
    expect(res.statusCode, res.body).toBe(201);
    const { order, payment } = res.json();
    return { s, order, payment, tradeNo: `${order.orderNo}P1` as string };
  }

  it('asks ECPay for a CVS code with the owner’s deadline, shows and mails it, and is paid once', async () => {
    const { s, order, payment, tradeNo } = await storeOrder('cvs@example.com', 'cvs_code');
    expect(order.total).toBe(600);
    expect(payment.fields).toMatchObject({
      ChoosePayment: 'CVS',
      StoreExpireDate: '10080',
      PaymentInfoURL: 'http://localhost:3000/api/payments/ecpay/payment-info',
      ClientRedirectURL: 'http://localhost:3000/api/payments/ecpay/result',
    });
    expect(payment.fields.CreditInstallment).toBeUndefined();

    // Forged (wrong mac), for another amount, or a barcode for a code attempt: refused, nothing changes.
    const forged = { ...info(tradeNo, 600), PaymentNo: 'LLL00000000000' };
    expect((await post('/api/payments/ecpay/payment-info', forged)).body).toBe('0|CheckMacValue error');
    expect((await post('/api/payments/ecpay/payment-info', info(tradeNo, 601))).body).toBe(
      '0|TradeAmt does not match',
    );
    expect((await post('/api/payments/ecpay/payment-info', info(tradeNo, 600, BARCODE_INFO))).body).toBe(
      '0|PaymentType does not match',
    );
    expect((await s.call('GET', `/api/orders/${order.orderNo}`)).json().payment).toMatchObject({
      status: 'pending',
      store: null,
    });

    expect((await post('/api/payments/ecpay/payment-info', info(tradeNo, 600))).body).toBe('1|OK');
    const waiting = (await s.call('GET', `/api/orders/${order.orderNo}`)).json();
    expect(waiting).toMatchObject({
      status: 'pending_payment',
      canPay: false,
      payment: {
        status: 'waiting_transfer',
        message: '等待超商繳費',
        store: {
          paymentNo: 'LLL22251222',
          barcodes: null,
          expireDate: '2099/12/31 18:30:00',
          deadline: '2099/12/31 18:30',
        },
      },
    });
    // The code's deadline (Taiwan time) is the order's: the sweep cancels it when the code lapses.
    expect(waiting.expiresAt).toBe('2099-12-31T10:30:00.000Z');
    const mail = await latestMail(ctx.database, 'cvs@example.com', 'store-code');
    expect(mail.text).toContain('LLL22251222');
    expect(mail.text).toContain('2099/12/31 18:30');
    expect(mail.text).toContain('7-ELEVEN ibon');

    // A replayed info notice changes nothing; the paid notice twice is one payment.
    expect(
      (
        await post(
          '/api/payments/ecpay/payment-info',
          info(tradeNo, 600, CVS_INFO, { PaymentNo: 'LLL99999999999' }),
        )
      ).body,
    ).toBe('1|OK');
    expect((await post('/api/payments/ecpay/notify', paid(tradeNo, 599))).body).toBe(
      '0|TradeAmt does not match',
    );
    expect((await post('/api/payments/ecpay/notify', paid(tradeNo, 600))).body).toBe('1|OK');
    expect((await post('/api/payments/ecpay/notify', paid(tradeNo, 600))).body).toBe('1|OK');
    const done = (await s.call('GET', `/api/orders/${order.orderNo}`)).json();
    expect(done).toMatchObject({
      status: 'paid',
      payment: { status: 'paid', store: { paymentNo: 'LLL22251222' } },
    });
    const paidEvents = await ctx.database.db
      .select()
      .from(orderEvents)
      .innerJoin(orders, eq(orders.id, orderEvents.orderId))
      .where(eq(orders.orderNo, order.orderNo));
    expect(paidEvents.filter((e) => e.order_events.status === 'paid')).toHaveLength(1);
    const rows = await ctx.database.db.select().from(payments).where(eq(payments.merchantTradeNo, tradeNo));
    expect(rows).toHaveLength(1);
  });

  it('asks for barcodes in days, shows the three and takes the paid notice; the console sees them', async () => {
    const { s, order, payment, tradeNo } = await storeOrder('barcode@example.com', 'cvs_barcode');
    expect(payment.fields).toMatchObject({ ChoosePayment: 'BARCODE', StoreExpireDate: '7' });
    expect((await post('/api/payments/ecpay/payment-info', info(tradeNo, 600, BARCODE_INFO))).body).toBe(
      '1|OK',
    );
    expect((await s.call('GET', `/api/orders/${order.orderNo}`)).json().payment.store).toEqual({
      paymentNo: null,
      barcodes: ['2612056R1', '1234567890123456', '1226000000001280'],
      expireDate: '2099/12/31 18:30:00',
      deadline: '2099/12/31 18:30',
    });
    const staff = await ctx.app.inject({
      method: 'GET',
      url: `/api/admin/orders/${order.orderNo}`,
      headers: { cookie: ownerCookie },
    });
    expect(staff.statusCode, staff.body).toBe(200);
    expect(staff.json().payments[0]).toMatchObject({
      method: 'cvs_barcode',
      status: 'waiting_transfer',
      store: { barcodes: ['2612056R1', '1234567890123456', '1226000000001280'] },
    });
    expect(
      (await post('/api/payments/ecpay/notify', paid(tradeNo, 600, { PaymentType: 'BARCODE_BARCODE' }))).body,
    ).toBe('1|OK');
    expect((await s.call('GET', `/api/orders/${order.orderNo}`)).json().status).toBe('paid');
  });

  it('cancels the order and gives the stock back once the code has lapsed (the unpaid-order sweep)', async () => {
    const before = await stockOf('DD-S');
    const { s, order, tradeNo } = await storeOrder('lapsed@example.com', 'cvs_code');
    expect(await stockOf('DD-S')).toBe(before - 1);
    const lapsed = signed({
      ...CVS_INFO,
      MerchantTradeNo: tradeNo,
      TradeAmt: '600',
      ExpireDate: '2020/01/01 10:00:00',
    });
    expect((await post('/api/payments/ecpay/payment-info', lapsed)).body).toBe('1|OK');
    await ctx.app.sweepExpiredOrders();
    expect((await s.call('GET', `/api/orders/${order.orderNo}`)).json().status).toBe('expired');
    expect(await stockOf('DD-S')).toBe(before);
  });

  it('offers and accepts a store payment only within the owner’s range, at its edges (total NT$600)', async () => {
    const s = await shopper(ctx.app, 'range@example.com');
    const quote = async () =>
      (
        await s.call('POST', '/api/checkout/quote', {
          shippingMethod: 'home',
          city: '南投縣',
          district: '鹿谷鄉',
        })
      ).json().storePayments;
    const place = () => s.order({ paymentMethod: 'cvs_code' });
    const set = (cvsCode: Partial<StorePaymentSettings['cvsCode']>) =>
      saveSettings({ ...DEFAULT_STORE_PAYMENTS, cvsCode: { ...DEFAULT_STORE_PAYMENTS.cvsCode, ...cvsCode } });
    await s.add(variants['DD-S']!, 1);

    // min − 1: the total is one below the minimum.
    expect((await set({ minAmount: 601, maxAmount: 6000 })).statusCode).toBe(200);
    expect((await quote()).cvsCode).toBe(false);
    const below = await place();
    expect(below.statusCode).toBe(400);
    expect(below.json().error.message).toContain('超商代碼繳費限訂單金額 NT$601–NT$6,000');
    // min, then max: offered and placed.
    await set({ minAmount: 600, maxAmount: 6000 });
    expect((await quote()).cvsCode).toBe(true);
    expect((await place()).statusCode).toBe(201);
    await s.add(variants['DD-S']!, 1);
    await set({ minAmount: 33, maxAmount: 600 });
    expect((await quote()).cvsCode).toBe(true);
    expect((await place()).statusCode).toBe(201);
    await s.add(variants['DD-S']!, 1);
    // max + 1: the total is one above the maximum.
    await set({ minAmount: 33, maxAmount: 599 });
    expect((await quote()).cvsCode).toBe(false);
    expect((await place()).statusCode).toBe(400);
    // Switched off: refused whatever the total.
    await set({ enabled: false, minAmount: 33, maxAmount: 6000 });
    expect((await place()).json().error.message).toBe('目前不提供超商代碼繳費，請改選其他付款方式。');
    await saveSettings(DEFAULT_STORE_PAYMENTS);
  });

  it('refuses settings outside ECPay’s limits or out of order, beside the field', async () => {
    const bad = await saveSettings({
      ...DEFAULT_STORE_PAYMENTS,
      cvsCode: { enabled: true, minAmount: 26, maxAmount: 20_001, expireMinutes: 43_201 },
      cvsBarcode: { enabled: true, minAmount: 500, maxAmount: 400, expireDays: 31 },
      installments: { terms: [5], minAmount: 3000 },
    });
    expect(bad.statusCode).toBe(400);
    const fields = bad.json().error.fields as Record<string, string>;
    expect(Object.keys(fields)).toEqual(
      expect.arrayContaining([
        'cvsCode.minAmount',
        'cvsCode.maxAmount',
        'cvsCode.expireMinutes',
        'cvsBarcode.expireDays',
        'installments.terms.0',
      ]),
    );
    expect(
      (
        await ctx.app.inject({
          method: 'GET',
          url: '/api/admin/settings/store-payments',
          headers: { cookie: ownerCookie },
        })
      ).json(),
    ).toEqual(DEFAULT_STORE_PAYMENTS);
    // In order but past ECPay's edge on one side only: the range check speaks beside the maximum.
    const reversed = await saveSettings({
      ...DEFAULT_STORE_PAYMENTS,
      cvsBarcode: { enabled: true, minAmount: 500, maxAmount: 400, expireDays: 7 },
    });
    expect(reversed.json().error.fields).toEqual({ 'cvsBarcode.maxAmount': '最高金額不能低於最低金額' });
  });

  it('offers instalments from the owner’s minimum, carries the term to ECPay, and refunds them only whole', async () => {
    const s = await shopper(ctx.app, 'installments@example.com');
    const set = (minAmount: number) =>
      saveSettings({ ...DEFAULT_STORE_PAYMENTS, installments: { terms: [3, 6], minAmount } });
    await s.add(variants['DD-S']!, 1);

    await set(601); // min − 1
    expect((await s.order({ paymentMethod: 'credit_card', installments: 6 })).json().error.message).toBe(
      '訂單金額滿 NT$601 才能分期，請改為一次付清。',
    );
    await set(600); // min
    expect((await s.order({ paymentMethod: 'credit_card', installments: 12 })).json().error.message).toBe(
      '目前不提供分 12 期，請改選其他期數或一次付清。',
    );
    expect((await s.order({ paymentMethod: 'atm', installments: 6 })).json().error.message).toBe(
      '只有信用卡付款可以分期。',
    );
    const placed = await s.order({ paymentMethod: 'credit_card', installments: 6 });
    expect(placed.statusCode, placed.body).toBe(201);
    const { order, payment } = placed.json();
    expect(order.installments).toBe(6);
    expect(payment.fields).toMatchObject({ ChoosePayment: 'Credit', CreditInstallment: '6' });
    const tradeNo = `${order.orderNo}P1`;
    expect(
      (
        await post(
          '/api/payments/ecpay/notify',
          paid(tradeNo, 600, {
            PaymentType: 'Credit_CreditCard',
            gwsr: '12345678',
            stage: '6',
            stast: '100',
            staed: '100',
          }),
        )
      ).body,
    ).toBe('1|OK');
    const row = (await ctx.database.db.select().from(orders).where(eq(orders.orderNo, order.orderNo)))[0]!;
    expect(row).toMatchObject({ status: 'paid', installments: 6 });

    // Part of it: refused with staff's words, before anything is written.
    const partial = ctx.database.db.transaction((tx) =>
      requestRefund(tx, row, { key: 'part', amount: 200, reason: '部分退款' }),
    );
    await expect(partial).rejects.toThrow('綠界規定分期交易只能全額退刷');
    // The whole of it: one card refund of the total.
    const whole = await ctx.database.db.transaction((tx) =>
      requestRefund(tx, row, { key: 'whole', amount: 600, reason: '全額退款' }),
    );
    expect(whole).toMatchObject({ method: 'card', amount: 600 });
    await saveSettings(DEFAULT_STORE_PAYMENTS);
  });
});
