import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbAvailable, signIn, type TestContext } from '../../../test/helpers.ts';
import { seedTestCatalog, setRole } from '../../../test/fixtures.ts';
import { ORIGIN, shopper } from '../../../test/shop.ts';
import { orders, productVariants } from '../../db/schema.ts';
import { dashboard } from './service.ts';

describe.skipIf(!dbAvailable())('console dashboard', () => {
  let ctx: TestContext;
  let variants: Record<string, string>;
  let owner: string;
  beforeAll(async () => {
    ctx = await createTestApp();
    await seedTestCatalog(ctx.database);
    const rows = await ctx.database.db
      .select({ id: productVariants.id, sku: productVariants.sku })
      .from(productVariants);
    variants = Object.fromEntries(rows.map((r) => [r.sku, r.id]));
    owner = (await signIn(ctx.app, 'owner@example.com')).cookie;
    await setRole(ctx.database, 'owner@example.com', 'owner');
  });
  afterAll(async () => ctx.close());

  it('counts today’s and this month’s sales, orders by status, low stock and 30 days of sales', async () => {
    const s = await shopper(ctx.app, 'buyer@example.com');
    // Two cash-on-delivery orders: the one delivered is a sale (its money is collected then), the
    // one being packed is not yet; a card order waits for payment (not a sale).
    await s.add(variants['DD-S']!, 2);
    const first = (await s.order()).json().order;
    for (const body of [
      { status: 'shipped', carrier: '黑貓宅急便', trackingNo: '123456789012' },
      { shipmentEvent: 'delivered' },
    ]) {
      const moved = await ctx.app.inject({
        method: 'POST',
        url: `/api/admin/orders/${first.orderNo}/advance`,
        headers: { cookie: owner, origin: ORIGIN },
        payload: body,
      });
      expect(moved.statusCode, moved.body).toBe(200);
    }
    await s.add(variants['CUP-1']!, 1);
    const second = (await s.order()).json().order;
    await s.add(variants['CUP-1']!, 1);
    const unpaid = (await s.order({ paymentMethod: 'credit_card' })).json().order;
    // One order from 40 days ago: in no window but the status counts.
    await s.add(variants['CUP-1']!, 1);
    const oldRes = await s.order();
    expect(oldRes.statusCode, oldRes.body).toBe(201);
    const old = oldRes.json().order;
    await ctx.database.db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - 40 * 86_400_000) })
      .where(eq(orders.orderNo, old.orderNo));

    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/admin/dashboard',
      headers: { cookie: owner },
    });
    expect(res.statusCode).toBe(200);
    const d = res.json();
    const expected = first.total;
    expect(second.status).toBe('processing');
    expect(d.today).toEqual({ sales: expected, orders: 1 });
    expect(d.month.sales).toBeGreaterThanOrEqual(expected);
    expect(d.byStatus.find((x: { status: string }) => x.status === 'processing').count).toBe(2);
    expect(d.byStatus.find((x: { status: string }) => x.status === 'delivered').count).toBe(1);
    expect(d.byStatus.find((x: { status: string }) => x.status === 'pending_payment').count).toBe(1);
    expect(unpaid.status).toBe('pending_payment');
    expect(d.daily).toHaveLength(30);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Taipei' }).format(new Date());
    expect(d.daily.at(-1)).toEqual({ date: today, sales: expected, orders: 1 });
    expect(d.daily.reduce((n: number, x: { sales: number }) => n + x.sales, 0)).toBe(expected);
    // Sold out and nearly sold out variants of products on sale; not the draft.
    const skus = d.lowStock.map((v: { sku: string }) => v.sku);
    expect(skus).toEqual(expect.arrayContaining(['DD-L', 'RB-S', 'RB-L', 'LS-L', 'POT-1']));
    expect(skus).not.toContain('NX-S');
    expect(d.lowStock[0].stock).toBe(0);
  });

  it('puts a sale on the Taipei day it was paid', async () => {
    const d = await dashboard(ctx.database.db, new Date(Date.now() + 86_400_000));
    expect(d.today).toEqual({ sales: 0, orders: 0 });
    expect(d.daily.at(-2)!.orders).toBe(1);
  });
});
