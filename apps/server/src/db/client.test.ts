import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestDatabaseUrl, dbEngine } from '../../test/helpers.ts';
import { ConfigError, loadConfig } from '../config/env.ts';
import {
  DATABASE_TIMEOUTS,
  TRANSACTION_ATTEMPTS,
  createPool,
  databaseTimeouts,
  postgresDatabase,
  preparedStatements,
  transactionBackoffMs,
} from './client.ts';
import { rows } from './rows.ts';

describe('database time-outs', () => {
  it('wait less than the client itself does (30 s), and the client longer than the server cancels', () => {
    const t = databaseTimeouts();
    expect(t).toEqual(DATABASE_TIMEOUTS);
    expect(t.queryMs).toBeGreaterThan(t.statementMs);
    expect(t.connectMs + t.queryMs).toBeLessThan(30_000);
  });

  it('follow a longer statement time-out set by the operator', () => {
    expect(databaseTimeouts({ statementMs: 60_000 })).toEqual({
      connectMs: 5_000,
      statementMs: 60_000,
      queryMs: 65_000,
      idleInTransactionMs: 60_000,
    });
  });

  it('are read from DATABASE_CONNECT_TIMEOUT_MS and DATABASE_STATEMENT_TIMEOUT_MS, and a bad value stops the start naming it', () => {
    expect(loadConfig({}).databaseTimeouts).toEqual({ connectMs: 5_000, statementMs: 15_000 });
    expect(
      loadConfig({ DATABASE_CONNECT_TIMEOUT_MS: '2000', DATABASE_STATEMENT_TIMEOUT_MS: '30000' })
        .databaseTimeouts,
    ).toEqual({ connectMs: 2_000, statementMs: 30_000 });
    for (const [key, value] of [
      ['DATABASE_STATEMENT_TIMEOUT_MS', '0'],
      ['DATABASE_STATEMENT_TIMEOUT_MS', '15s'],
      ['DATABASE_CONNECT_TIMEOUT_MS', '999999'],
    ] as const) {
      let problems: readonly string[] = [];
      try {
        loadConfig({ [key]: value });
      } catch (error) {
        if (error instanceof ConfigError) problems = error.problems;
      }
      expect(problems.some((p) => p.startsWith(`${key}:`))).toBe(true);
    }
  });
});

describe('transaction retries', () => {
  it('back off from 5 ms by 1.5 to at most 200 ms, jittered, so 25 attempts wait well under 5 s in all', () => {
    expect(TRANSACTION_ATTEMPTS).toBe(25);
    expect(transactionBackoffMs(1, () => 1)).toBe(5);
    expect(transactionBackoffMs(2, () => 1)).toBe(8);
    expect(transactionBackoffMs(20, () => 1)).toBe(200);
    expect(transactionBackoffMs(20, () => 0)).toBe(100);
    let worst = 0;
    for (let n = 1; n < TRANSACTION_ATTEMPTS; n++) worst += transactionBackoffMs(n, () => 1);
    expect(worst).toBeLessThan(5_000);
  });
});

describe('prepared statements (PostgreSQL)', () => {
  it('name a parameterised statement after its text, leave the rest alone, and keep at most the limit per connection', () => {
    const prepare = preparedStatements(2);
    const select = { text: 'select * from orders where id = $1', rowMode: 'array' };
    const named = prepare(select, ['a']) as { name: string; text: string; rowMode: string };
    expect(named).toMatchObject({ text: select.text, rowMode: 'array' });
    expect(named.name).toMatch(/^s[\w-]{27}$/);
    // The same text, the same name; the caller's object is not changed.
    expect((prepare({ ...select }, ['b']) as { name: string }).name).toBe(named.name);
    expect(select).not.toHaveProperty('name');
    expect(
      (
        prepare({ text: 'select * from orders where order_no = $1', values: ['x'] }, undefined) as {
          name: string;
        }
      ).name,
    ).not.toBe(named.name);
    // Without parameters (transaction control, several statements), named by the caller, or a plain string: as it was.
    const begin = { text: 'begin' };
    expect(prepare(begin, undefined)).toBe(begin);
    const mine = { text: 'select $1', name: 'mine' };
    expect(prepare(mine, [1])).toBe(mine);
    expect(prepare('select $1', [1])).toBe('select $1');
    // Past the limit a new text is sent unnamed; the ones already named stay named.
    const third = { text: 'select * from users where id = $1' };
    expect(prepare(third, ['c'])).toBe(third);
    expect(prepare({ ...select }, ['d'])).toHaveProperty('name', named.name);
  });

  it.skipIf(dbEngine() !== 'postgres')(
    'are parsed once per connection and then only bound and run',
    async () => {
      const pool = createPool(await createTestDatabaseUrl(), { max: 1 });
      const database = postgresDatabase(pool);
      try {
        for (const id of [1, 2, 3]) await database.db.execute(sql`select ${id}::int + 1 as n`);
        const [row] = rows<{ n: number }>(
          await database.db.execute(
            sql`select count(*)::int as n from pg_prepared_statements where statement like ${'%+ 1 as n%'}`,
          ),
        );
        expect(row!.n).toBe(1);
      } finally {
        await database.close();
      }
    },
  );
});
