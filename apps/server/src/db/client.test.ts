import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/env.ts';
import { DATABASE_TIMEOUTS, TRANSACTION_ATTEMPTS, databaseTimeouts, transactionBackoffMs } from './client.ts';

describe('database time-outs', () => {
  it('wait less than the client itself does (30 s), and the client longer than the server cancels', () => {
    const t = databaseTimeouts();
    expect(t).toEqual(DATABASE_TIMEOUTS);
    expect(t.queryMs).toBeGreaterThan(t.statementMs);
    expect(t.connectMs + t.queryMs).toBeLessThan(30_000);
  });

  it('follow a longer statement time-out set by the operator', () => {
    expect(databaseTimeouts({ statementMs: 60_000 })).toEqual({ connectMs: 5_000, statementMs: 60_000, queryMs: 65_000, idleInTransactionMs: 60_000 });
  });

  it('are read from DATABASE_CONNECT_TIMEOUT_MS and DATABASE_STATEMENT_TIMEOUT_MS, and a bad value stops the start naming it', () => {
    expect(loadConfig({}).databaseTimeouts).toEqual({ connectMs: 5_000, statementMs: 15_000 });
    expect(loadConfig({ DATABASE_CONNECT_TIMEOUT_MS: '2000', DATABASE_STATEMENT_TIMEOUT_MS: '30000' }).databaseTimeouts).toEqual({ connectMs: 2_000, statementMs: 30_000 });
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
