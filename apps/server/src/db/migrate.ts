import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { Database, Schema } from './client.ts';
import { rows } from './rows.ts';

export const MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Arbitrary but fixed: every instance of this app agrees on it. */
const MIGRATION_LOCK_KEY = 7_310_425_001;

/**
 * Applies the committed SQL migrations. Safe to run twice (applied ones are recorded) and
 * safe with two instances starting at once (a PostgreSQL advisory lock serialises them).
 */
export async function migrateDatabase(database: Database): Promise<{ applied: number }> {
  const all = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).length;
  return database.withAdvisoryLock(MIGRATION_LOCK_KEY, async (db) => {
    const before = await countApplied(database, db);
    if (database.engine === 'pglite') {
      await migratePglite(db as unknown as PgliteDatabase<Schema>, { migrationsFolder: MIGRATIONS_FOLDER });
    } else {
      await migratePg(db as unknown as NodePgDatabase<Schema>, { migrationsFolder: MIGRATIONS_FOLDER });
    }
    return { applied: Math.max(0, all - before) };
  });
}

async function countApplied(database: Database, db: Database['db']): Promise<number> {
  void database;
  const exists = await db.execute<{ present: boolean }>(
    "select to_regclass('drizzle.__drizzle_migrations') is not null as present",
  );
  if (!rows<{ present: boolean }>(exists)[0]?.present) return 0;
  const result = await db.execute<{ n: number }>(
    'select count(*)::int as n from drizzle.__drizzle_migrations',
  );
  return rows<{ n: number }>(result)[0]?.n ?? 0;
}
