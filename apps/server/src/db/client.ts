import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** The one database type every repository takes: a database or a transaction on it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export type Engine = 'pglite' | 'postgres';

export interface Database {
  readonly engine: Engine;
  readonly db: Db;
  /** Runs `fn` on one connection that holds a session-level advisory lock. */
  withAdvisoryLock<T>(key: number, fn: (db: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export function pgliteDatabase(client: PGlite): Database {
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    engine: 'pglite',
    db,
    async withAdvisoryLock(key, fn) {
      // One PGlite instance is one connection; the lock still guards a second process.
      await client.query('select pg_advisory_lock($1)', [key]);
      try {
        return await fn(db);
      } finally {
        await client.query('select pg_advisory_unlock($1)', [key]);
      }
    },
    close: () => client.close(),
  };
}

export function postgresDatabase(pool: pg.Pool): Database {
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    engine: 'postgres',
    db,
    async withAdvisoryLock(key, fn) {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [key]);
        try {
          return await fn(drizzlePg(client, { schema }) as unknown as Db);
        } finally {
          await client.query('select pg_advisory_unlock($1)', [key]);
        }
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** Extensions the schema needs (pg_trgm for substring search); PostgreSQL ships them in contrib. */
export const PGLITE_OPTIONS: PGliteOptions = { extensions: { pg_trgm } };

export interface OpenOptions {
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
}

/** Opens PostgreSQL when a URL is given, else the embedded PGlite under DATA_DIR. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // Fail at start, with the reason, rather than on the first request.
    const client = await pool.connect();
    client.release();
    return postgresDatabase(pool);
  }
  const dir = path.join(options.dataDir, 'pglite');
  await fs.mkdir(dir, { recursive: true });
  const client = await PGlite.create(dir, PGLITE_OPTIONS);
  return pgliteDatabase(client);
}
