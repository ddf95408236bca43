import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOrderAdvance } from '../src/cli/order-advance.ts';
import { auditLog, orderEvents, orders, productVariants } from '../src/db/schema.ts';
import { cliTokenFile } from '../src/lib/cli-token.ts';
import { ledgerBalances } from '../src/modules/catalog/stock.ts';
import { orderDeps } from '../src/modules/orders/deps.ts';
import { expireOrder } from '../src/modules/orders/lifecycle.ts';
import { checkMacValue } from '../src/lib/ecpay-check-mac.ts';
import { seedTestCatalog, setRole } from './fixtures.ts';
import { createTestApp, dbAvailable, signIn, type TestContext } from './helpers.ts';
import { ORIGIN, shopper } from './shop.ts';

const ECPAY = { merchantId: '3002607', hashKey: 'pwFHCqoQZGmho4w6', hashIV: 'EkRm7iFT261dpevs' };
const CVS = {
  method: 'cvs',
  recipientName: '林小嵐',
  phone: '0912345678',
  cvsBrand: 'FAMILY',
  storeId: '018234',
};

/**
 * Every door an order can be moved through (the console's actions, the console's /advance, the
 * command line `npm run order:advance`, a payment notice, the expiry sweep) takes it through the
 * orders module's one door: an illegal move is refused alike everywhere and changes nothing.
 */
describe.skipIf(!dbAvailable())('one door for every change of an order', () => {
  let ctx: TestContext;
  let variants: Record<string, string>;
  let staffCookie: string;
  let base: string;
  let token: string;

  beforeAll(async () => {
    ctx = await createTestApp();
    await seedTestCatalog(ctx.database);
    const rows = await ctx.database.db
      .select({ id: productVariants.id, sku: productVariants.sku })
      .from(productVariants);
    variants = Object.fromEntries(rows.map((r) => [r.sku, r.id]));
    staffCookie = (await signIn(ctx.app, 'doors-staff@example.com')).cookie;
    await setRole(ctx.database, 'doors-staff@example.com', 'staff');
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    token = fs.readFileSync(cliTokenFile(ctx.app.config.dataDir), 'utf8').trim();
  });
  afterAll(async () => ctx.close());

  const staff = (url: string, payload: object) =>
    ctx.app.inject({ method: 'POST', url, headers: { cookie: staffCookie, origin: ORIGIN }, payload });
  const action = (orderNo: string, body: object) => staff(`/api/admin/orders/${orderNo}/actions`, body);
  const advance = (orderNo: string, body: object) => staff(`/api/admin/orders/${orderNo}/advance`, body);
  /** The command line, run against the listening server with the machine's token. */
  const commandLine = async (...args: string[]) => {
    const errors: string[] = [];
    const code = await runOrderAdvance(args, {
      base,
      token,
      log: () => {},
      error: (line) => errors.push(line),
    });
    return { code, error: errors.join('\n') };
  };

  /** Everything a move could change: status, history, audit trail, the stock and its ledger. */
  const stateOf = async (orderNo: string, sku: string) => {
    const db = ctx.database.db;
    const [order] = await db
      .select({ id: orders.id, status: orders.status })
      .from(orders)
      .where(eq(orders.orderNo, orderNo));
    const [events] = await db
      .select({ n: count() })
      .from(orderEvents)
      .where(eq(orderEvents.orderId, order!.id));
    const [audit] = await db.select({ n: count() }).from(auditLog).where(eq(auditLog.entityId, orderNo));
    return {
      status: order!.status,
      events: events!.n,
      audit: audit!.n,
      ...(await ledgerBalances(db, variants[sku]!)),
    };
  };

  const placed = async (email: string, sku: string, overrides: Record<string, unknown> = {}) => {
    const s = await shopper(ctx.app, email);
    await s.add(variants[sku]!, 1);
    const shipping = overrides.shipping as
      { method?: string; cvsBrand?: string; storeId?: string } | undefined;
    if (shipping?.method === 'cvs') await s.pickStore(shipping.cvsBrand!, shipping.storeId!);
    const res = await s.order(overrides);
    expect(res.statusCode, res.body).toBe(201);
    return { s, order: res.json().order as { orderNo: string; total: number } };
  };

  it('refunding a cash-on-delivery order before delivery: refused alike by the console, /advance and the command line', async () => {
    const { order } = await placed('doors-cod@example.com', 'CUP-1');
    const before = await stateOf(order.orderNo, 'CUP-1');
    expect(before.status).toBe('processing');

    const byAction = await action(order.orderNo, { action: 'refund', reason: '客人不要了' });
    expect(byAction.statusCode).toBe(409);
    expect(byAction.json().error.code).toBe('invalid-transition');
    const byAdvance = await advance(order.orderNo, { status: 'refunded' });
    expect(byAdvance.statusCode).toBe(409);
    expect(byAdvance.json().error).toMatchObject({
      code: 'invalid-transition',
      message: byAction.json().error.message,
    });
    const byCommandLine = await commandLine(order.orderNo, 'refunded');
    expect(byCommandLine).toEqual({ code: 1, error: `Refused: ${byAction.json().error.message}` });

    expect(await stateOf(order.orderNo, 'CUP-1')).toEqual(before);
  });

  it('「arrived at the store」 on a home delivery: refused alike by the console, /advance and the command line', async () => {
    const { order } = await placed('doors-home@example.com', 'CUP-1');
    expect(
      (await action(order.orderNo, { action: 'ship', carrier: '黑貓宅急便', trackingNo: '905512345678' }))
        .statusCode,
    ).toBe(200);
    const before = await stateOf(order.orderNo, 'CUP-1');
    expect(before.status).toBe('shipped');

    const byAction = await action(order.orderNo, { action: 'shipment-event', event: 'arrived_at_store' });
    expect(byAction.statusCode).toBe(400);
    expect(byAction.json().error.code).toBe('invalid-argument');
    const byAdvance = await advance(order.orderNo, { shipmentEvent: 'arrived_at_store' });
    expect(byAdvance.statusCode).toBe(400);
    expect(byAdvance.json().error).toMatchObject({
      code: 'invalid-argument',
      message: byAction.json().error.message,
    });
    const byCommandLine = await commandLine(order.orderNo, 'arrived_at_store');
    expect(byCommandLine).toEqual({ code: 1, error: `Refused: ${byAction.json().error.message}` });

    expect(await stateOf(order.orderNo, 'CUP-1')).toEqual(before);
  });

  it('shipping with a carrier the shop does not use: refused alike by the console and /advance', async () => {
    const { order } = await placed('doors-carrier@example.com', 'CUP-1');
    const before = await stateOf(order.orderNo, 'CUP-1');

    const byAction = await action(order.orderNo, {
      action: 'ship',
      carrier: '隔壁老王物流',
      trackingNo: '905512345678',
    });
    expect(byAction.statusCode).toBe(400);
    expect(byAction.json().error.code).toBe('invalid-argument');
    const byAdvance = await advance(order.orderNo, {
      status: 'shipped',
      carrier: '隔壁老王物流',
      trackingNo: '905512345678',
    });
    expect(byAdvance.statusCode).toBe(400);
    expect(byAdvance.json().error.code).toBe('invalid-argument');
    // (The command line always names the shop's own carrier, so it cannot ask for this move.)

    expect(await stateOf(order.orderNo, 'CUP-1')).toEqual(before);
  });

  it('a move the state machine forbids (cancelling a shipped order): refused alike by the console, /advance and the command line', async () => {
    const { order } = await placed('doors-shipped@example.com', 'CUP-1', { shipping: CVS });
    expect(
      (await action(order.orderNo, { action: 'ship', carrier: '全家店到店', trackingNo: 'F12345678' }))
        .statusCode,
    ).toBe(200);
    const before = await stateOf(order.orderNo, 'CUP-1');

    const byAction = await action(order.orderNo, { action: 'cancel', reason: '不要了' });
    expect(byAction.statusCode).toBe(409);
    expect(byAction.json().error.code).toBe('invalid-transition');
    const byAdvance = await advance(order.orderNo, { status: 'cancelled' });
    expect(byAdvance.statusCode).toBe(409);
    expect(byAdvance.json().error.code).toBe('invalid-transition');
    const byCommandLine = await commandLine(order.orderNo, 'cancelled');
    expect(byCommandLine.code).toBe(1);
    expect(byCommandLine.error).toMatch(/^Refused: 訂單目前為「已出貨」/);

    expect(await stateOf(order.orderNo, 'CUP-1')).toEqual(before);
  });

  it('a paid notice for a cancelled order: the payment is kept for a refund, the order and its stock stay as they are', async () => {
    const { s, order } = await placed('doors-paid@example.com', 'DD-S', { paymentMethod: 'credit_card' });
    expect((await s.call('POST', `/api/orders/${order.orderNo}/cancel`)).statusCode).toBe(200);
    const before = await stateOf(order.orderNo, 'DD-S');
    expect(before.status).toBe('cancelled');

    const fields = {
      MerchantID: ECPAY.merchantId,
      MerchantTradeNo: `${order.orderNo}P1`,
      RtnCode: '1',
      RtnMsg: '交易成功',
      TradeNo: `T${Date.now()}`,
      TradeAmt: String(order.total),
      PaymentDate: '2026/11/22 10:00:00',
      PaymentType: 'Credit_CreditCard',
      SimulatePaid: '0',
    };
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments/ecpay/notify',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        ...fields,
        CheckMacValue: checkMacValue(fields, ECPAY.hashKey, ECPAY.hashIV),
      }).toString(),
    });
    expect(res.body).toBe('1|OK');

    // Only the note on the order's history, so staff know to refund it.
    expect(await stateOf(order.orderNo, 'DD-S')).toEqual({ ...before, events: before.events + 1 });
  });

  it('the expiry sweep: an order that is no longer waiting for payment is never expired, even past its deadline', async () => {
    const { order } = await placed('doors-sweep@example.com', 'LS-S');
    const db = ctx.database.db;
    await db
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(orders.orderNo, order.orderNo));
    const before = await stateOf(order.orderNo, 'LS-S');
    expect(before.status).toBe('processing');

    await ctx.app.sweepExpiredOrders();
    expect(await stateOf(order.orderNo, 'LS-S')).toEqual(before);

    // The sweep's own move for one order, asked for directly, is refused the same way.
    const [row] = await db.select({ id: orders.id }).from(orders).where(eq(orders.orderNo, order.orderNo));
    await expect(expireOrder(orderDeps(ctx.app), row!.id)).rejects.toMatchObject({
      statusCode: 409,
      code: 'invalid-transition',
    });
    expect(await stateOf(order.orderNo, 'LS-S')).toEqual(before);
  });
});
