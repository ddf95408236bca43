import { ConfigError, loadConfig } from './config/env.ts';
import { openDatabase } from './db/client.ts';
import { migrateDatabase } from './db/migrate.ts';
import { createObjectStore } from './modules/storage/create-store.ts';
import { seedDemoData } from './db/seed/index.ts';
import { buildApp } from './app.ts';
import { gracefulDrain } from './lib/drain.ts';

/** Builds the app, listens, and closes gracefully. Nothing else lives here. */
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

  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, timeouts: config.databaseTimeouts });
  const { applied } = await migrateDatabase(database);
  const app = await buildApp({ config, database });
  app.log.info(
    { engine: database.engine, migrationsApplied: applied },
    database.engine === 'pglite' ? `embedded database at ${config.dataDir}` : 'PostgreSQL database',
  );
  if (config.seedDemo) {
    const seed = await seedDemoData(database.db, createObjectStore(config), config.publicUrl);
    if (seed.seeded) app.log.info(`demo data loaded: ${seed.summary.join('、')}`);
  }

  // Stop accepting, let open connections deliver what they already sent, finish in-flight requests,
  // end live streams, then close (lib/drain.ts); the timer is the last resort.
  const drain = gracefulDrain(app);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: no new connections; finishing in-flight requests');
    const force = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      const { cut } = await drain.drain();
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

main().catch((error: unknown) => {
  console.error('Server failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
