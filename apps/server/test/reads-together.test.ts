import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTogether } from '../src/db/reads.ts';
import { createTestApp, dbAvailable, type TestContext } from './helpers.ts';

/**
 * Independent reads run at once on the pool and one after another inside a transaction, whose one
 * connection takes one query at a time (node-postgres would queue them and warn that version 9
 * refuses them).
 */
describe.skipIf(!dbAvailable())('reads together', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  /** A read that notes when it started and ended, and how many reads were running as it started. */
  function tracer() {
    let running = 0;
    const seen: number[] = [];
    const read = (db: Parameters<typeof readTogether>[0], n: number) => async () => {
      seen.push(running);
      running += 1;
      try {
        const result = await db.execute(sql`select ${n}::int as n, pg_sleep(0.02)`);
        return (result as unknown as { rows: Array<{ n: number }> }).rows[0]!.n;
      } finally {
        running -= 1;
      }
    };
    return { read, seen };
  }

  it('runs them one after another in a transaction, in order', async () => {
    const { read, seen } = tracer();
    const results = await ctx.database.db.transaction(async (tx) =>
      readTogether(tx, [read(tx, 1), read(tx, 2), read(tx, 3)]),
    );
    expect(results).toEqual([1, 2, 3]);
    expect(seen).toEqual([0, 0, 0]);
  });

  it('starts them all at once outside a transaction', async () => {
    const { read, seen } = tracer();
    const results = await readTogether(ctx.database.db, [
      read(ctx.database.db, 1),
      read(ctx.database.db, 2),
      read(ctx.database.db, 3),
    ]);
    expect(results).toEqual([1, 2, 3]);
    expect(seen).toEqual([0, 1, 2]);
  });
});
