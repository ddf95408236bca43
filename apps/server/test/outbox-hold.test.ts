import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabaseUrl, dbAvailable, dbEngine } from './helpers.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

// The held database must exist before the process starts: PostgreSQL (PGlite's belongs to one process).
describe.skipIf(!dbAvailable() || dbEngine() !== 'postgres')('a shop started on a held outbox', () => {
  let server: ServerProcess | undefined;
  afterAll(async () => server?.dispose());

  it('says so at start, in one warning line, and in /api/health', async () => {
    const url = await createTestDatabaseUrl();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    // What npm run restore leaves (plugins/outbox.ts, holdOutbox).
    await client.query(
      `insert into site_settings (key, value) values ('outbox.hold', jsonb_build_object('since', now(), 'reason', 'restored from a backup made 2026-11-27T01:00:00.000Z'))`,
    );
    await client.end();
    server = await startServerProcess({ DATABASE_URL: url });
    const held = server.logs().filter((l) => l.msg.startsWith('OUTBOX HELD'));
    expect(held).toHaveLength(1);
    expect(held[0]!.level).toBe(40);
    expect(held[0]!.msg).toMatch(
      /restored from a backup made 2026-11-27T01:00:00\.000Z.*no mail or gateway call is sent until the owner releases it/,
    );
    expect(await (await fetch(`${server.url}/api/health`)).json()).toMatchObject({
      status: 'ok',
      outbox: 'held',
    });
  }, 60_000);
});
