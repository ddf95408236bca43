import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dbEngine } from './helpers.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

/** Every folder and file under `root` whose permissions are not owner-only, with its mode. */
function notPrivate(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const mode = fs.statSync(full).mode & 0o777;
      const want = entry.isDirectory() ? 0o700 : 0o600;
      if (entry.isFile() || entry.isDirectory()) {
        if (mode !== want) out[path.relative(root, full)] = mode.toString(8);
        if (entry.isDirectory()) walk(full);
      }
    }
  };
  const top = fs.statSync(root).mode & 0o777;
  if (top !== 0o700) out['.'] = top.toString(8);
  walk(root);
  return out;
}

describe.skipIf(dbEngine() !== 'pglite')('the data folder of the embedded database', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-private-'));
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is owner-only: folders 0700 and files 0600, those the database makes and those an older version left open', async () => {
    // What an older version left behind: a world-readable folder and file.
    fs.chmodSync(dataDir, 0o755);
    fs.mkdirSync(path.join(dataDir, 'storage', 'products'), { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(dataDir, 'storage', 'products', 'tea.png'), 'png', { mode: 0o666 });
    fs.chmodSync(path.join(dataDir, 'storage', 'products', 'tea.png'), 0o666);

    server = await startServerProcess({ DATA_DIR: dataDir });
    // The shop writes while it runs (a checkpoint, the token); those files follow the same rule.
    await (await fetch(`${server.url}/api/health`)).arrayBuffer();
    expect(fs.readdirSync(path.join(dataDir, 'pglite')).length).toBeGreaterThan(5);
    expect(notPrivate(dataDir)).toEqual({});
  }, 120_000);
});
