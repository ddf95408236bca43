import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { PGLITE_OPTIONS, type Database, type DbOrTx } from '../../db/client.ts';
import { MIGRATIONS_FOLDER } from '../../db/migrate.ts';
import { rows } from '../../db/rows.ts';
import {
  BackupError,
  readAll,
  type ArchiveEntry,
  type ArchiveWriter,
  type DatabaseDumpKind,
} from './archive.ts';

/**
 * The database part of a backup, in one of three kinds:
 *
 * - `pglite-datadir`: the embedded database's data directory as PGlite dumps it from inside the
 *   process that owns it (a gzipped tar, consistent: no query runs while it is copied).
 * - `pg-dump`: PostgreSQL's own `pg_dump --format=custom`, when pg_dump is on PATH and works.
 * - `logical`: every table's rows as JSON lines plus the sequences, read in one REPEATABLE READ,
 *   READ ONLY transaction. Works on both engines and restores into either.
 */
export type DumpFormat = 'native' | 'logical';

export const PGLITE_DUMP_ENTRY = 'database/pglite-datadir.tar.gz';
export const PG_DUMP_ENTRY = 'database/postgres.dump';
const TABLES_PREFIX = 'database/tables/';
const SEQUENCES_ENTRY = 'database/sequences.json';
/** Rows are written in pieces of about this many bytes, so memory stays bounded on big tables. */
const CHUNK_BYTES = 4 * 1024 * 1024;
const FETCH_ROWS = 500;

export interface MigrationLevel {
  readonly count: number;
  readonly lastHash: string | null;
}

/** How many migrations the database has applied, and the last one's hash (drizzle's own record). */
export async function migrationLevel(db: DbOrTx): Promise<MigrationLevel> {
  const present = rows<{ present: boolean }>(
    await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`),
  )[0]?.present;
  if (!present) return { count: 0, lastHash: null };
  const applied = rows<{ hash: string }>(
    await db.execute(sql`select hash from drizzle.__drizzle_migrations order by created_at, id`),
  );
  return { count: applied.length, lastHash: applied.at(-1)?.hash ?? null };
}

/** Refuses a backup whose migrations this copy of the shop does not have. */
export function checkMigrationLevel(level: MigrationLevel): void {
  const known = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
  const same = level.count === 0 || known[level.count - 1]?.hash === level.lastHash;
  if (level.count > known.length || !same) {
    throw new BackupError(
      `This backup comes from a newer version of the shop (or another history): its database has ${level.count} migrations, this copy knows ${known.length}. Restore it with the version that made it.`,
    );
  }
}

/** The database part of a backup, chosen before the manifest is written (it names the kind). */
export interface DatabaseDump {
  readonly kind: DatabaseDumpKind;
  /** Why the kind differs from the one asked for, if it does. */
  readonly note?: string;
  write(writer: ArchiveWriter): Promise<void>;
  cleanup(): Promise<void>;
}

/** The PGlite instance behind an embedded database (drizzle keeps it as `$client`). */
function pgliteClient(database: Database): PGlite {
  const client = (database.db as unknown as { $client?: unknown }).$client;
  if (!(client instanceof PGlite)) throw new Error('the embedded database has no PGlite client');
  return client;
}

export async function prepareDatabaseDump(
  database: Database,
  format: DumpFormat,
  databaseUrl: string | undefined,
): Promise<DatabaseDump> {
  const nothing = async () => {};
  if (format === 'native' && database.engine === 'pglite') {
    // Taken now, inside the process that owns the directory; PGlite holds its query lock meanwhile.
    const tarball = Buffer.from(await (await pgliteClient(database).dumpDataDir('gzip')).arrayBuffer());
    return {
      kind: 'pglite-datadir',
      write: (writer) => writer.add(PGLITE_DUMP_ENTRY, tarball),
      cleanup: nothing,
    };
  }
  let note: string | undefined;
  if (format === 'native' && databaseUrl) {
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'shop-pg-dump-'));
    const cleanup = () => fs.promises.rm(dir, { recursive: true, force: true });
    const file = path.join(dir, 'postgres.dump');
    const result = await runPgTool(
      'pg_dump',
      ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`],
      databaseUrl,
    );
    if (result.ok) {
      return {
        kind: 'pg-dump',
        write: async (writer) => {
          await writer.addFile(PG_DUMP_ENTRY, file, false);
        },
        cleanup,
      };
    }
    await cleanup();
    note = result.missing
      ? 'pg_dump is not on PATH, so this is a logical dump'
      : `pg_dump failed (${result.message}), so this is a logical dump`;
  }
  return { kind: 'logical', note, write: (writer) => logicalDump(writer, database), cleanup: nothing };
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const SYSTEM_SCHEMAS = sql`n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'`;

async function logicalDump(writer: ArchiveWriter, database: Database): Promise<void> {
  await database.db.transaction(
    async (tx) => {
      const tables = rows<{ schema: string; name: string }>(
        await tx.execute(sql`
          select n.nspname as schema, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where c.relkind in ('r', 'p') and not c.relispartition and ${SYSTEM_SCHEMAS} order by 1, 2`),
      );
      for (const table of tables) {
        const base = `${TABLES_PREFIX}${encodeURIComponent(table.schema)}/${encodeURIComponent(table.name)}/`;
        await tx.execute(
          sql.raw(
            `declare backup_rows no scroll cursor for select row_to_json(t)::text as j from ${quote(table.schema)}.${quote(table.name)} t`,
          ),
        );
        let lines: string[] = [];
        let bytes = 0;
        let part = 0;
        const flush = async () => {
          if (!lines.length) return;
          part += 1;
          await writer.add(`${base}${String(part).padStart(5, '0')}.ndjson`, `${lines.join('\n')}\n`);
          lines = [];
          bytes = 0;
        };
        for (;;) {
          const batch = rows<{ j: string }>(
            await tx.execute(sql.raw(`fetch ${FETCH_ROWS} from backup_rows`)),
          );
          for (const row of batch) {
            lines.push(row.j);
            bytes += row.j.length;
          }
          if (bytes >= CHUNK_BYTES) await flush();
          if (batch.length < FETCH_ROWS) break;
        }
        await flush();
        await tx.execute(sql.raw('close backup_rows'));
      }
      const sequences = rows<{ schema: string; name: string; last_value: string | null }>(
        await tx.execute(sql`
          select s.schemaname as schema, s.sequencename as name, s.last_value::text as last_value
          from pg_sequences s join pg_namespace n on n.nspname = s.schemaname where ${SYSTEM_SCHEMAS} order by 1, 2`),
      );
      await writer.add(
        SEQUENCES_ENTRY,
        JSON.stringify(sequences.map((s) => ({ schema: s.schema, name: s.name, lastValue: s.last_value }))),
      );
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

interface ForeignKey {
  readonly table: string;
  readonly name: string;
  readonly definition: string;
}

/**
 * Puts a logical dump back inside the caller's transaction: the schema as the first `count`
 * migrations make it (drizzle's record of them comes with the data), foreign keys off while the rows
 * go in and back on (checked) at the end, sequences where they were. `apply` walks the archive and
 * hands each database entry to the loader it gets.
 */
export async function logicalRestore(
  tx: DbOrTx,
  level: MigrationLevel,
  apply: (load: (entry: ArchiveEntry) => Promise<void>) => Promise<void>,
): Promise<void> {
  await tx.execute(sql`create schema if not exists drizzle`);
  await tx.execute(
    sql`create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`,
  );
  for (const migration of readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).slice(0, level.count)) {
    for (const statement of migration.sql) if (statement.trim()) await tx.execute(sql.raw(statement));
  }
  // Some migrations insert rows of their own (the membership tiers); the backup's rows replace them.
  const tables = rows<{ name: string }>(
    await tx.execute(sql`
      select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and not c.relispartition and ${SYSTEM_SCHEMAS}`),
  );
  if (tables.length) await tx.execute(sql.raw(`truncate table ${tables.map((t) => t.name).join(', ')}`));
  const foreignKeys = rows<ForeignKey>(
    await tx.execute(sql`
      select c.conrelid::regclass::text as table, c.conname as name, pg_get_constraintdef(c.oid) as definition
      from pg_constraint c join pg_namespace n on n.oid = c.connamespace where c.contype = 'f' and ${SYSTEM_SCHEMAS}`),
  );
  for (const fk of foreignKeys)
    await tx.execute(sql.raw(`alter table ${fk.table} drop constraint ${quote(fk.name)}`));

  const columns = new Map<string, string[]>();
  await apply(async (entry) => {
    if (entry.name === SEQUENCES_ENTRY) {
      const sequences = JSON.parse((await readAll(entry.stream)).toString('utf8')) as Array<{
        schema: string;
        name: string;
        lastValue: string | null;
      }>;
      for (const s of sequences) {
        if (s.lastValue === null) continue;
        await tx.execute(
          sql`select setval(format('%I.%I', ${s.schema}::text, ${s.name}::text)::regclass, ${s.lastValue}::bigint, true)`,
        );
      }
      return;
    }
    if (!entry.name.startsWith(TABLES_PREFIX))
      throw new BackupError(`This backup has an unknown entry ${entry.name}.`);
    const [schemaPart, tablePart] = entry.name.slice(TABLES_PREFIX.length).split('/');
    const schema = decodeURIComponent(schemaPart ?? '');
    const table = decodeURIComponent(tablePart ?? '');
    const target = `${quote(schema)}.${quote(table)}`;
    let names = columns.get(target);
    if (!names) {
      names = rows<{ name: string }>(
        await tx.execute(sql`
          select attname as name from pg_attribute
          where attrelid = to_regclass(format('%I.%I', ${schema}::text, ${table}::text)) and attnum > 0 and not attisdropped and attgenerated = ''
          order by attnum`),
      ).map((r) => r.name);
      if (!names.length)
        throw new BackupError(
          `The backup has rows for ${schema}.${table}, which this database does not have.`,
        );
      columns.set(target, names);
    }
    const list = names.map(quote).join(', ');
    const lines = (await readAll(entry.stream)).toString('utf8').split('\n').filter(Boolean);
    try {
      await tx.execute(
        sql`insert into ${sql.raw(target)} (${sql.raw(list)}) overriding system value select ${sql.raw(list)} from json_populate_recordset(null::${sql.raw(target)}, ${`[${lines.join(',')}]`}::json)`,
      );
    } catch (error) {
      // The driver's message quotes the whole statement with its rows; the cause is what matters.
      throw new BackupError(`Could not put back the rows of ${schema}.${table}: ${databaseMessage(error)}`);
    }
  });

  for (const fk of foreignKeys) {
    try {
      await tx.execute(sql.raw(`alter table ${fk.table} add constraint ${quote(fk.name)} ${fk.definition}`));
    } catch (error) {
      throw new BackupError(
        `The restored rows break ${fk.table}'s rule ${fk.name}: ${databaseMessage(error)}`,
      );
    }
  }
}

function databaseMessage(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}

/** Writes a PGlite data-directory dump into `dir` (which must be empty) and closes it again. */
export async function restorePgliteDataDir(dir: string, tarball: Buffer): Promise<void> {
  await fs.promises.mkdir(dir, { recursive: true });
  const client = await PGlite.create(dir, {
    ...PGLITE_OPTIONS,
    loadDataDir: new Blob([new Uint8Array(tarball)]),
  });
  await client.close();
}

/** pg_restore of a `pg_dump --format=custom` file, all or nothing. */
export async function restorePgDump(databaseUrl: string, file: string): Promise<void> {
  const result = await runPgTool(
    'pg_restore',
    ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', file],
    databaseUrl,
  );
  if (result.missing)
    throw new BackupError(
      "This backup was made with pg_dump; restoring it needs pg_restore (PostgreSQL's client tools) on PATH.",
    );
  if (!result.ok) throw new BackupError(`pg_restore failed: ${result.message}`);
}

export function hasPgRestore(): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn('pg_restore', ['--version'], { stdio: 'ignore' });
    child.on('error', () => resolve(false));
    child.on('exit', (code) => resolve(code === 0));
  });
}

type ToolResult = { ok: true; missing?: false } | { ok: false; missing: boolean; message: string };

/** Runs pg_dump or pg_restore on the database; the password goes in the environment, not argv. */
function runPgTool(tool: 'pg_dump' | 'pg_restore', args: string[], databaseUrl: string): Promise<ToolResult> {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return new Promise((resolve) => {
    const child = spawn(tool, [...args, `--dbname=${url.toString()}`], {
      stdio: ['ignore', 'ignore', 'pipe'],
      // The tool inherits the environment (PGSSLMODE and the like), plus the password kept out of argv.
      // eslint-disable-next-line no-restricted-properties -- passed through whole, not read as a setting
      env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ ok: false, missing: error.code === 'ENOENT', message: error.message }),
    );
    child.on('exit', (code) =>
      resolve(
        code === 0
          ? { ok: true }
          : {
              ok: false,
              missing: false,
              message: stderr.trim().split('\n').slice(0, 3).join(' ') || `exit code ${code}`,
            },
      ),
    );
  });
}
