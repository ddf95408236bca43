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

interface Template {
  readonly values: { template: string; available: boolean };
  users: number;
  readonly cleanUp: () => Promise<void>;
}

// Each engine has two projects (the "-timed" one holds the files that must run alone); both use
// one template, made once per run: globalSetup runs in one process for all projects, so a global
// carries it from the first project to the second, and the last teardown removes it.
const templates = ((
  globalThis as { __shopTestTemplates?: Map<string, Promise<Template>> }
).__shopTestTemplates ??= new Map());

/**
 * Migrates one template database per engine and run; each test file then starts from a copy of it
 * (PGlite: load the dumped data directory; PostgreSQL: CREATE DATABASE … TEMPLATE).
 */
export default async function setup(project: TestProject) {
  const engine = (project.config.env?.TEST_DB_ENGINE ?? 'pglite') as 'pglite' | 'postgres';
  let made = templates.get(engine);
  if (!made) {
    made = engine === 'pglite' ? makePgliteTemplate() : makePostgresTemplate();
    templates.set(engine, made);
  }
  const template = await made;
  template.users += 1;
  if (engine === 'pglite') project.provide('dbTemplate:pglite', template.values.template);
  else {
    project.provide('dbTemplate:postgres', template.values.template);
    project.provide('dbAvailable:postgres', template.values.available);
  }
  return async () => {
    template.users -= 1;
    if (template.users === 0) {
      templates.delete(engine);
      await template.cleanUp();
    }
  };
}

async function makePgliteTemplate(): Promise<Template> {
  const client = await PGlite.create(PGLITE_OPTIONS);
  const database = pgliteDatabase(client);
  await migrateDatabase(database);
  const dump = await client.dumpDataDir('none');
  await database.close();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shop-pglite-'));
  const file = path.join(dir, 'template.tar');
  await fs.writeFile(file, Buffer.from(await dump.arrayBuffer()));
  return {
    values: { template: file, available: true },
    users: 0,
    cleanUp: () => fs.rm(dir, { recursive: true, force: true }),
  };
}

async function makePostgresTemplate(): Promise<Template> {
  const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.warn(
      `\n[server-postgres] PostgreSQL at ${redact(adminUrl)} did not answer (${reason}); its tests are skipped.\n`,
    );
    return { values: { template: '', available: false }, users: 0, cleanUp: async () => {} };
  }
  const prefix = `shop_test_${process.pid}_${Date.now().toString(36)}`;
  const template = `${prefix}_tpl`;
  await admin.query(`create database "${template}"`);
  const templateUrl = withDatabase(adminUrl, template);
  const pool = new pg.Pool({ connectionString: templateUrl, max: 2 });
  const database = postgresDatabase(pool);
  await migrateDatabase(database);
  await database.close();
  return {
    values: { template: templateUrl, available: true },
    users: 0,
    cleanUp: async () => {
      // Drop the template and every per-file copy made from it.
      const { rows } = await admin.query<{ datname: string }>(
        'select datname from pg_database where datname like $1',
        [`${prefix}%`],
      );
      for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`);
      await admin.end();
    },
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
