// Small helpers shared by the npm scripts (plain Node, no dependencies, no TypeScript).
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_DIST = path.join(ROOT, 'apps/web/dist');
export const STAMP_FILE = path.join(WEB_DIST, '.source-stamp');

const WEB_INPUTS = ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/package.json', 'packages/shared/src', 'package-lock.json'];

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
  return fs.existsSync(path.join(WEB_DIST, 'index.html')) && fs.existsSync(STAMP_FILE) && fs.readFileSync(STAMP_FILE, 'utf8').trim() === stamp;
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
