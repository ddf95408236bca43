import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbAvailable, dbEngine } from './helpers.ts';
import { createTestDatabaseUrl } from './helpers.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

const MEMBERS = 1500;

/** This month in Taipei, as the birthday job sees it. */
const taipeiMonth = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Taipei', month: '2-digit' }).format(new Date());

const issuedLines = (server: ServerProcess) =>
  server.logs().filter((l) => l.msg === 'birthday coupons issued');

// Several instances share one PostgreSQL; an embedded database belongs to one process only.
const onPostgres = dbEngine() === 'postgres';
if (!onPostgres) console.warn('[jobs-once] two instances need PostgreSQL; skipped on the embedded database.');

describe.skipIf(!dbAvailable() || !onPostgres)('scheduled jobs with several instances', () => {
  let url = '';
  const servers: ServerProcess[] = [];
  beforeAll(async () => {
    url = await createTestDatabaseUrl();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // Members born this month who joined long ago: each is owed one birthday coupon this year.
      await client.query(
        `insert into users (email, display_name, birthday, created_at)
         select 'born' || n || '@example.com', '壽星 ' || n, ('1990-' || $1 || '-15')::date, now() - interval '400 days'
         from generate_series(1, ${MEMBERS}) as n`,
        [taipeiMonth()],
      );
    } finally {
      await client.end();
    }
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.dispose()));
  });

  it('two instances started together run each job once: one birthday coupon per member, issued by one of them', async () => {
    servers.push(
      ...(await Promise.all([
        startServerProcess({ DATABASE_URL: url }),
        startServerProcess({ DATABASE_URL: url }),
      ])),
    );
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const count = async () =>
        Number(
          (await client.query(`select count(*) from coupons where birthday_year is not null`)).rows[0].count,
        );
      // Both instances run the job at start; wait until the coupons stop growing and both have settled.
      let last = -1;
      for (let stable = 0; stable < 3;) {
        await new Promise((r) => setTimeout(r, 1000));
        const now = await count();
        stable = now === last && now > 0 ? stable + 1 : 0;
        last = now;
      }
      const perMember = await client.query(
        `select owner_id, count(*)::int as n from coupons where birthday_year is not null group by owner_id having count(*) > 1`,
      );
      const issued = servers.map((s) => issuedLines(s).map((l) => Number(l.issued)));
      expect({
        coupons: last,
        twice: perMember.rowCount,
        issuedBy: issued.filter((lines) => lines.length > 0).length,
        issued: issued.flat(),
      }).toEqual({
        coupons: MEMBERS,
        twice: 0,
        issuedBy: 1,
        issued: [MEMBERS],
      });
    } finally {
      await client.end();
    }
  }, 120_000);
});
