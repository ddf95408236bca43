import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig, type AppConfig } from '../src/config/env.ts';
import {
  createPool,
  PGLITE_OPTIONS,
  pgliteDatabase,
  postgresDatabase,
  type Database,
} from '../src/db/client.ts';

/** The engine of the current vitest project (server-pglite or server-postgres). */
export const dbEngine = (): 'pglite' | 'postgres' =>
  process.env.TEST_DB_ENGINE === 'postgres' ? 'postgres' : 'pglite';
/** For `describe.skipIf(!dbAvailable())`: false only when PostgreSQL was wanted and did not answer. */
export const dbAvailable = () => dbEngine() === 'pglite' || inject('dbAvailable:postgres');

/** A fresh, migrated database for one test file, on the engine of the current project. */
export async function createTestDatabase(): Promise<Database> {
  if (dbEngine() === 'pglite') {
    const template = inject('dbTemplate:pglite');
    const tar = await fs.promises.readFile(template);
    const client = await PGlite.create({ ...PGLITE_OPTIONS, loadDataDir: new Blob([tar]) });
    return pgliteDatabase(client);
  }
  // The pool the server runs with (time-outs, lost connections handled), only larger.
  return postgresDatabase(createPool(await createTestDatabaseUrl(), { max: 20 }));
}

/** PostgreSQL only: a fresh, migrated database for one test file, by URL (for tests that open it themselves). */
export async function createTestDatabaseUrl(): Promise<string> {
  const templateUrl = new URL(inject('dbTemplate:postgres'));
  const templateName = templateUrl.pathname.slice(1);
  const name = `${templateName.replace(/_tpl$/, '')}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({
    connectionString: templateUrl.toString().replace(`/${templateName}`, '/postgres'),
  });
  await admin.connect();
  try {
    await admin.query(`create database "${name}" template "${templateName}"`);
  } finally {
    await admin.end();
  }
  templateUrl.pathname = `/${name}`;
  return templateUrl.toString();
}

export function testConfig(overrides: Record<string, string> = {}): AppConfig {
  return loadConfig({
    NODE_ENV: 'test',
    // Each app gets its own folder (uploaded files live there), so parallel test files never meet.
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'shop-test-data-')),
    WEB_DIST: path.join(os.tmpdir(), 'shop-no-web-build'),
    PUBLIC_URL: 'http://localhost:3000',
    ...overrides,
  });
}

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  close(): Promise<void>;
}

/** The whole server on a fresh database, used through `app.inject`. */
export async function createTestApp(overrides: Record<string, string> = {}): Promise<TestContext> {
  const database = await createTestDatabase();
  const app = await buildApp({ config: testConfig(overrides), database, closeDatabase: false });
  await app.ready();
  return {
    app,
    database,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** Signs a test user in through the test-only helper; returns the Cookie header to send. */
export async function signIn(
  app: FastifyInstance,
  email = 'member@example.com',
): Promise<{ cookie: string; uid: string }> {
  const res = await app.inject({ method: 'POST', url: '/api/test/session', payload: { email } });
  if (res.statusCode !== 200) throw new Error(`test sign-in failed: ${res.statusCode} ${res.body}`);
  const cookie = res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  return { cookie, uid: (res.json() as { user: { uid: string } }).user.uid };
}
