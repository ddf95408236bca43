import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dbAvailable } from '../../test/helpers.ts';
import type { Database } from './client.ts';
import { migrateDatabase } from './migrate.ts';
import { isDatabaseEmpty, seedDemoData } from '../seed/index.ts';
import { redirects } from './schema.ts';
import { localStore } from '../modules/storage/backends.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

describe.skipIf(!dbAvailable())('migrations and demo data', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database.close());

  it('are safe to run again: nothing is applied twice', async () => {
    expect(await migrateDatabase(database)).toEqual({ applied: 0 });
  });

  it('are safe with two starts at once', async () => {
    const results = await Promise.all([migrateDatabase(database), migrateDatabase(database)]);
    expect(results).toEqual([{ applied: 0 }, { applied: 0 }]);
  });

  it('load demo data into an empty database only, never over existing data', async () => {
    expect(await isDatabaseEmpty(database.db)).toBe(true);
    const store = localStore(fs.mkdtempSync(path.join(os.tmpdir(), 'shop-seed-')));
    const first = await seedDemoData(database.db, store);
    expect(first.seeded).toBe(true);
    const count = (await database.db.select().from(redirects)).length;
    expect(count).toBeGreaterThan(0);
    const second = await seedDemoData(database.db, store);
    expect(second.seeded).toBe(false);
    expect((await database.db.select().from(redirects)).length).toBe(count);
    // Drawing every demo picture and PDF is CPU work: give it room on a busy two-core machine.
  }, 180_000);
});
