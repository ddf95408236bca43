import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, orderEvents, orders, productVariants } from '../src/db/schema.ts';
import { seedTestCatalog, setRole } from './fixtures.ts';
import { createTestApp, dbAvailable, signIn, type TestContext } from './helpers.ts';
import { ORIGIN, shopper } from './shop.ts';

/** A console change and its audit row commit together or not at all. */
describe.skipIf(!dbAvailable())('console order actions and their audit rows', () => {
  let ctx: TestContext;
  let owner = '';
  let cup = '';
  let n = 0;

  beforeAll(async () => {
    ctx = await createTestApp();
    await seedTestCatalog(ctx.database);
    cup = (
      await ctx.database.db
        .select({ id: productVariants.id })
        .from(productVariants)
        .where(eq(productVariants.sku, 'CUP-1'))
    )[0]!.id;
    owner = (await signIn(ctx.app, 'owner@example.com')).cookie;
    await setRole(ctx.database, 'owner@example.com', 'owner');
  });
  afterAll(async () => ctx.close());

  /** A cash-on-delivery order (being packed) from a new shopper. */
  async function newOrder(): Promise<string> {
    const s = await shopper(ctx.app, `atomic${++n}@example.com`);
    await s.add(cup, 1);
    const res = await s.order();
    expect(res.statusCode, res.body).toBe(201);
    return res.json().order.orderNo as string;
  }
  const post = (url: string, payload: object) =>
    ctx.app.inject({ method: 'POST', url, headers: { origin: ORIGIN, cookie: owner }, payload });
  const stateOf = async (orderNo: string) => {
    const [order] = await ctx.database.db
      .select({ id: orders.id, status: orders.status })
      .from(orders)
      .where(eq(orders.orderNo, orderNo));
    const [{ stock }] = (await ctx.database.db
      .select({ stock: productVariants.stock })
      .from(productVariants)
      .where(eq(productVariants.id, cup))) as [{ stock: number }];
    const events = await ctx.database.db
      .select({ id: orderEvents.id })
      .from(orderEvents)
      .where(eq(orderEvents.orderId, order!.id));
    const audit = await ctx.database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'order'), eq(auditLog.entityId, orderNo)));
    return { status: order!.status, stock, events: events.length, audit: audit.map((a) => a.action) };
  };

  /** While the audit trail refuses writes, no console action may change an order. */
  async function withAuditRefused(fn: () => Promise<void>) {
    await ctx.database.db.execute(
      sql.raw(
        `create or replace function refuse_audit() returns trigger language plpgsql as $$ begin raise exception 'audit trail refused (test)'; end $$`,
      ),
    );
    await ctx.database.db.execute(
      sql.raw(
        `create trigger refuse_audit before insert on audit_log for each row execute function refuse_audit()`,
      ),
    );
    try {
      await fn();
    } finally {
      await ctx.database.db.execute(sql.raw(`drop trigger refuse_audit on audit_log`));
    }
  }

  it('an action whose audit row cannot be written changes nothing; once it can, the change and its row land together', async () => {
    const orderNo = await newOrder();
    const before = await stateOf(orderNo);
    expect(before).toMatchObject({ status: 'processing', audit: [] });

    await withAuditRefused(async () => {
      const cancel = await post(`/api/admin/orders/${orderNo}/actions`, {
        action: 'cancel',
        reason: '客人來電取消',
      });
      expect(cancel.statusCode).toBe(500);
      expect(await stateOf(orderNo)).toEqual(before);
    });

    const cancel = await post(`/api/admin/orders/${orderNo}/actions`, {
      action: 'cancel',
      reason: '客人來電取消',
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(await stateOf(orderNo)).toEqual({
      status: 'cancelled',
      stock: before.stock + 1,
      events: before.events + 1,
      audit: ['order.cancel'],
    });
  });

  it('shipping an order keeps its stock taken (only a cancel, expiry or refund gives it back)', async () => {
    const orderNo = await newOrder();
    const before = await stateOf(orderNo);
    const ship = await post(`/api/admin/orders/${orderNo}/actions`, {
      action: 'ship',
      carrier: '黑貓宅急便',
      trackingNo: '905512348888',
    });
    expect(ship.statusCode, ship.body).toBe(200);
    expect(await stateOf(orderNo)).toMatchObject({ status: 'shipped', stock: before.stock });
  });

  it('the same holds for the advance route `npm run order:advance` uses, shipment event included', async () => {
    const orderNo = await newOrder();
    const before = await stateOf(orderNo);

    await withAuditRefused(async () => {
      const ship = await post(`/api/admin/orders/${orderNo}/advance`, {
        status: 'shipped',
        carrier: '黑貓宅急便',
        trackingNo: '905512349999',
      });
      expect(ship.statusCode).toBe(500);
      expect(await stateOf(orderNo)).toEqual(before);
    });

    const ship = await post(`/api/admin/orders/${orderNo}/advance`, {
      status: 'shipped',
      carrier: '黑貓宅急便',
      trackingNo: '905512349999',
    });
    expect(ship.statusCode, ship.body).toBe(200);
    // The status change and the shipment's "created" event.
    expect(await stateOf(orderNo)).toEqual({
      status: 'shipped',
      stock: before.stock,
      events: before.events + 2,
      audit: ['order.advance'],
    });
  });
});
