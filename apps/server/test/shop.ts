import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { DEMO_STORES, sandboxMapReply } from '../src/modules/logistics/sandbox/stores.ts';
import { eq } from 'drizzle-orm';
import { productVariants } from '../src/db/schema.ts';
import { checkMacValue } from '../src/lib/ecpay-check-mac.ts';
import { seedTestCatalog, setRole } from './fixtures.ts';
import { createTestApp, signIn } from './helpers.ts';

/**
 * The store map's reply for a trip, as the sandbox map posts it when the shopper picks `storeId`
 * (through the browser: no cookie).
 */
export async function replyFromMap(
  app: FastifyInstance,
  fields: Record<string, string>,
  storeId: string,
  overrides: Record<string, string> = {},
) {
  const store = DEMO_STORES.find((s) => s.id === storeId);
  if (!store) throw new Error(`no sandbox store ${storeId}`);
  return app.inject({
    method: 'POST',
    url: '/api/logistics/map-reply',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ ...sandboxMapReply(fields, store), ...overrides }).toString(),
  });
}

export const ORIGIN = 'http://localhost:3000';

/** A signed-in shopper driving the API the way the pages do. */
export async function shopper(app: FastifyInstance, email: string) {
  const { cookie, uid } = await signIn(app, email);
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: { cookie, origin: ORIGIN },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  return {
    cookie,
    uid,
    call,
    /** Opens the store map for a chain, as the checkout does; the map form's fields. */
    openMap: async (brand: string, returnTo = 'checkout') => {
      const res = await call('POST', '/api/logistics/map', { brand, returnTo });
      if (res.statusCode !== 200) throw new Error(`map form: ${res.statusCode} ${res.body}`);
      return res.json() as { action: string; fields: Record<string, string> };
    },
    /** Picks a store on the (sandbox) map, as a shopper does before ordering to it or saving it. */
    pickStore: async (brand: string, storeId: string) => {
      const res = await call('POST', '/api/logistics/map', { brand, returnTo: 'checkout' });
      const reply = await replyFromMap(
        app,
        (res.json() as { fields: Record<string, string> }).fields,
        storeId,
      );
      if (reply.statusCode !== 303) throw new Error(`map reply: ${reply.statusCode} ${reply.body}`);
      return reply.headers.location as string;
    },
    add: (variantId: string, quantity = 1) => call('POST', '/api/cart/items', { variantId, quantity }),
    order: (overrides: Record<string, unknown> = {}) =>
      call('POST', '/api/orders', {
        idempotencyKey: randomUUID(),
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
        ...overrides,
      }),
  };
}

/** The whole app on the test catalogue, and its variants' ids by SKU. */
export async function shopWithCatalog() {
  const ctx = await createTestApp({ PUBLIC_URL: 'http://localhost:3000' });
  await seedTestCatalog(ctx.database);
  const rows = await ctx.database.db
    .select({ id: productVariants.id, sku: productVariants.sku })
    .from(productVariants);
  return { ctx, variants: Object.fromEntries(rows.map((r) => [r.sku, r.id])) as Record<string, string> };
}

/** The whole app on the test catalogue with a staff member: the app, the 75 g 凍頂 tin (480) and the staff cookie. */
export async function shopWithStaff(staffEmail: string) {
  const ctx = await createTestApp();
  await seedTestCatalog(ctx.database);
  const variant = (
    await ctx.database.db
      .select({ id: productVariants.id })
      .from(productVariants)
      .where(eq(productVariants.sku, 'DD-S'))
  )[0]!.id;
  const staffCookie = (await signIn(ctx.app, staffEmail)).cookie;
  await setRole(ctx.database, staffEmail, 'staff');
  return { ctx, variant, staffCookie };
}

/** ECPay's signed payment notice for an order's first attempt, as the test merchant signs it. */
export function ecpayNotice(
  orderNo: string,
  rtnCode: string,
  rtnMsg: string,
  extra: Record<string, string> = {},
): string {
  const fields = {
    MerchantID: '3002607',
    MerchantTradeNo: `${orderNo}P1`,
    RtnCode: rtnCode,
    RtnMsg: rtnMsg,
    TradeNo: `T${orderNo}`,
    TradeAmt: '600',
    PaymentDate: '2026/11/26 10:00:00',
    PaymentType: 'Credit_CreditCard',
    SimulatePaid: '0',
    ...extra,
  };
  return new URLSearchParams({
    ...fields,
    CheckMacValue: checkMacValue(fields, 'pwFHCqoQZGmho4w6', 'EkRm7iFT261dpevs'),
  }).toString();
}

/** Posts a payment notice to the shop as ECPay does; answers ECPay's reply text. */
export async function notifyPayment(app: FastifyInstance, body: string): Promise<string> {
  return (
    await app.inject({
      method: 'POST',
      url: '/api/payments/ecpay/notify',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: body,
    })
  ).body;
}
