import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config/env.ts';
import { MIGRATIONS_FOLDER } from '../src/db/migrate.ts';
import { dbEngine } from './helpers.ts';
import { serverDatabaseEnv, startServerProcess } from './server-process.ts';

/**
 * What `npm start` and production run: the server compiled by scripts/build-server.mjs (esbuild),
 * started with scripts/lib.mjs's SERVER_NODE_FLAGS, with no TypeScript transpiler. Built here into a
 * scratch folder of its own, so a build by anyone else meanwhile changes nothing under the test.
 */
describe('the compiled server', () => {
  let scratch = '';
  let entry = '';
  let flags: string[] = [];

  beforeAll(() => {
    scratch = fs.mkdtempSync(path.join(REPO_ROOT, 'apps/server/.build-test-'));
    const outdir = path.join(scratch, 'dist');
    const built = spawnSync(process.execPath, ['scripts/build-server.mjs', '--outdir', outdir], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    expect(built.status, built.stderr).toBe(0);
    entry = path.join(outdir, 'server.js');
    const read = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "console.log(JSON.stringify((await import('./scripts/lib.mjs')).SERVER_NODE_FLAGS))",
      ],
      { cwd: REPO_ROOT, encoding: 'utf8' },
    );
    flags = JSON.parse(read.stdout) as string[];
  }, 60_000);

  afterAll(() => {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('is plain JavaScript for Node, with the migrations beside it and source maps naming the .ts files', () => {
    const outdir = path.dirname(entry);
    expect(fs.readdirSync(path.join(outdir, 'migrations')).filter((f) => f.endsWith('.sql'))).toEqual(
      fs.readdirSync(MIGRATIONS_FOLDER).filter((f) => f.endsWith('.sql')),
    );
    for (const name of [
      'server',
      'cli-prepare-database',
      'cli-seed',
      'cli-admin-create',
      'cli-backup',
      'cli-restore',
      'cli-order-advance',
    ]) {
      expect(fs.existsSync(path.join(outdir, `${name}.js`)), name).toBe(true);
    }
    const map = JSON.parse(fs.readFileSync(`${entry}.map`, 'utf8')) as {
      sources: string[];
      sourcesContent?: unknown;
    };
    expect(map.sources.map((s) => path.resolve(outdir, s))).toContain(
      path.join(REPO_ROOT, 'apps/server/src/server.ts'),
    );
    // Packages stay in node_modules; the shop's own TypeScript (@shop/shared too) is compiled in.
    const code = fs
      .readdirSync(outdir)
      .filter((f) => f.endsWith('.js'))
      .map((f) => fs.readFileSync(path.join(outdir, f), 'utf8'))
      .join('\n');
    expect(code).toMatch(/from "fastify"/);
    expect(code).not.toMatch(/from "@shop\//);
    expect(code).not.toMatch(/from "[^"]*\.ts"/);
    expect(flags).toContain('--enable-source-maps');
  });

  it('starts with the flags npm start uses, finds its migrations and its place in the repository, and answers', async () => {
    // A relative DATA_DIR is resolved against the repository root, which the build finds from dist/.
    const dataDir = path.join('.data', `test-compiled-${process.pid}-${Date.now()}`);
    // A new embedded database is created and migrated first, in a process of its own (WebAssembly
    // compiled by the optimising compiler only: a few seconds more at start on a busy machine).
    const server = await startServerProcess(
      { ...(await serverDatabaseEnv()), DATA_DIR: dataDir },
      { args: [...flags, entry], readyTimeoutMs: 170_000 },
    );
    try {
      expect(server.child.spawnargs).not.toContain('tsx');
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      const opened = server.logs().find((l) => typeof l.migrationsApplied === 'number');
      if (dbEngine() === 'pglite') {
        // A new data folder: created and migrated by the short-lived process, every migration once.
        expect(opened).toMatchObject({
          engine: 'pglite',
          migrationsApplied: readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).length,
        });
        expect(fs.existsSync(path.join(REPO_ROOT, dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
      } else {
        expect(opened).toMatchObject({ engine: 'postgres' });
      }
    } finally {
      await server.dispose();
      fs.rmSync(path.join(REPO_ROOT, dataDir), { recursive: true, force: true });
    }
  }, 180_000);

  it.runIf(dbEngine() === 'pglite')(
    'loads the demo data into a new embedded database in a process of its own, then serves it',
    async () => {
      const server = await startServerProcess(
        { SEED_DEMO: '1' },
        { args: [...flags, entry], readyTimeoutMs: 170_000 },
      );
      try {
        const list = (await (await fetch(`${server.url}/api/catalog/products?pageSize=1`)).json()) as {
          total: number;
        };
        expect(list.total).toBe(34);
        expect(server.logs().some((l) => l.msg.startsWith('demo data loaded: '))).toBe(true);
      } finally {
        await server.dispose();
      }
    },
    180_000,
  );
});
