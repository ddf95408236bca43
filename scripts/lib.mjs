// Small helpers shared by the npm scripts (plain Node, no dependencies, no TypeScript).
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_DIST = path.join(ROOT, 'apps/web/dist');
export const STAMP_FILE = path.join(WEB_DIST, '.source-stamp');

const WEB_INPUTS = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'packages/shared/src',
  'package-lock.json',
];

function* walk(p) {
  const stat = fs.statSync(p, { throwIfNoEntry: false });
  if (!stat) return;
  if (stat.isFile()) {
    yield p;
    return;
  }
  for (const entry of fs.readdirSync(p).sort()) {
    if (entry === 'node_modules' || entry.endsWith('.test.ts') || entry.endsWith('.test.tsx')) continue;
    yield* walk(path.join(p, entry));
  }
}

/** A hash of everything the web build depends on: same sources, same stamp, same build id. */
export function webSourceStamp() {
  const hash = createHash('sha256');
  for (const input of WEB_INPUTS) {
    for (const file of walk(path.join(ROOT, input))) {
      hash.update(path.relative(ROOT, file));
      hash.update(fs.readFileSync(file));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

export function webBuildIsCurrent(stamp = webSourceStamp()) {
  return (
    fs.existsSync(path.join(WEB_DIST, 'index.html')) &&
    fs.existsSync(STAMP_FILE) &&
    fs.readFileSync(STAMP_FILE, 'utf8').trim() === stamp
  );
}

/** Builds the web app with a build id derived from its sources, then records the stamp. */
export async function buildWeb(stamp = webSourceStamp()) {
  const options = { cwd: path.join(ROOT, 'apps/web'), env: { ...process.env, BUILD_ID: stamp } };
  let code = await run('npx', ['vite', 'build', '--logLevel', 'warn'], options);
  if (code !== 0) return code;
  // The server renderer (docs/decisions/024), into dist/ssr.
  code = await run('npx', ['vite', 'build', '--ssr', 'src/entry-server.tsx', '--logLevel', 'warn'], options);
  if (code !== 0) return code;
  fs.writeFileSync(STAMP_FILE, `${stamp}\n`);
  return 0;
}

/** Runs a command with inherited output; resolves its exit code. */
export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', cwd: ROOT, ...options });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', () => resolve(127));
  });
}

// ── the server's production build (esbuild; docs/decisions/023-compiled-server-and-memory.md) ─────

export const SERVER_DIST = path.join(ROOT, 'apps/server/dist');
export const SERVER_STAMP_FILE = path.join(SERVER_DIST, '.source-stamp');
/** The compiled server; every other entry point sits beside it (cli-prepare-database.js, cli-backup.js, …). */
export const SERVER_ENTRY = path.join(SERVER_DIST, 'server.js');

/**
 * How Node runs the compiled server, in one place for `npm start` (and so production), the bench
 * and the soak. Figures and why: docs/decisions/023-compiled-server-and-memory.md.
 * - stack traces name the .ts files and lines (the build's source maps);
 * - a young generation of 4 MB semi-spaces instead of 16 MB: the shop's requests leave little that
 *   lives, so scavenges stay cheap, and 24 MB less is resident;
 * - the old generation may grow by 30 % over what the last full collection kept, instead of up to 4
 *   times: under load V8 otherwise lets garbage pile up to 250 MB over a live heap of 60–90 MB.
 *   It is no ceiling: a heap that really holds more grows as needed, so nothing runs out of memory;
 * - WebAssembly (only the embedded database runs any) compiled once, by the optimising compiler,
 *   instead of twice (baseline first, then optimised): 25–35 MB less, about a second more at start.
 */
export const SERVER_NODE_FLAGS = [
  '--enable-source-maps',
  '--max-semi-space-size=4',
  '--heap-growing-percent=30',
  '--no-liftoff',
];

/** Node's arguments for the compiled server: its flags, any `extra` ones (they win), the entry. */
export function serverArgs(extra = []) {
  return [...SERVER_NODE_FLAGS, ...extra, SERVER_ENTRY];
}

/** `serverArgs`, after building the server when its sources changed (the bench and the soak use this). */
export async function compiledServerArgs(extra = []) {
  if ((await ensureServerBuild()) !== 0) throw new Error('the server build failed');
  return serverArgs(extra);
}

const SERVER_INPUTS = [
  'apps/server/src',
  'apps/server/package.json',
  'packages/shared/src',
  'packages/shared/package.json',
  'package-lock.json',
  'scripts/lib.mjs',
];
const SERVER_ENTRIES = {
  server: 'apps/server/src/server.ts',
  'cli-prepare-database': 'apps/server/src/cli/prepare-database.ts',
  'cli-seed': 'apps/server/src/cli/seed.ts',
  'cli-admin-create': 'apps/server/src/cli/admin-create.ts',
  'cli-backup': 'apps/server/src/cli/backup.ts',
  'cli-restore': 'apps/server/src/cli/restore.ts',
  'cli-order-advance': 'apps/server/src/cli/order-advance.ts',
  'cli-outbox-release': 'apps/server/src/cli/outbox-release.ts',
};

/** A hash of everything the server build depends on (its sources, the shared package, the lockfile, this file). */
export function serverSourceStamp() {
  const hash = createHash('sha256');
  for (const input of SERVER_INPUTS) {
    for (const file of walk(path.join(ROOT, input))) {
      hash.update(path.relative(ROOT, file));
      hash.update(fs.readFileSync(file));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

export function serverBuildIsCurrent(stamp = serverSourceStamp()) {
  return (
    fs.existsSync(SERVER_ENTRY) &&
    fs.existsSync(SERVER_STAMP_FILE) &&
    fs.readFileSync(SERVER_STAMP_FILE, 'utf8').trim() === stamp
  );
}

/**
 * Compiles apps/server/src (with packages/shared) into `outdir`, one flat folder: ESM for Node,
 * every npm package left to node_modules, source maps without the sources (stack traces name the
 * .ts files and lines), and the SQL migrations copied beside the bundle, where db/migrate.ts looks
 * for them (`migrations/` next to the running file). Resolves the number of problems (0: built).
 */
export async function compileServer(outdir) {
  const { build } = await import('esbuild');
  const shopPackages = /^@shop\//;
  try {
    await build({
      absWorkingDir: ROOT,
      entryPoints: SERVER_ENTRIES,
      outdir,
      bundle: true,
      splitting: true,
      chunkNames: 'chunk-[hash]',
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: 'linked',
      sourcesContent: false,
      logLevel: 'warning',
      plugins: [
        {
          // node_modules stay where they are (native addons, WASM, worker files found from their own
          // folders); only the workspace's own TypeScript packages are compiled in.
          name: 'external-packages',
          setup(b) {
            b.onResolve({ filter: /^[^./]/ }, (args) =>
              shopPackages.test(args.path) ? undefined : { path: args.path, external: true },
            );
          },
        },
      ],
    });
  } catch (error) {
    // esbuild has already printed the problems.
    return error?.errors?.length || 1;
  }
  fs.cpSync(path.join(ROOT, 'apps/server/src/db/migrations'), path.join(outdir, 'migrations'), {
    recursive: true,
  });
  return 0;
}

/**
 * Builds the server into apps/server/dist and records the stamp. It compiles into a scratch folder
 * beside it (`apps/server/.build-<random>`: the same depth, so the source maps' relative paths still
 * hold once it is renamed) and swaps it in, so a server starting meanwhile never reads half a build,
 * and two builds at once (two shells, a test) each leave a whole one.
 */
export async function buildServer(stamp = serverSourceStamp()) {
  const fresh = fs.mkdtempSync(path.join(path.dirname(SERVER_DIST), '.build-'));
  const olds = [];
  try {
    const problems = await compileServer(fresh);
    if (problems !== 0) return 1;
    fs.writeFileSync(path.join(fresh, '.source-stamp'), `${stamp}\n`);
    fs.chmodSync(fresh, 0o755);
    // Another build may swap its own in between these two renames: then move that one aside too.
    for (let attempt = 1; ; attempt++) {
      const old = `${fresh}-old-${attempt}`;
      try {
        fs.renameSync(SERVER_DIST, old);
        olds.push(old);
      } catch (error) {
        if (error.code !== 'ENOENT') throw error;
      }
      try {
        fs.renameSync(fresh, SERVER_DIST);
        return 0;
      } catch (error) {
        if (attempt >= 5 || (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST')) throw error;
      }
    }
  } finally {
    for (const dir of [fresh, ...olds]) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Builds the server unless apps/server/dist already holds a build of the current sources. Says
 * nothing then, and otherwise on stderr by default (a command's stdout stays its own).
 */
export async function ensureServerBuild({ log = (line) => console.error(line) } = {}) {
  const stamp = serverSourceStamp();
  if (serverBuildIsCurrent(stamp)) return 0;
  log('Building the server…');
  const started = Date.now();
  const code = await buildServer(stamp);
  if (code === 0)
    log(`Server built into apps/server/dist in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return code;
}

/** A process's resident memory, in MB (Linux; null when it cannot be read). The bench and the soak sample the shop with it. */
export function rssOf(pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return Number.isFinite(kb) ? Math.round(kb / 1024) : null;
  } catch {
    return null;
  }
}

/** The CPU time a process has used so far, user and system, in ms (Linux; clock ticks of 10 ms). */
export function cpuMsOf(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}
