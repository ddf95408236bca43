import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { ConfigError, loadConfig, REPO_ROOT, type AppConfig } from './config/env.ts';
import { embeddedDatabaseOptions } from './config/embedded-database.ts';
import { openDatabase, pgliteDatabase, type Database } from './db/client.ts';
import { migrateDatabase } from './db/migrate.ts';
import { isDatabaseEmpty } from './seed/empty.ts';
import type { PreparedDatabase } from './cli/prepare-database.ts';
import { buildApp } from './app.ts';
import { gracefulDrain } from './lib/drain.ts';
import { keepDataPrivate } from './lib/private-files.ts';

/** Gets the database ready, builds the app, listens, and closes gracefully. Nothing else lives here. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      for (const line of error.problems) console.error(`Configuration error: ${line}`);
      process.exit(1);
    }
    throw error;
  }

  keepDataPrivate(config.dataDir);

  // A new embedded database is created (initdb), migrated and given its demo data by a short-lived
  // process: what that takes would otherwise stay in this one's memory for good.
  let prepared: PreparedDatabase | undefined;
  if (!config.databaseUrl && !fs.existsSync(path.join(embeddedDir(config), 'PG_VERSION')))
    prepared = await prepareDatabaseInChildProcess();
  let database = await openServerDatabase(config);
  const { applied } = await migrateDatabase(database);
  if (!prepared && config.seedDemo && (await isDatabaseEmpty(database.db))) {
    // The embedded database belongs to one process at a time: hand it over and take it back.
    if (database.engine === 'pglite') await database.close();
    prepared = await prepareDatabaseInChildProcess();
    if (database.engine === 'pglite') database = await openServerDatabase(config);
  }
  // PGlite sets 0666 on the files it creates, whatever the umask: they are tightened again now.
  if (database.engine === 'pglite') keepDataPrivate(config.dataDir);
  const app = await buildApp({ config, database });
  app.log.info(
    { engine: database.engine, migrationsApplied: applied + (prepared?.migrationsApplied ?? 0) },
    database.engine === 'pglite' ? `embedded database at ${config.dataDir}` : 'PostgreSQL database',
  );
  if (prepared && prepared.demo.length > 0) app.log.info(`demo data loaded: ${prepared.demo.join('、')}`);

  // Readiness says 503 first while the listener keeps accepting for SHUTDOWN_GRACE_SECONDS (a
  // SIGTERM: a load balancer is moving traffic away; Ctrl-C has none), then stop accepting, let open
  // connections deliver what they already sent, finish in-flight requests, end live streams, then
  // close (lib/drain.ts); the timer is the last resort.
  const drain = gracefulDrain(app);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const graceMs = signal === 'SIGTERM' ? config.shutdownGraceMs : 0;
    app.log.info(
      { signal, graceMs },
      graceMs > 0
        ? `shutting down: readiness answers 503; still accepting for ${graceMs / 1000} s, then finishing in-flight requests`
        : 'shutting down: no new connections; finishing in-flight requests',
    );
    const force = setTimeout(() => {
      app.log.error(`shutdown took longer than ${(graceMs + 10_000) / 1000} s; exiting`);
      process.exit(1);
    }, graceMs + 10_000);
    force.unref();
    try {
      const { cut } = await drain.drain(graceMs);
      if (cut > 0) app.log.warn({ cut }, 'requests still running at the drain time-out were cut off');
      app.log.info('shut down cleanly');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // Plain line on stdout so a newcomer sees where the shop is, whatever the log format.
  console.log(`\n  山嵐茶事 is running at http://localhost:${port}\n`);
}

/** Where the embedded database lives (db/client.ts opens the same folder). */
const embeddedDir = (config: AppConfig) => path.join(config.dataDir, 'pglite');

/**
 * PostgreSQL when DATABASE_URL is set, else the embedded database under DATA_DIR with the serving
 * process's smaller memory settings (config/embedded-database.ts).
 */
async function openServerDatabase(config: AppConfig): Promise<Database> {
  if (config.databaseUrl)
    return openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      timeouts: config.databaseTimeouts,
    });
  fs.mkdirSync(embeddedDir(config), { recursive: true });
  return pgliteDatabase(await PGlite.create(embeddedDir(config), embeddedDatabaseOptions()));
}

/**
 * Runs cli/prepare-database.ts in a process of its own (creates and migrates the database, loads
 * the demo data into an empty one outside production) and resolves what it reports. From the
 * sources (tsx: npm run dev, the tests) it runs that file the same way; from the build, its
 * compiled twin beside this file.
 */
function prepareDatabaseInChildProcess(): Promise<PreparedDatabase> {
  const here = fileURLToPath(import.meta.url);
  const args = here.endsWith('.ts')
    ? ['--import', 'tsx', path.join(path.dirname(here), 'cli', 'prepare-database.ts')]
    : ['--enable-source-maps', path.join(path.dirname(here), 'cli-prepare-database.js')];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let prepared: PreparedDatabase | undefined;
    child.on('message', (message) => (prepared = message as PreparedDatabase));
    // Stopped meanwhile, the server stops it too (it would otherwise outlive the server).
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on('SIGTERM', forward).on('SIGINT', forward);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      process.off('SIGTERM', forward).off('SIGINT', forward);
      if (code === 0 && prepared) resolve(prepared);
      else
        reject(
          new Error(
            `the database could not be prepared: its process ended with ${signal ?? `exit code ${code}`}`,
          ),
        );
    });
  });
}

main().catch((error: unknown) => {
  console.error('Server failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
