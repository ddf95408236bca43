import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { orders, productVariants, redirects } from '../src/db/schema.ts';
import { rows } from '../src/db/rows.ts';
import { seedTestCatalog, setRole } from './fixtures.ts';
import { createTestApp, dbAvailable, dbEngine, signIn, type TestContext } from './helpers.ts';
import { latestMail, mailCount } from './mail.ts';
import { ORIGIN, shopper } from './shop.ts';

/**
 * Transactions meet serialization failures and deadlocks under load; the one transaction mechanism
 * runs them again with a short backoff, at most 25 attempts, and a write refused by a constraint or
 * a row that vanished mid-operation answers its own code (docs/product-rules.md, "Transactions
 * under contention").
 *
 * The failures are real PostgreSQL errors raised inside the transaction by a trigger, so both
 * engines are driven deterministically; a sequence counts the attempts (sequences are not rolled
 * back with the transaction).
 */
describe.skipIf(!dbAvailable())('transactions under contention', () => {
  let ctx: TestContext;
  let variant: string;
  beforeAll(async () => {
    ctx = await createTestApp();
    await seedTestCatalog(ctx.database);
    variant = (
      await ctx.database.db
        .select({ id: productVariants.id })
        .from(productVariants)
        .where(eq(productVariants.sku, 'CUP-1'))
    )[0]!.id;
  });
  afterAll(async () => ctx.close());
  afterEach(async () => {
    await exec('drop trigger if exists test_fault on orders');
    await exec('drop trigger if exists test_fault on redirects');
    await exec('alter table orders drop constraint if exists test_note_allowed');
  });

  const exec = (text: string) => ctx.database.db.execute(sql.raw(text));
  const stock = async () =>
    (
      await ctx.database.db
        .select({ s: productVariants.stock })
        .from(productVariants)
        .where(eq(productVariants.id, variant))
    )[0]!.s;
  const ordersOf = (uid: string) => ctx.database.db.select().from(orders).where(eq(orders.userId, uid));
  const attempts = async () =>
    Number(
      rows<{ n: string }>(
        await exec('select case when is_called then last_value else 0 end as n from test_fault_calls'),
      )[0]!.n,
    );

  /** The next `times` inserts into `table` fail with `errcode`, as a concurrent transaction would make them. */
  async function failInserts(table: string, times: number, errcode: '40001' | '40P01') {
    await exec('drop sequence if exists test_fault_calls');
    await exec('create sequence test_fault_calls');
    await exec(`create or replace function test_fault() returns trigger language plpgsql as $$
      begin
        if nextval('test_fault_calls') <= ${times} then
          raise exception 'forced by the test' using errcode = '${errcode}';
        end if;
        return new;
      end $$`);
    await exec(
      `create trigger test_fault before insert on ${table} for each row execute function test_fault()`,
    );
  }

  it('places an order that met serialization failures once, taking stock once', async () => {
    const s = await shopper(ctx.app, 'retried@example.com');
    await s.add(variant, 2);
    const before = await stock();
    await failInserts('orders', 3, '40001');
    const res = await s.order();
    expect(res.statusCode, res.body).toBe(201);
    expect(await attempts()).toBe(4);
    expect(await ordersOf(s.uid)).toHaveLength(1);
    expect(await stock()).toBe(before - 2);
    // Mail leaves after the commit, so the attempts that rolled back sent nothing.
    await latestMail(ctx.database, 'retried@example.com', 'order-placed');
    expect(await mailCount(ctx.database, 'retried@example.com')).toBe(1);
  });

  it('runs a deadlock victim again too', async () => {
    const s = await shopper(ctx.app, 'deadlocked@example.com');
    await s.add(variant, 1);
    await failInserts('orders', 2, '40P01');
    const res = await s.order();
    expect(res.statusCode, res.body).toBe(201);
    expect(await attempts()).toBe(3);
    expect(await ordersOf(s.uid)).toHaveLength(1);
  });

  it('gives up after 25 attempts with 503 maxretry, a zh-TW message and Retry-After, and changes nothing', async () => {
    const s = await shopper(ctx.app, 'contended@example.com');
    await s.add(variant, 1);
    const before = await stock();
    await failInserts('orders', 1000, '40001');
    const started = Date.now();
    const res = await s.order();
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().error.code).toBe('maxretry');
    expect(res.json().error.message).toMatch(/[\u4e00-\u9fff]/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The 26th attempt is never made.
    expect(await attempts()).toBe(25);
    // Lock retries back off in milliseconds, not the seconds of the network backoff.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await ordersOf(s.uid)).toHaveLength(0);
    expect(await stock()).toBe(before);
    const cart = await s.call('GET', '/api/cart');
    expect(cart.json().lines).toHaveLength(1);
  });

  it('answers 409 set for a write a constraint refused, without running it again', async () => {
    const s = await shopper(ctx.app, 'constrained@example.com');
    await s.add(variant, 1);
    const before = await stock();
    // A rule kept by the database alone, that no domain check looks at first.
    await exec(`alter table orders add constraint test_note_allowed check (note <> '不收')`);
    await failInserts('orders', 0, '40001');
    const res = await s.order({ note: '不收' });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.code).toBe('set');
    expect(res.json().error.message).toMatch(/[\u4e00-\u9fff]/);
    expect(await attempts()).toBe(1);
    expect(await ordersOf(s.uid)).toHaveLength(0);
    expect(await stock()).toBe(before);
  });

  it('answers 409 nodata when the row read a moment ago is gone when it is written', async () => {
    const owner = (await signIn(ctx.app, 'owner@example.com')).cookie;
    await setRole(ctx.database, 'owner@example.com', 'owner');
    await ctx.database.db
      .insert(redirects)
      .values({ path: '/old-page', target: '/mall/dong-ding', permanent: true });
    // The row is read, then deleted by someone else before the update reaches it: the update
    // finds nothing. A trigger that skips the update gives the same result deterministically.
    await exec(
      `create or replace function test_vanish() returns trigger language plpgsql as $$ begin return null; end $$`,
    );
    await exec(
      'create trigger test_fault before update on redirects for each row execute function test_vanish()',
    );
    const res = await ctx.app.inject({
      method: 'PUT',
      url: '/api/admin/redirects',
      headers: { cookie: owner, origin: ORIGIN },
      payload: { path: '/old-page', target: '/mall/li-shan', permanent: true },
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.code).toBe('nodata');
    expect(res.json().error.message).toMatch(/[\u4e00-\u9fff]/);
  });

  describe.skipIf(dbEngine() !== 'postgres')('on PostgreSQL, two real transactions', () => {
    it('both commit when serializable write skew fails one of them: it is run again', async () => {
      await exec('create table test_skew (k text not null)');
      const db = ctx.database.db;
      let runs = 0;
      let arrived = 0;
      let bothRead!: () => void;
      const barrier = new Promise<void>((resolve) => (bothRead = resolve));
      const body = async (tx: Parameters<Parameters<typeof db.transaction>[0]>[0]) => {
        runs += 1;
        const first = runs <= 2;
        // Each reads what the other writes: a write skew serializable isolation must refuse.
        await tx.execute(sql`select count(*) from test_skew where k = 'x'`);
        if (first) {
          arrived += 1;
          if (arrived === 2) bothRead();
          await barrier;
        }
        await tx.execute(sql`insert into test_skew (k) values ('x')`);
      };
      await Promise.all([
        db.transaction(body, { isolationLevel: 'serializable' }),
        db.transaction(body, { isolationLevel: 'serializable' }),
      ]);
      expect(runs).toBeGreaterThanOrEqual(3);
      expect(Number(rows<{ n: string }>(await exec('select count(*) as n from test_skew'))[0]!.n)).toBe(2);
    });
  });
});
