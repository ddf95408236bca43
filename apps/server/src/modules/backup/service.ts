import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import pg from 'pg';
import type { AppConfig } from '../../config/env.ts';
import { openDatabase, type Database } from '../../db/client.ts';
import { MIGRATIONS_FOLDER } from '../../db/migrate.ts';
import { rows } from '../../db/rows.ts';
import { holdOutbox } from '../../plugins/outbox.ts';
import type { ObjectStore } from '../storage/backends.ts';
import { createObjectStore } from '../storage/create-store.ts';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  ArchiveWriter,
  BackupError,
  checkArchive,
  END_ENTRY,
  forEachEntry,
  MANIFEST_ENTRY,
  readAll,
  STORAGE_PREFIX,
  type ArchiveEntry,
  type CheckedArchive,
  type EndRecord,
  type Manifest,
} from './archive.ts';
import {
  checkMigrationLevel,
  hasPgRestore,
  logicalRestore,
  migrationLevel,
  PG_DUMP_ENTRY,
  PGLITE_DUMP_ENTRY,
  prepareDatabaseDump,
  restorePgDump,
  restorePgliteDataDir,
  type DumpFormat,
} from './dump.ts';
import { encryptStream, openArchiveBytes } from './encryption.ts';

export { BackupError } from './archive.ts';
export type { DumpFormat } from './dump.ts';

/** Local files live under DATA_DIR/storage; with S3 the bucket keeps them (and its own versions). */
export function storageRoot(config: Pick<AppConfig, 's3' | 'dataDir'>): string | null {
  return config.s3 ? null : path.join(config.dataDir, 'storage');
}

/** An upload being written (`<name>.<12 hex>.tmp`, renamed into place when whole) is not a file yet. */
const UPLOAD_IN_PROGRESS = /\.[0-9a-f]{12}\.tmp$/;

function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && !UPLOAD_IN_PROGRESS.test(entry.name)) out.push(full);
    }
  };
  walk(root);
  return out;
}

export interface BackupOptions {
  readonly database: Database;
  readonly format: DumpFormat;
  /** For pg_dump (PostgreSQL only). */
  readonly databaseUrl: string | undefined;
  /** DATA_DIR/storage, or null when files are in S3. */
  readonly storageRoot: string | null;
}

export interface BackupRun {
  readonly manifest: Manifest;
  /** The archive's bytes. */
  readonly stream: Readable;
  /** Settles when the archive is written whole (or broken off). */
  readonly done: Promise<{ end: EndRecord; note?: string }>;
}

/**
 * Starts a backup: the database first (its dump is one consistent moment), then the stored files.
 * A file the database names was on disk before that moment, since uploads store the bytes before
 * the row, so it is in the archive unless it was deleted while the backup ran.
 */
export async function startBackup(options: BackupOptions): Promise<BackupRun> {
  const level = await migrationLevel(options.database.db);
  const dump = await prepareDatabaseDump(options.database, options.format, options.databaseUrl);
  const manifest: Manifest = {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    createdAt: new Date().toISOString(),
    engine: options.database.engine,
    database: dump.kind,
    migrations: level,
    storage: options.storageRoot ? 'local' : 's3',
  };
  const writer = new ArchiveWriter();
  const done = (async () => {
    try {
      await writer.add(MANIFEST_ENTRY, `${JSON.stringify(manifest, null, 2)}\n`);
      await dump.write(writer);
      if (options.storageRoot) {
        for (const file of listFiles(options.storageRoot)) {
          await writer.addFile(
            `${STORAGE_PREFIX}${path.relative(options.storageRoot, file).split(path.sep).join('/')}`,
            file,
          );
        }
      }
      return { end: await writer.finish(), note: dump.note };
    } catch (error) {
      writer.fail(error instanceof Error ? error : new Error(String(error)));
      throw error;
    } finally {
      await dump.cleanup();
    }
  })();
  return { manifest, stream: writer.output, done };
}

/**
 * Writes an archive's bytes to `file`, readable by its owner only: through `file.partial`, renamed
 * when read back whole. With a key the file is sealed on the way (encryption.ts) and the check
 * reads it back through the decryption, tag included.
 */
export async function saveArchive(
  bytes: Readable,
  file: string,
  key: Buffer | undefined,
  done: Promise<{ note?: string | undefined }> = Promise.resolve({}),
): Promise<CheckedArchive & { note?: string | undefined; encrypted: boolean }> {
  const partial = `${file}.partial`;
  try {
    const out = fs.createWriteStream(partial, { mode: 0o600 });
    const [, result] = await Promise.all([
      key ? pipeline(bytes, encryptStream(key), out) : pipeline(bytes, out),
      done,
    ]);
    const checked = await checkArchive(
      () => openArchiveBytes(partial, key),
      () => {},
    );
    await fs.promises.rename(partial, file);
    return { ...checked, note: result.note, encrypted: Boolean(key) };
  } catch (error) {
    await fs.promises.rm(partial, { force: true });
    throw error;
  }
}

/** Writes a backup to `file` (see saveArchive). */
export function writeBackupFile(run: BackupRun, file: string, key: Buffer | undefined) {
  return saveArchive(run.stream, file, key, run.done);
}

/**
 * Makes the folder backups go to owner-only (0700): created so when missing, and tightened when it
 * is the shop's own default folder. A folder the operator chose and already has is left as it is.
 */
export async function prepareBackupFolder(dir: string, isDefault: boolean): Promise<void> {
  await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
  if (isDefault) await fs.promises.chmod(dir, 0o700);
}

// ————————————————————————————————————————— restore —————————————————————————————————————————

export interface RestoreResult {
  readonly manifest: Manifest;
  readonly target: string;
  readonly accounts: number;
  readonly orders: number;
  readonly files: number;
  /** Messages of the outbox that wait, held until the owner releases them. */
  readonly heldMessages: number;
  readonly migrationsBehind: number;
}

const isEmptyDir = (dir: string) => !fs.existsSync(dir) || fs.readdirSync(dir).length === 0;

async function postgresTableCount(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: found } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'p', 'S', 'v', 'm') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'`,
    );
    return found[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

/** What a backup's manifest needs of the place it goes to; refusals say what to do instead. */
function checkEngine(manifest: Manifest, databaseUrl: string | undefined): void {
  if (manifest.database === 'pglite-datadir' && databaseUrl) {
    throw new BackupError(
      'This backup is of the embedded database (PGlite); unset DATABASE_URL to restore it into DATA_DIR, or make a logical backup (npm run backup -- --logical) to move to PostgreSQL.',
    );
  }
  if (manifest.database === 'pg-dump' && !databaseUrl) {
    throw new BackupError(
      'This backup was made with pg_dump; set DATABASE_URL to an empty PostgreSQL database to restore it.',
    );
  }
}

/**
 * Puts a backup back into an empty place: DATA_DIR (embedded database and files) or the empty
 * PostgreSQL database at DATABASE_URL. The archive is checked whole before anything is written;
 * on any failure what was written is taken away again (PostgreSQL restores in one transaction).
 */
export async function restoreBackup(file: string, config: AppConfig): Promise<RestoreResult> {
  if (!fs.existsSync(file)) throw new BackupError(`There is no file ${file}.`);
  const key = config.backupEncryptionKey;
  const open = () => openArchiveBytes(file, key);
  const checked = await checkArchive(open, (manifest) => {
    checkMigrationLevel(manifest.migrations);
    checkEngine(manifest, config.databaseUrl);
  });
  const { manifest, end } = checked;
  if (manifest.database === 'pg-dump' && !(await hasPgRestore())) {
    throw new BackupError(
      "This backup was made with pg_dump; restoring it needs pg_restore (PostgreSQL's client tools) on PATH.",
    );
  }

  const pgliteDir = path.join(config.dataDir, 'pglite');
  const root = storageRoot(config);
  if (config.databaseUrl) {
    const tables = await postgresTableCount(config.databaseUrl);
    if (tables > 0)
      throw new BackupError(
        `The database at DATABASE_URL is not empty (${tables} tables and sequences): a backup is restored only into an empty database. Create a new one (createdb) and point DATABASE_URL at it.`,
      );
  } else if (!isEmptyDir(pgliteDir)) {
    throw new BackupError(
      `The data directory is not empty: ${pgliteDir} holds a database. A backup is restored only into an empty DATA_DIR; choose a new one or move this one away first.`,
    );
  }
  if (end.files > 0 && root && !isEmptyDir(root)) {
    throw new BackupError(
      `The data directory is not empty: ${root} holds files. A backup is restored only into an empty DATA_DIR; choose a new one or move this one away first.`,
    );
  }

  const created: string[] = [];
  const claim = (dir: string) => {
    if (!fs.existsSync(dir)) created.push(dir);
  };
  if (!config.databaseUrl) claim(pgliteDir);
  if (root) claim(root);
  const store: ObjectStore = createObjectStore(config);
  const work = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'shop-restore-'));
  let files = 0;

  const restoreFile = async (entry: ArchiveEntry) => {
    const name = entry.name.slice(STORAGE_PREFIX.length);
    const [bucket, ...rest] = name.split('/');
    if (!bucket || !rest.length || rest.some((part) => part === '..' || part === '' || part === '.'))
      throw new BackupError(`This backup has a file with a bad name: ${entry.name}.`);
    await store.put(bucket, rest.join('/'), await readAll(entry.stream), 'application/octet-stream');
    files += 1;
  };
  /** Walks the archive, giving database entries to `database` and files to the store. */
  const apply = (database: (entry: ArchiveEntry) => Promise<void>) =>
    forEachEntry(open, async (entry) => {
      if (entry.name === MANIFEST_ENTRY || entry.name === END_ENTRY) return;
      if (entry.name.startsWith(STORAGE_PREFIX)) return restoreFile(entry);
      return database(entry);
    });

  try {
    if (manifest.database === 'pglite-datadir') {
      await apply(async (entry) => {
        if (entry.name !== PGLITE_DUMP_ENTRY)
          throw new BackupError(`This backup has an unknown entry ${entry.name}.`);
        await restorePgliteDataDir(pgliteDir, await readAll(entry.stream));
      });
    } else if (manifest.database === 'pg-dump') {
      await apply(async (entry) => {
        if (entry.name !== PG_DUMP_ENTRY)
          throw new BackupError(`This backup has an unknown entry ${entry.name}.`);
        const dump = path.join(work, 'postgres.dump');
        await pipeline(entry.stream, fs.createWriteStream(dump));
        await restorePgDump(config.databaseUrl!, dump);
      });
    } else {
      const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
      try {
        await database.db.transaction((tx) => logicalRestore(tx, manifest.migrations, apply));
      } finally {
        await database.close();
      }
    }
  } catch (error) {
    for (const dir of created) await fs.promises.rm(dir, { recursive: true, force: true });
    throw error;
  } finally {
    await fs.promises.rm(work, { recursive: true, force: true });
  }

  const restored = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    // The live shop this came from has sent, or will send, what its outbox held: the restored one
    // sends nothing until the owner says so (plugins/outbox.ts, OUTBOX_HOLD_KEY). A backup older
    // than the settings table (migration 0005) has no outbox either.
    const [tables] = rows<{ settings: boolean; outbox: boolean }>(
      await restored.db.execute(
        sql`select to_regclass('site_settings') is not null as settings, to_regclass('outbox_messages') is not null as outbox`,
      ),
    );
    if (tables?.settings) await holdOutbox(restored.db, `restored from a backup made ${manifest.createdAt}`);
    const [held] = tables?.outbox
      ? rows<{ pending: number }>(
          await restored.db.execute(
            sql`select count(*)::int as pending from outbox_messages where status = 'pending'`,
          ),
        )
      : [];
    const [counts] = rows<{ accounts: number; orders: number }>(
      await restored.db.execute(
        sql`select (select count(*) from users)::int as accounts, (select count(*) from orders)::int as orders`,
      ),
    );
    const level = await migrationLevel(restored.db);
    const known = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).length;
    return {
      manifest,
      target: config.databaseUrl
        ? 'the PostgreSQL database at DATABASE_URL'
        : `the embedded database in ${config.dataDir}`,
      accounts: counts?.accounts ?? 0,
      orders: counts?.orders ?? 0,
      files,
      heldMessages: held?.pending ?? 0,
      migrationsBehind: known - level.count,
    };
  } finally {
    await restored.close();
  }
}
