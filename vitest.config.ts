import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Test files run two (or more) at a time, except the few that hold a time budget (an answer within
// 100 ms, a check within 20 ms): those run afterwards, alone, in their own "-timed" projects
// (sequence.groupOrder 1), so a neighbour's CPU never decides whether they pass.
// docs/decisions/007-reliability.md, "CI time".
const PARALLEL = { maxWorkers: Math.max(2, os.availableParallelism() - 1), sequence: { groupOrder: 0 } };
const ALONE = { maxWorkers: 1, sequence: { groupOrder: 1 } };
const TIMED_SERVER = ['test/hostile-bodies.test.ts'];
const TIMED_SHARED = ['src/validation/adversarial.test.ts'];

/** The test files under `root` (posix paths relative to it) with their text, read once. */
const testFiles = (root: string) =>
  fs
    .readdirSync(new URL(root, import.meta.url), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.test\.tsx?$/.test(file) && !file.includes('node_modules'))
    .map((file) => ({
      path: file.split(path.sep).join('/'),
      text: fs.readFileSync(new URL(`${root}/${file}`, import.meta.url), 'utf8'),
    }));

/**
 * The web tests share one jsdom per worker (`isolate: false`): a jsdom for each of the 47 files
 * took 61 s of the two workers' time and the project 55 s; shared, 12 s. The few files that
 * replace a module with `vi.mock` keep their own (a module another file already loaded in the
 * worker would stay unmocked). Which files those are is read from the files themselves, so a new
 * test needs no list kept by hand (docs/decisions/007-reliability.md, "CI time").
 */
const WEB_ROOT = './apps/web';
const WEB_TESTS = ['src/**/*.test.{ts,tsx}', 'test/**/*.test.ts'];
const webMocking = testFiles(WEB_ROOT)
  .filter((f) => /\bvi\.(do)?[mM]ock\(/.test(f.text))
  .map((f) => f.path);
const webProject = (mocking: boolean) => ({
  plugins: [react()],
  test: {
    name: mocking ? 'web-mocking' : 'web',
    root: WEB_ROOT,
    ...(mocking ? { include: webMocking } : { include: WEB_TESTS, exclude: webMocking, isolate: false }),
    environment: 'jsdom',
    setupFiles: ['./test/setup.ts'],
    ...PARALLEL,
  },
});

/**
 * Server tests that open no database (pure functions, the log test's own embedded server) run on
 * the embedded engine only: on PostgreSQL they would test the same thing again. A file may open
 * one through the test helpers (`helpers.ts`, `shop.ts`, the fixtures, a server process) or the
 * database client, or name `DATABASE_URL` / `dbEngine`; such files run on both, anything else is
 * engine-free. When in doubt a file counts as opening one: it then only runs twice.
 */
const SERVER_ROOT = './apps/server';
const OPENS_DATABASE =
  /from '[^']*\/(helpers|shop|fixtures|content-fixtures|production|server-process|redis-server|mail)(\.ts)?'|db\/client|PGlite|DATABASE_URL|dbEngine/;
const serverEngineFree = testFiles(SERVER_ROOT)
  .filter((f) => !OPENS_DATABASE.test(f.text))
  .map((f) => f.path);

const serverProject = (engine: 'pglite' | 'postgres', timed: boolean) => ({
  test: {
    name: `server-${engine}${timed ? '-timed' : ''}`,
    root: SERVER_ROOT,
    ...(timed
      ? { include: TIMED_SERVER, ...ALONE }
      : {
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...TIMED_SERVER, ...(engine === 'postgres' ? serverEngineFree : [])],
          ...PARALLEL,
        }),
    environment: 'node',
    globalSetup: ['./test/global-setup.ts'],
    env: { TEST_DB_ENGINE: engine },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Every file builds its own app on its own database, so files need no fresh module graph each:
    // loading the server's modules once per worker instead of once per file saves about a third of
    // the project's CPU time (docs/decisions/007-reliability.md, "CI time").
    isolate: false,
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'shared',
          root: './packages/shared',
          include: ['src/**/*.test.ts'],
          exclude: TIMED_SHARED,
          environment: 'node',
          ...PARALLEL,
        },
      },
      {
        test: {
          name: 'shared-timed',
          root: './packages/shared',
          include: TIMED_SHARED,
          environment: 'node',
          ...ALONE,
        },
      },
      webProject(false),
      webProject(true),
      serverProject('pglite', false),
      serverProject('postgres', false),
      serverProject('pglite', true),
      serverProject('postgres', true),
    ],
  },
});
