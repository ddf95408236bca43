import { ConfigError, loadConfig } from '../config/env.ts';
import { openDatabase } from '../db/client.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { isDatabaseEmpty } from '../seed/empty.ts';
import { createObjectStore } from '../modules/storage/create-store.ts';

/** What this process tells the server that started it (over its IPC channel). */
export interface PreparedDatabase {
  readonly migrationsApplied: number;
  /** What the demo data holds, when it was loaded now; empty otherwise. */
  readonly demo: readonly string[];
}

/**
 * Gets the database ready for the server, in a short-lived process of its own that server.ts
 * starts: creates the embedded database when it is new, applies the migrations, and loads the demo
 * data into an empty database when the configuration asks for it (never in production). What that
 * takes (PGlite's initdb, the drawn pictures and PDFs, sharp's buffers) leaves with this process
 * instead of staying in the server's memory: docs/decisions/023-compiled-server-and-memory.md.
 */
async function main(): Promise<PreparedDatabase> {
  const config = loadConfig(process.env);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    timeouts: config.databaseTimeouts,
  });
  try {
    const { applied } = await migrateDatabase(database);
    if (!config.seedDemo || !(await isDatabaseEmpty(database.db)))
      return { migrationsApplied: applied, demo: [] };
    // The drawing code is loaded only when there is something to draw.
    const { seedDemoData } = await import('../seed/index.ts');
    const result = await seedDemoData(database.db, createObjectStore(config), config.publicUrl);
    return { migrationsApplied: applied, demo: result.seeded ? result.summary : [] };
  } finally {
    await database.close();
  }
}

main().then(
  (prepared) => {
    if (process.send) process.send(prepared, () => process.exit(0));
    else {
      console.log(
        `${prepared.migrationsApplied} migrations applied${prepared.demo.length ? `; demo data loaded: ${prepared.demo.join('、')}` : ''}`,
      );
      process.exit(0);
    }
  },
  (error: unknown) => {
    if (error instanceof ConfigError)
      error.problems.forEach((p) => console.error(`Configuration error: ${p}`));
    else console.error('The database could not be prepared:', error);
    process.exit(1);
  },
);
