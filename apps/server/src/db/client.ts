import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { MaxRetryError } from '../lib/errors.ts';
import { isRetryableConflict, sqlState } from './errors.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** The one database type every repository takes: a database or a transaction on it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export type Engine = 'pglite' | 'postgres';

/** Where the database layer reports lost connections and abandoned transactions (pino's shape). */
export interface DbLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Until the server hands over its logger (the db plugin does), lines go to the console. */
const consoleLogger: DbLogger = {
  info: () => undefined,
  warn: (obj, msg) => console.warn(`[db] ${msg}`, obj),
  error: (obj, msg) => console.error(`[db] ${msg}`, obj),
};

export interface Database {
  readonly engine: Engine;
  /**
   * Queries, and `db.transaction(…)`: every transaction started here is run again when PostgreSQL
   * rolls it back for a serialization failure or a deadlock (see `retryTransactions`).
   */
  readonly db: Db;
  /** Runs `fn` on one connection that holds a session-level advisory lock. */
  withAdvisoryLock<T>(key: number, fn: (db: Db) => Promise<T>): Promise<T>;
  /** Lost connections and given-up transactions are logged here. */
  setLogger(logger: DbLogger): void;
  close(): Promise<void>;
}

// ── transactions under contention ───────────────────────────────────────────────────────────────

/** Attempts of one transaction, the first included. */
export const TRANSACTION_ATTEMPTS = 25;
/** Lock retries back off in milliseconds: 5 ms × 1.5ⁿ, at most 200 ms, each jittered to 50–100 %. */
const BACKOFF_FIRST_MS = 5;
const BACKOFF_FACTOR = 1.5;
const BACKOFF_CAP_MS = 200;

export function transactionBackoffMs(failedAttempts: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_FIRST_MS * BACKOFF_FACTOR ** (failedAttempts - 1));
  return Math.round(ceiling * (0.5 + random() * 0.5));
}

/**
 * Makes `db.transaction` the one retrying transaction every module uses: a body that PostgreSQL
 * rolled back for a serialization failure (40001) or a deadlock (40P01) is run again from the
 * start after a short jittered pause, at most TRANSACTION_ATTEMPTS times in all; then the caller
 * gets MaxRetryError (503 `maxretry`). Any other error, and a nested transaction (a savepoint),
 * is left alone. So a body must have no effect outside the database: mail, live updates and cache
 * drops come after the commit (docs/product-rules.md, "Transactions under contention").
 */
function retryTransactions(db: Db, logger: () => DbLogger): Db {
  const once = db.transaction.bind(db);
  const retrying = async (...args: Parameters<Db['transaction']>) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await once(...args);
      } catch (error) {
        if (!isRetryableConflict(error)) throw error;
        if (attempt >= TRANSACTION_ATTEMPTS) {
          logger().warn(
            { attempts: attempt, sqlState: sqlState(error) },
            `transaction gave up after ${attempt} attempts`,
          );
          throw new MaxRetryError(attempt);
        }
        logger().info(
          { attempt, sqlState: sqlState(error) },
          'transaction rolled back by a conflict; running it again',
        );
        await new Promise((resolve) => setTimeout(resolve, transactionBackoffMs(attempt)));
      }
    }
  };
  db.transaction = retrying as Db['transaction'];
  return db;
}

export function pgliteDatabase(client: PGlite): Database {
  let logger = consoleLogger;
  const db = retryTransactions(drizzlePglite(client, { schema }) as unknown as Db, () => logger);
  return {
    engine: 'pglite',
    db,
    setLogger(next) {
      logger = next;
    },
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

// ── PostgreSQL: time-outs and lost connections ─────────────────────────────────────────────────

/**
 * How long anything may wait on PostgreSQL, so no request hangs when the database is away or the
 * network swallows packets. The values and why: docs/decisions/007-reliability.md.
 */
export interface DatabaseTimeouts {
  /** Connecting, or waiting for a free connection of the pool. */
  readonly connectMs: number;
  /** The server cancels a statement running longer (`statement_timeout`). */
  readonly statementMs: number;
  /** The client stops waiting for an answer that never comes (`query_timeout`): a black-holed network. */
  readonly queryMs: number;
  /** The server ends a session left in an open transaction with nothing sent for this long. */
  readonly idleInTransactionMs: number;
}

export const DATABASE_TIMEOUTS: DatabaseTimeouts = {
  connectMs: 5_000,
  statementMs: 15_000,
  queryMs: 20_000,
  idleInTransactionMs: 15_000,
};

/** The defaults, with what was given; the client's wait stays 5 s above the server's own limit. */
export function databaseTimeouts(given: Partial<DatabaseTimeouts> = {}): DatabaseTimeouts {
  const statementMs = given.statementMs ?? DATABASE_TIMEOUTS.statementMs;
  return {
    connectMs: given.connectMs ?? DATABASE_TIMEOUTS.connectMs,
    statementMs,
    queryMs: given.queryMs ?? statementMs + 5_000,
    idleInTransactionMs: given.idleInTransactionMs ?? statementMs,
  };
}

export interface PoolOptions {
  readonly max?: number;
  readonly timeouts?: Partial<DatabaseTimeouts>;
}

/** A pool with the time-outs set; wrap it with `postgresDatabase`, which handles its errors. */
export function createPool(connectionString: string, options: PoolOptions = {}): pg.Pool {
  const t = databaseTimeouts(options.timeouts);
  return new pg.Pool({
    connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: t.connectMs,
    statement_timeout: t.statementMs,
    query_timeout: t.queryMs,
    idle_in_transaction_session_timeout: t.idleInTransactionMs,
    // The kernel notices a peer that vanished without a word (a failover, a dead host).
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
}

/** At most this many statements are kept prepared on one connection; later ones are planned each time. */
export const PREPARED_PER_CONNECTION = 200;
/** Longer statements (a bulk insert of many rows) are not kept. */
const PREPARED_MAX_TEXT = 4_000;

/**
 * Names every parameterised statement after its text, so PostgreSQL parses and plans it once per
 * connection and then only binds and runs it (docs/decisions/022): planning a join costs far more
 * than running it (about 200 µs against 25 µs for the cart's four-table read, on this project's
 * machine). The text alone decides the name, so the same name never means two statements. A
 * statement named by its caller, one without parameters (transaction control, migrations' several
 * statements), a long one, or any past the first PREPARED_PER_CONNECTION on a connection is sent
 * as it was.
 */
export function preparedStatements(
  limit = PREPARED_PER_CONNECTION,
): (config: unknown, values: unknown) => unknown {
  const names = new Map<string, string>();
  return (config, values) => {
    if (typeof config !== 'object' || config === null) return config;
    const { text, name } = config as { text?: unknown; name?: unknown };
    if (name !== undefined || typeof text !== 'string' || text.length > PREPARED_MAX_TEXT) return config;
    const params = (config as { values?: unknown }).values ?? values;
    if (!Array.isArray(params) || params.length === 0) return config;
    let known = names.get(text);
    if (known === undefined) {
      if (names.size >= limit) return config;
      known = `s${createHash('sha1').update(text).digest('base64url')}`;
      names.set(text, known);
    }
    return { ...config, name: known };
  };
}

/**
 * Wraps a pool as the shop's database. A connection that breaks (the server restarted, a failover,
 * `pg_terminate_backend`, an idle reaper) is logged and dropped from the pool instead of crashing
 * the process with an unhandled 'error' event; the next request opens a new one, so the shop
 * recovers by itself when the database is back. A connection whose answer never came (the
 * client's query time-out) is closed too, since whatever it was waiting for may still arrive.
 */
export function postgresDatabase(pool: pg.Pool): Database {
  let logger = consoleLogger;
  // Errors on idle connections reach the pool (which has already removed the connection).
  pool.on('error', (error) =>
    logger.warn({ err: error }, 'database connection lost while idle; a new one is opened when needed'),
  );
  pool.on('connect', (client) => {
    // A connection in use can break between two queries: without a listener that would throw.
    client.on('error', (error) =>
      logger.warn({ err: error }, 'database connection lost while in use; it is dropped from the pool'),
    );
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const prepared = preparedStatements();
    (client as { query: unknown }).query = (...args: unknown[]) => {
      args[0] = prepared(args[0], args[1]);
      const result = query(...args);
      if (result instanceof Promise) {
        result.catch((error: unknown) => {
          if (error instanceof Error && error.message === 'Query read timeout') {
            logger.warn({ err: error }, 'database did not answer in time; closing the connection');
            // Ending marks it unusable, so the pool discards it on release.
            client.end().catch(() => undefined);
          }
        });
      }
      return result;
    };
  });
  const db = retryTransactions(drizzlePg(pool, { schema }) as unknown as Db, () => logger);
  return {
    engine: 'postgres',
    db,
    setLogger(next) {
      logger = next;
    },
    async withAdvisoryLock(key, fn) {
      // Its own connection, without the request time-outs: a migration under the lock may take
      // long, and waiting for another instance's lock is no hang.
      const {
        statement_timeout: _s,
        query_timeout: _q,
        idle_in_transaction_session_timeout: _i,
        ...options
      } = pool.options;
      const client = new pg.Client(options);
      client.on('error', (error) =>
        logger.warn({ err: error }, 'database connection holding an advisory lock was lost'),
      );
      await client.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [key]);
        try {
          return await fn(retryTransactions(drizzlePg(client, { schema }) as unknown as Db, () => logger));
        } finally {
          await client.query('select pg_advisory_unlock($1)', [key]);
        }
      } finally {
        await client.end();
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
  /** PostgreSQL only (PGlite runs in the process and has nothing to wait for). */
  readonly timeouts?: Partial<DatabaseTimeouts> | undefined;
}

/** Opens PostgreSQL when a URL is given, else the embedded PGlite under DATA_DIR. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) {
    const database = postgresDatabase(
      createPool(options.databaseUrl, { ...(options.timeouts ? { timeouts: options.timeouts } : {}) }),
    );
    // Fail at start, with the reason, rather than on the first request.
    try {
      await database.db.execute('select 1');
    } catch (error) {
      await database.close();
      throw error;
    }
    return database;
  }
  const dir = path.join(options.dataDir, 'pglite');
  await fs.mkdir(dir, { recursive: true });
  const client = await PGlite.create(dir, PGLITE_OPTIONS);
  return pgliteDatabase(client);
}
