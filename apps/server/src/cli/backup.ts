import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { ConfigError, loadConfig, type AppConfig } from '../config/env.ts';
import { openDatabase } from '../db/client.ts';
import { cliTokenFile } from '../lib/cli-token.ts';
import {
  BackupError,
  prepareBackupFolder,
  saveArchive,
  startBackup,
  storageRoot,
  writeBackupFile,
  type DumpFormat,
} from '../modules/backup/service.ts';
import { taipeiParts } from '@shop/shared/taipei-time';

const USAGE = 'usage: npm run backup -- [file.tar] [--logical]';

/**
 * npm run backup -- [file.tar] [--logical]
 * Writes one archive of the database and the stored files (README, "Backups"). The
 * embedded database belongs to the running shop, so the copy is taken by the server when one
 * answers; with no shop running the command opens the database itself. With DATABASE_URL it reads
 * PostgreSQL directly (pg_dump when on PATH, else a logical dump).
 */
async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const flags = args.filter((a) => a.startsWith('-'));
  const positional = args.filter((a) => !a.startsWith('-'));
  if (flags.some((f) => f !== '--logical') || positional.length > 1) {
    console.error(USAGE);
    return 2;
  }
  const format: DumpFormat = flags.includes('--logical') ? 'logical' : 'native';
  const config = loadConfig(process.env);
  // npm runs scripts from the repository root; a relative path means the caller's directory.
  const base = process.env.INIT_CWD ?? process.cwd();
  const file = path.resolve(base, positional[0] ?? path.join('backups', `shanlan-${taipeiStamp()}.tar`));
  // Backups hold password hashes, bank accounts and addresses: owner-only, and sealed with a key.
  process.umask(0o077);
  await prepareBackupFolder(path.dirname(file), positional[0] === undefined);
  const key = config.backupEncryptionKey;

  let how: string;
  let result: Awaited<ReturnType<typeof writeBackupFile>>;
  if (config.databaseUrl) {
    result = await direct(config, format, file, key);
    how = 'read from PostgreSQL directly';
  } else {
    const served = await viaServer(config, format, file, key);
    if (served) {
      result = served;
      how = 'taken through the running shop';
    } else {
      const dir = path.join(config.dataDir, 'pglite');
      if (!fs.existsSync(path.join(dir, 'PG_VERSION')))
        throw new BackupError(`There is no embedded database in ${dir} (DATA_DIR=${config.dataDir}).`);
      if (fs.existsSync(path.join(dir, 'postmaster.pid'))) {
        throw new BackupError(
          `The embedded database in ${dir} is in use by a shop that did not answer at http://127.0.0.1:${config.port}. ` +
            "Run the backup with that shop's PORT and DATA_DIR. If no shop is running (it was killed), start it and stop it once, then try again.",
        );
      }
      result = await direct(config, format, file, key);
      how = 'opened the embedded database itself (no shop was running)';
    }
  }

  const { manifest, end, note, encrypted } = result;
  const size = fs.statSync(file).size;
  const kinds = {
    'pglite-datadir': 'data directory',
    'pg-dump': 'pg_dump custom format',
    logical: 'logical dump',
  } as const;
  const shown = path.relative(base, file);
  console.log(`Backup written to ${shown.startsWith('..') ? file : shown} (${formatBytes(size)}), ${how}.`);
  console.log(
    `  database: ${manifest.engine === 'pglite' ? 'embedded (PGlite)' : 'PostgreSQL'}, ${kinds[manifest.database]}, ${manifest.migrations.count} migrations applied`,
  );
  console.log(
    manifest.storage === 'local'
      ? `  files: ${end.files} files, ${formatBytes(end.fileBytes)}`
      : '  files: none (they are in S3; keep the bucket versioned)',
  );
  console.log(
    encrypted
      ? '  encrypted with BACKUP_ENCRYPTION_KEY (AES-256-GCM); keep the key apart from the backups'
      : '  not encrypted (set BACKUP_ENCRYPTION_KEY to seal backups)',
  );
  if (note) console.log(`  note: ${note}`);
  return 0;
}

async function direct(config: AppConfig, format: DumpFormat, file: string, key: Buffer | undefined) {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const run = await startBackup({
      database,
      format,
      databaseUrl: config.databaseUrl,
      storageRoot: storageRoot(config),
    });
    return await writeBackupFile(run, file, key);
  } finally {
    await database.close();
  }
}

/** The archive from the running shop, or null when no shop answers with our token. */
async function viaServer(config: AppConfig, format: DumpFormat, file: string, key: Buffer | undefined) {
  let token: string;
  try {
    token = fs.readFileSync(cliTokenFile(config.dataDir), 'utf8').trim();
  } catch {
    return null;
  }
  const res = await fetch(`http://127.0.0.1:${config.port}/api/admin/backup?format=${format}`, {
    headers: { 'x-admin-cli-token': token },
  }).catch(() => null);
  // 401: a shop answered but its token is another one (a shop of another DATA_DIR, or a stale file).
  if (!res || res.status === 401) return null;
  if (!res.ok || !res.body) {
    const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new BackupError(`The shop refused the backup: ${body?.error?.message ?? res.status}`);
  }
  return saveArchive(Readable.fromWeb(res.body as ReadableStream<Uint8Array>), file, key);
}

function taipeiStamp(): string {
  const p = taipeiParts(new Date());
  return `${p.year}${p.month}${p.day}-${p.hour}${p.minute}${p.second}`;
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError)
      error.problems.forEach((p) => console.error(`Configuration error: ${p}`));
    else if (error instanceof BackupError) console.error(error.message);
    else console.error(error instanceof Error ? `Backup failed: ${error.message}` : error);
    process.exit(1);
  },
);
