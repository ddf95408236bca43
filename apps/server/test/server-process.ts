import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabaseUrl, dbEngine } from './helpers.ts';
import { freePort } from './redis-server.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly [key: string]: unknown;
}

export interface ServerProcess {
  readonly port: number;
  readonly url: string;
  readonly child: ChildProcess;
  /** pino's JSON lines so far (stdout is not a terminal, so the log is JSON). */
  logs(): LogLine[];
  /** Resolves with the exit code (or the signal's name) and how long after `since` it came. */
  exited(since?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; afterMs: number }>;
  /** Kills it if still running and removes its data folder. */
  dispose(): Promise<void>;
}

/**
 * Starts the real server from its sources (`node --import tsx apps/server/src/server.ts`; `npm
 * start` runs the same code compiled, see compiled-server.test.ts, which passes `args`), on its own
 * free port and its own temporary DATA_DIR, and waits until it answers.
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: { readyTimeoutMs?: number; args?: readonly string[] } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-proc-'));
  const child = spawn(process.execPath, options.args ?? ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      NODE_ENV: 'development',
      SEED_DEMO: '0',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      WEB_DIST: path.join(os.tmpdir(), 'shop-no-web-build'),
      PUBLIC_URL: `http://localhost:${port}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  const raw: string[] = [];
  let buffered = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const line of parts) {
      raw.push(line);
      if (line.startsWith('{')) {
        try {
          lines.push(JSON.parse(line) as LogLine);
        } catch {
          // Not a log line.
        }
      }
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => raw.push(chunk.toString('utf8')));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`server exited with ${child.exitCode} before answering:\n${raw.join('\n')}`);
    try {
      const res = await fetch(`${url}/api/health`);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer within the time-out:\n${raw.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    port,
    url,
    child,
    logs: () => [...lines],
    async exited(since = Date.now()) {
      const { code, signal, at } = await exit;
      return { code, signal, afterMs: at - since };
    },
    async dispose() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exit;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * What a spawned server needs to reach a fresh database of the current test project: nothing for
 * PGlite (it makes its own under DATA_DIR), or DATABASE_URL of a new copy of the migrated template.
 */
export async function serverDatabaseEnv(): Promise<Record<string, string>> {
  if (dbEngine() === 'pglite') return {};
  return { DATABASE_URL: await createTestDatabaseUrl() };
}
