import { createHmac, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbAvailable, testConfig, createTestDatabase, type TestContext } from '../../../../test/helpers.ts';
import { productionEnv } from '../../../../test/production.ts';
import { ORIGIN, shopWithStaff, shopper } from '../../../../test/shop.ts';
import { seedTestCatalog } from '../../../../test/fixtures.ts';
import { buildApp } from '../../../app.ts';
import { ConfigError, loadConfig } from '../../../config/env.ts';
import { LINE_PAY_SANDBOX_CHANNEL } from '../../../config/line-pay-config.ts';
import { orderEvents, orders, payments, sandboxLinePayTransactions } from '../../../db/schema.ts';
import { orderDeps } from '../../orders/deps.ts';
import { confirmLinePay } from '../../orders/line-pay-payments.ts';
import { requestRefund } from '../refunds.ts';
import { linePayClient } from './client.ts';
import { REQUEST_PATH, confirmPath, linePaySignature, parseLinePayJson, signedHeaders } from './protocol.ts';

/** LINE Pay's documented Request example (developers-pay.line.me, "Payment request"), as sent. */
const DOC_BODY =
  '{"amount":100,"currency":"TWD","orderId":"MKSI_S_20180904_1000001","packages":[{"id":"1","amount":100,"products":[{"id":"PEN-B-001","name":"Pen Brown","imageUrl":"https://pay-store.example.com/images/pen_brown.jpg","quantity":2,"price":50}]}],"redirectUrls":{"confirmUrl":"https://pay-store.example.com/order/payment/authorize","cancelUrl":"https://pay-store.example.com/order/payment/cancel"}}';
const DOC_SECRET = 'a917ab6a2367b536f8e5a6e2977e06f4';
const DOC_NONCE = '44453d45-768e-40e8-8349-748e797c450f';

describe('LINE Pay signature and ids', () => {
  it('signs the documented request as Base64(HMAC-SHA256(secret, secret + path + body + nonce))', () => {
    // Computed apart from the code under test (node:crypto here, Python's hmac when written).
    const expected = createHmac('sha256', DOC_SECRET)
      .update(DOC_SECRET + REQUEST_PATH + DOC_BODY + DOC_NONCE)
      .digest('base64');
    expect(expected).toBe('ZFSq52HfkloSNYmYC+nz2LebfVsbKjpnOS8zIsEku8Q=');
    expect(linePaySignature(DOC_SECRET, REQUEST_PATH, DOC_BODY, DOC_NONCE)).toBe(expected);
    // GET signs the query string (without "?") in the body's place.
    expect(linePaySignature(DOC_SECRET, '/v3/payments', 'transactionId=2018082512345678910', DOC_NONCE)).toBe(
      'Pi5EOt+wAc3B2hADklp7iMMwfTaTpeqSQ5qGNhWFHyo=',
    );
  });

  it('keeps a 19-digit transactionId exact, which JSON.parse would round', () => {
    const text =
      '{"returnCode":"0000","info":{"transactionId":2018082512345678910,"note":"id 2018082512345678910","amount":100}}';
    expect(String((JSON.parse(text) as { info: { transactionId: number } }).info.transactionId)).not.toBe(
      '2018082512345678910',
    );
    expect(parseLinePayJson(text)).toEqual({
      returnCode: '0000',
      info: { transactionId: '2018082512345678910', note: 'id 2018082512345678910', amount: 100 },
    });
  });
});

describe('LINE Pay settings', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return [];
    } catch (error) {
      return error instanceof ConfigError ? error.problems : [String(error)];
    }
  };
  it('production hides LINE Pay without credentials and refuses half of them, the stand-ins or another host', () => {
    expect(loadConfig(productionEnv()).linePay).toBeUndefined();
    expect(problems(productionEnv({ LINE_PAY_CHANNEL_ID: '1234567890' }))).toEqual([
      expect.stringMatching(/^LINE_PAY_CHANNEL_SECRET: required/),
    ]);
    expect(
      problems(
        productionEnv({
          LINE_PAY_CHANNEL_ID: LINE_PAY_SANDBOX_CHANNEL.channelId,
          LINE_PAY_CHANNEL_SECRET: LINE_PAY_SANDBOX_CHANNEL.channelSecret,
        }),
      ).join(),
    ).toMatch(/stand-in/);
    const real = { LINE_PAY_CHANNEL_ID: '1234567890', LINE_PAY_CHANNEL_SECRET: 'f'.repeat(32) };
    expect(
      problems(productionEnv({ ...real, LINE_PAY_API_BASE: 'https://shop.example/sandbox/linepay' })).join(),
    ).toMatch(/^LINE_PAY_API_BASE: must be/);
    expect(
      problems(productionEnv({ ...real, LINE_PAY_API_BASE: 'https://sandbox-api-pay.line.me' })).join(),
    ).toMatch(/LINE Pay's sandbox/);
    expect(loadConfig(productionEnv(real)).linePay).toMatchObject({
      apiBase: 'https://api-pay.line.me',
      sandbox: false,
    });
    // The secret's value never reaches the message.
    expect(
      problems(productionEnv({ ...real, LINE_PAY_CHANNEL_SECRET: 'not-a-secret-key' })).join(),
    ).toContain('(got 16 characters)');
  });
  it('outside production a shop without credentials uses the built-in sandbox', () => {
    expect(testConfig().linePay).toEqual({
      ...LINE_PAY_SANDBOX_CHANNEL,
      apiBase: 'http://localhost:3000/sandbox/linepay',
      sandbox: true,
    });
  });
});

describe.skipIf(!dbAvailable())('LINE Pay through the app and its sandbox', () => {
  let ctx: TestContext;
  let variant: string;
  let staffCookie: string;
  beforeAll(async () => {
    ({ ctx, variant, staffCookie } = await shopWithStaff('linepay-staff@example.com'));
  });
  afterAll(async () => ctx.close());

  const path = (url: string) => {
    const u = new URL(url, ORIGIN);
    return `${u.pathname}${u.search}`;
  };
  const form = (fields: Record<string, string>) => ({
    'content-type': 'application/x-www-form-urlencoded',
    payload: new URLSearchParams(fields).toString(),
  });

  /** A LINE Pay order; its number, the shopper and the total. */
  const lineOrder = async (email: string) => {
    const s = await shopper(ctx.app, email);
    await s.add(variant, 1);
    const res = await s.order({ paymentMethod: 'line_pay' });
    expect(res.statusCode).toBe(201);
    const body = res.json() as {
      order: { orderNo: string; total: number };
      payment: { action: string; fields: Record<string, string> };
    };
    expect(body.payment).toEqual({
      action: `${ORIGIN}/api/payments/linepay/start`,
      fields: { order: body.order.orderNo },
    });
    return { s, orderNo: body.order.orderNo, total: body.order.total };
  };

  /** The member leaves for LINE Pay (the checkout's form) and decides on the sandbox's page; where the browser goes next. */
  const atLinePay = async (
    s: { cookie: string },
    orderNo: string,
    action: 'pay' | 'cancel',
    scenario = 'pay',
  ) => {
    const { payload, ...headers } = form({ order: orderNo });
    const start = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments/linepay/start',
      headers: { ...headers, cookie: s.cookie, origin: ORIGIN },
      payload,
    });
    expect(start.statusCode).toBe(303);
    const web = new URL(start.headers.location as string);
    expect(web.pathname).toBe('/sandbox/linepay/web/payment/wait');
    const page = await ctx.app.inject({ method: 'GET', url: path(web.href) });
    expect(page.statusCode).toBe(200);
    const reserve = web.searchParams.get('transactionReserveId')!;
    const decided = form({ transactionReserveId: reserve, action, scenario });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/sandbox/linepay/web/payment/decide',
      headers: { 'content-type': decided['content-type'] },
      payload: decided.payload,
    });
    expect(res.statusCode).toBe(303);
    return new URL(res.headers.location as string);
  };

  const orderRow = async (orderNo: string) =>
    (await ctx.database.db.select().from(orders).where(eq(orders.orderNo, orderNo)))[0]!;
  const attempts = async (orderNo: string) =>
    ctx.database.db
      .select()
      .from(payments)
      .where(eq(payments.orderId, (await orderRow(orderNo)).id))
      .orderBy(payments.createdAt);
  const signed = (
    apiPath: string,
    body: string,
    nonce = randomUUID(),
    secret: string = LINE_PAY_SANDBOX_CHANNEL.channelSecret,
  ) => ({
    ...signedHeaders(
      { channelId: LINE_PAY_SANDBOX_CHANNEL.channelId, channelSecret: secret },
      apiPath,
      body,
      nonce,
    ),
  });

  it('pays: the request, LINE Pay page, confirm for the order amount, and the 19-digit id kept exact', async () => {
    const { s, orderNo, total } = await lineOrder('linepay-paid@example.com');
    const back = await atLinePay(s, orderNo, 'pay');
    expect(back.pathname).toBe('/api/payments/linepay/confirm');
    const transactionId = back.searchParams.get('transactionId')!;
    expect(transactionId).toMatch(/^\d{19}$/);
    expect(Number.isSafeInteger(Number(transactionId))).toBe(false);
    const res = await ctx.app.inject({ method: 'GET', url: path(back.href) });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/payComplete?order=${orderNo}`);
    const detail = (await s.call('GET', `/api/orders/${orderNo}`)).json() as {
      status: string;
      payment: { status: string };
    };
    expect(detail).toMatchObject({ status: 'paid', payment: { status: 'paid' } });
    const [attempt] = await attempts(orderNo);
    expect(attempt).toMatchObject({
      provider: 'linepay',
      method: 'line_pay',
      status: 'paid',
      tradeNo: transactionId,
      amount: total,
      confirmingAt: null,
    });
    const [t] = await ctx.database.db
      .select()
      .from(sandboxLinePayTransactions)
      .where(eq(sandboxLinePayTransactions.transactionId, transactionId));
    expect(t?.transaction).toMatchObject({ state: 'confirmed', amount: total, orderId: `${orderNo}P1` });
  });

  it('a second return, or two at once, makes one payment', async () => {
    const { s, orderNo } = await lineOrder('linepay-twice@example.com');
    const back = await atLinePay(s, orderNo, 'pay');
    const [a, b] = await Promise.all([
      ctx.app.inject({ method: 'GET', url: path(back.href) }),
      ctx.app.inject({ method: 'GET', url: path(back.href) }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([303, 303]);
    const again = await ctx.app.inject({ method: 'GET', url: path(back.href) });
    expect(again.headers.location).toBe(`/payComplete?order=${orderNo}`);
    const order = await orderRow(orderNo);
    expect(order.status).toBe('paid');
    const paidEvents = (
      await ctx.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id))
    ).filter((e) => e.status === 'paid');
    expect(paidEvents).toHaveLength(1);
    expect((await attempts(orderNo)).map((p) => p.status)).toEqual(['paid']);
  });

  it('a forged or replayed return (a pair the shop never requested) is refused and changes nothing', async () => {
    const { s, orderNo } = await lineOrder('linepay-forged@example.com');
    const other = await lineOrder('linepay-forged-2@example.com');
    const back = await atLinePay(s, orderNo, 'pay');
    const otherBack = await atLinePay(other.s, other.orderNo, 'pay');
    const id = back.searchParams.get('transactionId')!;
    const wrongId = `${id.slice(0, -1)}${(Number(id.at(-1)) + 1) % 10}`;
    for (const query of [
      { transactionId: wrongId, orderId: `${orderNo}P1` },
      { transactionId: otherBack.searchParams.get('transactionId')!, orderId: `${orderNo}P1` },
      { transactionId: id, orderId: `${other.orderNo}P1` },
      { transactionId: 'abc', orderId: `${orderNo}P1` },
    ]) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/payments/linepay/confirm?${new URLSearchParams(query)}`,
      });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/payComplete?order=');
    }
    expect((await orderRow(orderNo)).status).toBe('pending_payment');
    expect((await attempts(orderNo)).map((p) => p.status)).toEqual(['pending']);
    expect((await orderRow(other.orderNo)).status).toBe('pending_payment');
  });

  it('the sandbox refuses a forged signature, a nonce used twice and a confirm for another amount', async () => {
    const { s, orderNo, total } = await lineOrder('linepay-sandbox@example.com');
    const back = await atLinePay(s, orderNo, 'pay');
    const id = back.searchParams.get('transactionId')!;
    const call = async (amount: number, headers: Record<string, string>) =>
      parseLinePayJson(
        (
          await ctx.app.inject({
            method: 'POST',
            url: `/sandbox/linepay${confirmPath(id)}`,
            headers,
            payload: JSON.stringify({ amount, currency: 'TWD' }),
          })
        ).body,
      ) as { returnCode: string };
    const body = (amount: number) => JSON.stringify({ amount, currency: 'TWD' });
    expect(
      await call(total, signed(confirmPath(id), body(total), randomUUID(), 'f'.repeat(32))),
    ).toMatchObject({ returnCode: '1106' });
    expect(
      await call(total, { ...signed(confirmPath(id), body(total)), 'x-line-channelid': '1234567890' }),
    ).toMatchObject({ returnCode: '1104' });
    // Signed for one body, sent with another: the signature covers the body.
    expect(await call(total + 1, signed(confirmPath(id), body(total)))).toMatchObject({ returnCode: '1106' });
    expect(await call(total - 1, signed(confirmPath(id), body(total - 1)))).toMatchObject({
      returnCode: '1153',
    });
    const once = signed(confirmPath(id), body(total));
    expect(await call(total, once)).toMatchObject({ returnCode: '0000' });
    expect(await call(total, once)).toMatchObject({ returnCode: '1106' });
    expect(await call(total, signed(confirmPath(id), body(total)))).toMatchObject({ returnCode: '1172' });
    // The shop's own return after that confirm: LINE says it is done (1172), its status check says paid.
    await ctx.app.inject({ method: 'GET', url: path(back.href) });
    expect((await orderRow(orderNo)).status).toBe('paid');
  });

  it("a confirm answer whose amount is not the order's is not taken as paid", async () => {
    const { s, orderNo, total } = await lineOrder('linepay-amount@example.com');
    const back = await atLinePay(s, orderNo, 'pay');
    const real = linePayClient(ctx.app.config.linePay!, async () => new Response('{}'));
    const stub = {
      ...real,
      confirm: async (transactionId: string) => ({
        ok: true as const,
        answer: {
          returnCode: '0000',
          returnMessage: 'Success.',
          info: {
            transactionId,
            orderId: `${orderNo}P1`,
            payInfo: [{ method: 'BALANCE', amount: total - 100 }],
          },
        },
      }),
    };
    const step = await confirmLinePay(
      { ...orderDeps(ctx.app), linePay: stub },
      { transactionId: back.searchParams.get('transactionId')!, orderId: back.searchParams.get('orderId')! },
    );
    expect(step.outcome).toBe('failed');
    expect((await orderRow(orderNo)).status).toBe('payment_failed');
  });

  it('a confirm LINE refuses leaves the order payable with the reason, and paying again works', async () => {
    const { s, orderNo } = await lineOrder('linepay-fail@example.com');
    const back = await atLinePay(s, orderNo, 'pay', 'confirm-fail');
    await ctx.app.inject({ method: 'GET', url: path(back.href) });
    const detail = (await s.call('GET', `/api/orders/${orderNo}`)).json() as {
      status: string;
      canPay: boolean;
      payment: { message: string };
    };
    expect(detail).toMatchObject({ status: 'payment_failed', canPay: true });
    expect(detail.payment.message).toBe('付款未成功：LINE Pay 信用卡付款錯誤（1281）。');
    const again = await atLinePay(s, orderNo, 'pay');
    expect(again.searchParams.get('orderId')).toBe(`${orderNo}P2`);
    await ctx.app.inject({ method: 'GET', url: path(again.href) });
    expect((await orderRow(orderNo)).status).toBe('paid');
    expect((await attempts(orderNo)).map((p) => p.status)).toEqual(['failed', 'paid']);
  });

  it("cancelling on LINE Pay's page keeps the order payable, with 已取消 LINE Pay 付款", async () => {
    const { s, orderNo } = await lineOrder('linepay-cancel@example.com');
    const cancel = await atLinePay(s, orderNo, 'cancel');
    expect(cancel.pathname).toBe('/api/payments/linepay/cancel');
    // Someone else's visit to the cancel URL changes nothing.
    await ctx.app.inject({ method: 'GET', url: path(cancel.href) });
    expect((await attempts(orderNo)).map((p) => p.status)).toEqual(['pending']);
    const res = await ctx.app.inject({
      method: 'GET',
      url: path(cancel.href),
      headers: { cookie: s.cookie },
    });
    expect(res.headers.location).toBe(`/payComplete?order=${orderNo}`);
    const detail = (await s.call('GET', `/api/orders/${orderNo}`)).json() as {
      status: string;
      canPay: boolean;
      payment: { message: string };
      events: Array<{ note: string }>;
    };
    expect(detail).toMatchObject({
      status: 'pending_payment',
      canPay: true,
      payment: { message: '已取消 LINE Pay 付款' },
    });
    expect(detail.events.at(-1)?.note).toBe('已取消 LINE Pay 付款');
  });

  it('staff refunds a LINE Pay order in part and then in full through the Refund API, and its invoice follows', async () => {
    const { s, orderNo, total } = await lineOrder('linepay-refund@example.com');
    const back = await atLinePay(s, orderNo, 'pay');
    await ctx.app.inject({ method: 'GET', url: path(back.href) });
    await ctx.app.outbox.drain();
    const transactionId = back.searchParams.get('transactionId')!;
    const order = await orderRow(orderNo);
    await ctx.database.db.transaction((tx) =>
      requestRefund(tx, order, { key: `test:${orderNo}:part`, amount: 100, reason: '少一件' }),
    );
    await ctx.app.outbox.drain();
    const sandboxTx = async () =>
      (
        await ctx.database.db
          .select()
          .from(sandboxLinePayTransactions)
          .where(eq(sandboxLinePayTransactions.transactionId, transactionId))
      )[0]!.transaction as { refunds: Array<{ amount: number; refundTransactionId: string }> };
    expect((await sandboxTx()).refunds.map((r) => r.amount)).toEqual([100]);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${orderNo}/actions`,
      headers: { cookie: staffCookie, origin: ORIGIN },
      payload: { action: 'refund', reason: '商品瑕疵' },
    });
    expect(res.statusCode).toBe(200);
    await ctx.app.outbox.drain();
    expect((await sandboxTx()).refunds.map((r) => r.amount)).toEqual([100, total - 100]);
    const detail = (await s.call('GET', `/api/orders/${orderNo}`)).json() as {
      status: string;
      refunds: Array<{ method: string; amount: number; status: string }>;
      issuedInvoice: { status: string } | null;
    };
    expect(detail.status).toBe('refunded');
    expect(detail.refunds).toMatchObject([
      { method: 'line_pay', amount: 100, status: 'done' },
      { method: 'line_pay', amount: total - 100, status: 'done' },
    ]);
    // As for a card: the refunded sale's invoice is voided.
    expect(detail.issuedInvoice?.status).toBe('void');
  });
});

describe.skipIf(!dbAvailable())('LINE Pay not configured', () => {
  it('is not offered at checkout, and an order for it is refused', async () => {
    const database = await createTestDatabase();
    const app = await buildApp({
      config: { ...testConfig(), linePay: undefined },
      database,
      closeDatabase: false,
    });
    await app.ready();
    try {
      await seedTestCatalog(database);
      const s = await shopper(app, 'linepay-hidden@example.com');
      expect((await s.call('GET', '/api/checkout/payment-options')).json()).toEqual({ linePay: false });
      const res = await s.order({ paymentMethod: 'line_pay' });
      expect(res.statusCode).toBe(400);
      expect(
        (res.json() as { error: { fields: Record<string, string> } }).error.fields.paymentMethod,
      ).toMatch(/LINE Pay/);
      expect(
        (await app.inject({ method: 'POST', url: '/sandbox/linepay/v3/payments/request' })).statusCode,
      ).toBe(404);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
