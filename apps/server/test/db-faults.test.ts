import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { openDatabase, type DbLogger } from '../src/db/client.ts';
import { createTestDatabaseUrl, dbAvailable, dbEngine, signIn, testConfig } from './helpers.ts';
import { tcpRelay } from './tcp-relay.ts';

/**
 * The database going away under a running shop (PostgreSQL only: PGlite lives in the process).
 * What an operator sees on a failover, a pooler restart or an idle reaper: every connection of
 * the shop is cut, and for a while no new one is accepted. And a black-holed network: the
 * connection stays open but nothing comes back. See docs/decisions/007-reliability.md.
 */
describe.skipIf(dbEngine() !== 'postgres' || !dbAvailable())('database outages', () => {
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  beforeAll(() => {
    process.on('uncaughtException', onUncaught);
  });
  afterAll(() => {
    process.off('uncaughtException', onUncaught);
  });

  /** Resolves to the value, or to null when it is still pending after `ms`. */
  const within = <T>(promise: Promise<T>, ms: number) =>
    Promise.race([promise, new Promise<null>((r) => setTimeout(() => r(null), ms))]);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  async function startShop(databaseUrl: string, timeouts?: Parameters<typeof openDatabase>[0]['timeouts']) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-db-faults-'));
    const database = await openDatabase({ databaseUrl, dataDir, ...(timeouts ? { timeouts } : {}) });
    const app = await buildApp({ config: testConfig({ DATA_DIR: dataDir }), database, closeDatabase: false });
    await app.ready();
    const logged: { level: string; msg: string }[] = [];
    const recorder: DbLogger = {
      warn: (_obj, msg) => logged.push({ level: 'warn', msg }),
      error: (_obj, msg) => logged.push({ level: 'error', msg }),
      info: (_obj, msg) => logged.push({ level: 'info', msg }),
    };
    database.setLogger(recorder);
    const { cookie } = await signIn(app, 'outage@example.com');
    return { app, database, cookie, logged, dataDir };
  }

  interface Outcome {
    readonly status: number;
    readonly code: string | undefined;
    readonly ms: number;
  }
  async function timed(app: FastifyInstance, url: string, cookie?: string): Promise<Outcome> {
    const started = Date.now();
    const res = await app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
    const code =
      res.statusCode >= 400 ? (res.json() as { error?: { code?: string } }).error?.code : undefined;
    return { status: res.statusCode, code, ms: Date.now() - started };
  }

  it('survives having every connection cut under load: no crash, 503 while the database refuses, 200 again by itself, no request over the time-out', async () => {
    const url = await createTestDatabaseUrl();
    const dbName = new URL(url).pathname.slice(1);
    const adminUrl = new URL(url);
    adminUrl.pathname = '/postgres';
    const admin = new pg.Client({ connectionString: adminUrl.toString() });
    await admin.connect();
    const shop = await startShop(url);
    try {
      expect((await timed(shop.app, '/api/cart', shop.cookie)).status).toBe(200);

      // Load: shoppers reading their carts, and a monitor polling health.
      const results: Outcome[] = [];
      const health: { at: number; status: number }[] = [];
      let running = true;
      const worker = async () => {
        while (running) results.push(await timed(shop.app, '/api/cart', shop.cookie));
      };
      const monitor = async () => {
        while (running) {
          health.push({ at: Date.now(), status: (await timed(shop.app, '/api/health')).status });
          await sleep(100);
        }
      };
      const load = [...Array.from({ length: 8 }, worker), monitor()];
      await sleep(500);

      // The outage: no new connections, every existing one terminated.
      await admin.query(`alter database "${dbName}" allow_connections false`);
      const cut = Date.now();
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [dbName],
      );
      await sleep(2500);
      await admin.query(`alter database "${dbName}" allow_connections true`);
      const back = Date.now();
      for (let i = 0; i < 100 && !health.some((h) => h.at > back && h.status === 200); i++) await sleep(100);
      await sleep(300);
      running = false;
      await Promise.all(load);

      expect(uncaught).toEqual([]);
      // Health said 503 during the outage and 200 again once the database was back.
      expect(health.some((h) => h.at > cut && h.at < back && h.status === 503)).toBe(true);
      expect(health.some((h) => h.at > back && h.status === 200)).toBe(true);
      // Every answer was either served or an honest 503; none hung past the connect time-out.
      const statuses = new Set(results.map((r) => `${r.status} ${r.code ?? ''}`.trim()));
      expect([...statuses].sort()).toEqual(['200', '503 unavailable']);
      expect(Math.max(...results.map((r) => r.ms))).toBeLessThan(6000);
      // The lost connections did not crash the process (an unhandled pool or client 'error' event
      // would have ended this test's worker). Whether a warning line is logged depends on whether a
      // connection was idle or in a query when it was cut (an in-use one fails its query instead,
      // answered 503 above), so the log is not asserted: it failed once on a loaded CI machine.
      expect((await timed(shop.app, '/api/cart', shop.cookie)).status).toBe(200);
    } finally {
      await admin.query(`alter database "${dbName}" allow_connections true`).catch(() => undefined);
      await admin.end();
      await shop.app.close();
      await shop.database.close();
    }
  }, 60_000);

  it('ends a request at the time-out when the network swallows everything, and recovers when it comes back', async () => {
    const url = new URL(await createTestDatabaseUrl());
    const proxy = await tcpRelay(url.hostname, Number(url.port || 5432));
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    const timeouts = { connectMs: 1000, statementMs: 1000, queryMs: 1500 };
    const shop = await startShop(url.toString(), timeouts);
    try {
      expect((await timed(shop.app, '/api/cart', shop.cookie)).status).toBe(200);
      proxy.blackhole();

      const stuck = await within(timed(shop.app, '/api/cart', shop.cookie), 15_000);
      expect(stuck, 'request still pending after 15 s').not.toBeNull();
      expect(stuck).toMatchObject({ status: 503, code: 'unavailable' });
      expect(stuck!.ms).toBeLessThan(timeouts.queryMs + timeouts.connectMs + 1000);
      const fresh = await within(timed(shop.app, '/api/cart', shop.cookie), 15_000);
      expect(fresh).toMatchObject({ status: 503, code: 'unavailable' });
      expect(fresh!.ms).toBeLessThan(timeouts.queryMs + timeouts.connectMs + 1000);
      const probe = await within(timed(shop.app, '/api/health'), 15_000);
      expect(probe).toMatchObject({ status: 503 });
      expect(probe!.ms).toBeLessThan(3000);

      proxy.restore();
      let healthy = false;
      for (let i = 0; i < 100 && !healthy; i++) {
        healthy = (await timed(shop.app, '/api/health')).status === 200;
        if (!healthy) await sleep(200);
      }
      expect(healthy).toBe(true);
      let served = 0;
      for (let i = 0; i < 20 && served < 3; i++)
        if ((await timed(shop.app, '/api/cart', shop.cookie)).status === 200) served += 1;
      expect(served).toBe(3);
      expect(uncaught).toEqual([]);
    } finally {
      await shop.app.close();
      proxy.close();
      await shop.database.close();
    }
  }, 60_000);
});
