import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { PGLITE_OPTIONS, pgliteDatabase } from '../src/db/client.ts';
import { migrateDatabase } from '../src/db/migrate.ts';
import { postgresDatabase } from '../src/db/client.ts';

// Provided values are shared by all projects of a run, so each engine has its own keys; a test
// file finds its engine in TEST_DB_ENGINE, which each project sets.
declare module 'vitest' {
  export interface ProvidedContext {
    /** A tarball of a migrated PGlite data directory. */
    'dbTemplate:pglite': string;
    /** The template database's URL. */
    'dbTemplate:postgres': string;
    /** False when no PostgreSQL answered: its tests are skipped. */
    'dbAvailable:postgres': boolean;
  }
}

/**
 * Migrates one template database per run; each test file then starts from a copy of it
 * (PGlite: load the dumped data directory; PostgreSQL: CREATE DATABASE … TEMPLATE).
 */
export default async function setup(project: TestProject) {
  const engine = (project.config.env?.TEST_DB_ENGINE ?? 'pglite') as 'pglite' | 'postgres';
  if (engine === 'pglite') {
    const client = await PGlite.create(PGLITE_OPTIONS);
    const database = pgliteDatabase(client);
    await migrateDatabase(database);
    const dump = await client.dumpDataDir('none');
    await database.close();
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shop-pglite-'));
    const file = path.join(dir, 'template.tar');
    await fs.writeFile(file, Buffer.from(await dump.arrayBuffer()));
    project.provide('dbTemplate:pglite', file);
    return async () => {
      await fs.rm(dir, { recursive: true, force: true });
    };
  }

  const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.warn(`\n[server-postgres] PostgreSQL at ${redact(adminUrl)} did not answer (${reason}); its tests are skipped.\n`);
    project.provide('dbTemplate:postgres', '');
    project.provide('dbAvailable:postgres', false);
    return;
  }
  const prefix = `shop_test_${process.pid}_${Date.now().toString(36)}`;
  const template = `${prefix}_tpl`;
  await admin.query(`create database "${template}"`);
  const templateUrl = withDatabase(adminUrl, template);
  const pool = new pg.Pool({ connectionString: templateUrl, max: 2 });
  const database = postgresDatabase(pool);
  await migrateDatabase(database);
  await database.close();
  project.provide('dbTemplate:postgres', templateUrl);
  project.provide('dbAvailable:postgres', true);

  return async () => {
    // Drop the template and every per-file copy made from it.
    const { rows } = await admin.query<{ datname: string }>('select datname from pg_database where datname like $1', [`${prefix}%`]);
    for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`);
    await admin.end();
  };
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}
