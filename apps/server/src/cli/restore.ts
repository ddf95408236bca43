import path from 'node:path';
import { ConfigError, loadConfig } from '../config/env.ts';
import { BackupError, restoreBackup } from '../modules/backup/service.ts';

/**
 * npm run restore -- <file.tar>
 * Puts a backup made by `npm run backup` into an empty DATA_DIR (embedded database and files), or
 * into the empty PostgreSQL database at DATABASE_URL. Refuses a place that already holds a shop, an
 * archive that is cut off or damaged, and one made by a newer version (README, "Backups").
 */
async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0]!.startsWith('-')) {
    console.error('usage: npm run restore -- <file.tar>');
    return 2;
  }
  const config = loadConfig(process.env);
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), args[0]!);
  // What the restore writes (the database, the files) is the shop's user's only.
  process.umask(0o077);
  const result = await restoreBackup(file, config);
  console.log(`Restored ${path.basename(file)} (made ${result.manifest.createdAt}) into ${result.target}:`);
  console.log(`  ${result.accounts} accounts, ${result.orders} orders, ${result.files} files`);
  console.log(
    `  The outbox is held: no mail or gateway call (${result.heldMessages} waiting) is sent until the owner releases it, ` +
      'in the console (寄送狀態) or with npm run outbox:release, once the shop this backup came from no longer runs.',
  );
  if (result.migrationsBehind > 0)
    console.log(`  ${result.migrationsBehind} newer migrations are applied when the shop starts.`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError)
      error.problems.forEach((p) => console.error(`Configuration error: ${p}`));
    else if (error instanceof BackupError) console.error(error.message);
    else console.error(error instanceof Error ? `Restore failed: ${error.message}` : error);
    process.exit(1);
  },
);
