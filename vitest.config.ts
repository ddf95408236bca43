import os from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { testsOnPreact } from './apps/web/react-on-preact.ts';

// Test files run two (or more) at a time, except the few that hold a time budget (an answer within
// 100 ms, a check within 20 ms): those run afterwards, alone, in their own "-timed" projects
// (sequence.groupOrder 1), so a neighbour's CPU never decides whether they pass.
// docs/decisions/007-reliability.md, "CI time".
const PARALLEL = { maxWorkers: Math.max(2, os.availableParallelism() - 1), sequence: { groupOrder: 0 } };
const ALONE = { maxWorkers: 1, sequence: { groupOrder: 1 } };
const TIMED_SERVER = ['test/hostile-bodies.test.ts'];
const TIMED_SHARED = ['src/validation/adversarial.test.ts'];

const serverProject = (engine: 'pglite' | 'postgres', timed: boolean) => ({
  test: {
    name: `server-${engine}${timed ? '-timed' : ''}`,
    root: './apps/server',
    ...(timed ? { include: TIMED_SERVER, ...ALONE } : { include: ['src/**/*.test.ts', 'test/**/*.test.ts'], exclude: TIMED_SERVER, ...PARALLEL }),
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
      {
        plugins: [react()],
        // The runtime the app ships: React's API on preact/compat (docs/decisions/025-preact.md).
        resolve: { alias: testsOnPreact.alias },
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.ts'],
          environment: 'jsdom',
          setupFiles: ['./test/setup.ts'],
          server: { deps: { inline: testsOnPreact.inline } },
          ...PARALLEL,
        },
      },
      serverProject('pglite', false),
      serverProject('postgres', false),
      serverProject('pglite', true),
      serverProject('postgres', true),
    ],
  },
});
