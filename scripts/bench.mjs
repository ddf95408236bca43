#!/usr/bin/env node
// npm run bench: requests per second of the product list next to a bare Fastify route, both
// served from this machine in the same run. Loopback only; every run is bounded in time.
//   BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50), DATABASE_URL (optional: PostgreSQL)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { ROOT } from './lib.mjs';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const dataDir = path.join(ROOT, '.data', 'bench');

function start(args, env, ready) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out.slice(-500)}`)), 120_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const port = ready(out);
      if (port) {
        clearTimeout(timer);
        resolve({ child, port });
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out.slice(-500)}`)));
  });
}

function load(url, title) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, pipelining: 1 }, (error, result) => (error ? reject(error) : resolve({ title, result })));
  });
}

const shop = await start(['--import', 'tsx', 'apps/server/src/server.ts'], { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'development', SEED_DEMO: '1' }, (out) => /running at http:\/\/localhost:(\d+)/.exec(out)?.[1]);
const bare = await start(['scripts/bare-server.mjs'], { PORT: '0' }, (out) => /listening (\d+)/.exec(out)?.[1]);

const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite (embedded)';
const runs = [];
try {
  const shopBase = `http://127.0.0.1:${shop.port}`;
  // Warm up (JIT, caches, connection pool).
  await fetch(`${shopBase}/api/catalog/products?pageSize=12`);
  runs.push(await load(`http://127.0.0.1:${bare.port}/bare`, 'bare Fastify route'));
  runs.push(await load(`${shopBase}/api/catalog/products?pageSize=12`, 'product list (page 1, 12 items)'));
  runs.push(await load(`${shopBase}/api/catalog/products?category=tea&sort=price-asc&inStock=1&pageSize=12`, 'product list, filtered and sorted'));
  runs.push(await load(`${shopBase}/api/catalog/products/dongding-oolong`, 'product detail'));
} finally {
  shop.child.kill('SIGTERM');
  bare.child.kill('SIGTERM');
}

const lines = [
  `Benchmark ${new Date().toISOString()} — ${connections} connections, ${seconds} s each, database ${engine}, Node ${process.version}`,
  '',
  '| endpoint | requests/s (mean) | latency p50 | latency p99 | errors |',
  '|---|---:|---:|---:|---:|',
  ...runs.map(({ title, result }) => `| ${title} | ${Math.round(result.requests.average).toLocaleString('en-US')} | ${result.latency.p50} ms | ${result.latency.p99} ms | ${result.errors + result.non2xx} |`),
];
const report = lines.join('\n');
console.log(`\n${report}\n`);
fs.mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
fs.writeFileSync(path.join(ROOT, 'test-results', 'bench.md'), `${report}\n`);
process.exit(0);
