import { ConfigError, loadConfig } from '../config/env.ts';
import { openDatabase } from '../db/client.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { createObjectStore } from '../modules/storage/create-store.ts';
import { seedDemoData } from '../seed/index.ts';

/** npm run seed: demo data into an empty database; never over a shop's own data, never in production. */
async function main(): Promise<number> {
  const config = loadConfig(process.env);
  if (config.isProduction) {
    console.error('Demo data is never loaded when NODE_ENV=production.');
    return 1;
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateDatabase(database);
    const result = await seedDemoData(database.db, createObjectStore(config), config.publicUrl);
    if (!result.seeded) {
      console.log('The database already has data of its own; demo data was not loaded.');
      return 0;
    }
    console.log(`Demo data loaded: ${result.summary.join('、')}`);
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError)
      error.problems.forEach((p) => console.error(`Configuration error: ${p}`));
    else console.error(error);
    process.exit(1);
  },
);
