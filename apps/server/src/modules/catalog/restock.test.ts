import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { mailOutbox, productVariants, restockRequests } from '../../db/schema.ts';
import { seedTestCatalog, setRole } from '../../../test/fixtures.ts';
import { createTestApp, dbAvailable, testConfig, type TestContext } from '../../../test/helpers.ts';
import { mailSettled } from '../../../test/mail.ts';
import { ORIGIN, shopper } from '../../../test/shop.ts';

describe.skipIf(!dbAvailable())('restock notices (貨到通知)', () => {
  let ctx: TestContext;
  /** A second instance on the same database: its own outbox worker, its own requests. */
  let other: TestContext['app'];
  let owner: Awaited<ReturnType<typeof shopper>>;
  let ids: Awaited<ReturnType<typeof seedTestCatalog>>['ids'];
  const variantOf = async (sku: string) =>
    (await ctx.database.db.select().from(productVariants).where(eq(productVariants.sku, sku)))[0]!;
  const mailsTo = async (to: string) => {
    await mailSettled(ctx.database);
    return (await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to))).filter(
      (m) => m.meta.kind === 'restock',
    );
  };
  /** The console's stock adjustment, through one instance or the other. */
  const adjust = (variantId: string, delta: number, app = ctx.app) =>
    app.inject({
      method: 'POST',
      url: `/api/admin/variants/${variantId}/stock`,
      headers: { cookie: owner.cookie, origin: ORIGIN },
      payload: { delta, reason: delta > 0 ? '到貨' : '盤點' },
    });

  beforeAll(async () => {
    ctx = await createTestApp();
    other = await buildApp({ config: testConfig(), database: ctx.database, closeDatabase: false });
    await other.ready();
    ({ ids } = await seedTestCatalog(ctx.database));
    owner = await shopper(ctx.app, 'restock-owner@example.com');
    await setRole(ctx.database, 'restock-owner@example.com', 'owner');
  });
  afterAll(async () => {
    await other.close();
    await ctx.close();
  });

  it('takes a request only for a sold-out variant on sale, and lists it as the member’s', async () => {
    const a = await shopper(ctx.app, 'wait-a@example.com');
    const soldOut = await variantOf('RB-S');
    const inStock = await variantOf('CUP-1');
    const draft = await variantOf('NX-S');
    expect((await a.call('POST', '/api/restock-requests', { variantId: soldOut.id })).statusCode).toBe(204);
    expect((await a.call('POST', '/api/restock-requests', { variantId: soldOut.id })).statusCode).toBe(204);
    const available = await a.call('POST', '/api/restock-requests', { variantId: inStock.id });
    expect(available.statusCode).toBe(409);
    expect(available.json().error.message).toContain('現在有貨');
    expect((await a.call('POST', '/api/restock-requests', { variantId: draft.id })).statusCode).toBe(404);
    expect((await a.call('POST', '/api/restock-requests', { variantId: 'nope' })).statusCode).toBe(400);
    expect((await a.call('GET', '/api/restock-requests')).json().variantIds).toEqual([soldOut.id]);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/restock-requests' })).statusCode).toBe(401);

    const b = await shopper(ctx.app, 'wait-b@example.com');
    expect((await b.call('GET', '/api/restock-requests')).json().variantIds).toEqual([]);
    expect((await b.call('POST', '/api/restock-requests', { variantId: soldOut.id })).statusCode).toBe(204);
    expect((await b.call('DELETE', `/api/restock-requests/${soldOut.id}`)).statusCode).toBe(204);
    expect((await b.call('GET', '/api/restock-requests')).json().variantIds).toEqual([]);
  });

  it('shows the console how many wait per variant', async () => {
    const res = await owner.call('GET', `/api/admin/products/${ids.ruby}`);
    expect(res.statusCode).toBe(200);
    const waiting = Object.fromEntries(
      (res.json().variants as Array<{ sku: string; restockWaiting: number }>).map((v) => [
        v.sku,
        v.restockWaiting,
      ]),
    );
    expect(waiting).toEqual({ 'RB-S': 1, 'RB-L': 0 });
  });

  it('mails each waiting member once when stock comes back, even changed twice at once on two instances', async () => {
    const variant = await variantOf('RB-L');
    const members = ['twice-a@example.com', 'twice-b@example.com', 'twice-c@example.com'];
    for (const email of members) {
      const m = await shopper(ctx.app, email);
      expect((await m.call('POST', '/api/restock-requests', { variantId: variant.id })).statusCode).toBe(204);
    }
    // Two arrivals at the same moment, one through each instance; then sold out and back again.
    const both = await Promise.all([adjust(variant.id, 5), adjust(variant.id, 3, other)]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    expect((await adjust(variant.id, -8)).statusCode).toBe(200);
    expect((await adjust(variant.id, 2, other)).statusCode).toBe(200);

    for (const email of members) {
      const mails = await mailsTo(email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toContain('紅玉紅茶 已經到貨');
      expect(mails[0]!.text).toContain('http://localhost:3000/mall/ruby-black');
    }
    const left = await ctx.database.db
      .select()
      .from(restockRequests)
      .where(and(eq(restockRequests.variantId, variant.id)));
    expect(left.every((r) => r.notifiedAt !== null)).toBe(true);
  });

  it('a member who asks again after a notice is told again the next time, and only then', async () => {
    const variant = await variantOf('LS-L');
    const m = await shopper(ctx.app, 'again@example.com');
    expect((await adjust(variant.id, -2)).statusCode).toBe(200);
    expect((await m.call('POST', '/api/restock-requests', { variantId: variant.id })).statusCode).toBe(204);
    expect((await adjust(variant.id, 1)).statusCode).toBe(200);
    expect(await mailsTo('again@example.com')).toHaveLength(1);
    expect((await m.call('GET', '/api/restock-requests')).json().variantIds).toEqual([]);

    expect((await adjust(variant.id, -1)).statusCode).toBe(200);
    expect((await adjust(variant.id, 1)).statusCode).toBe(200);
    expect(await mailsTo('again@example.com')).toHaveLength(1);

    expect((await adjust(variant.id, -1)).statusCode).toBe(200);
    expect((await m.call('POST', '/api/restock-requests', { variantId: variant.id })).statusCode).toBe(204);
    expect((await adjust(variant.id, 4, other)).statusCode).toBe(200);
    expect(await mailsTo('again@example.com')).toHaveLength(2);
  });

  it('a change that rolls back sends nothing', async () => {
    const variant = await variantOf('DD-L');
    const m = await shopper(ctx.app, 'rolled@example.com');
    expect((await m.call('POST', '/api/restock-requests', { variantId: variant.id })).statusCode).toBe(204);
    const { changeStock } = await import('./stock.ts');
    await expect(
      ctx.database.db.transaction(async (tx) => {
        await changeStock(tx, variant.id, 5, { kind: 'adjustment' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await mailsTo('rolled@example.com')).toHaveLength(0);
    expect((await m.call('GET', '/api/restock-requests')).json().variantIds).toEqual([variant.id]);
  });
});
