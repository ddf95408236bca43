#!/usr/bin/env node
// npm run bench: requests per second of the catalogue (anonymous, signed in, a varied query mix,
// product detail) next to a bare Fastify route, all served from this machine in the same run, with
// the shop's memory (RSS) after each. Loopback only; every run is bounded in time.
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

/** The shop process's resident memory, in MB (Linux). */
function rssOf(pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return Number.isFinite(kb) ? Math.round(kb / 1024) : null;
  } catch {
    return null;
  }
}

/** One load run: a URL, or a list of paths taken in turn (each connection cycles through them). */
function load(target, title, options = {}) {
  const { base, paths, headers } = options;
  return new Promise((resolve, reject) => {
    let next = 0;
    const requests = paths ? [{ setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }] : undefined;
    autocannon({ url: target, connections, duration: seconds, pipelining: 1, ...(headers ? { headers } : {}), ...(requests ? { requests } : {}) }, (error, result) =>
      error ? reject(error) : resolve({ title, result, rss: options.pid ? rssOf(options.pid) : null, base }),
    );
  });
}

/** Distinct catalogue queries as shoppers make them: search words, categories, price floors, sorts and pages. */
function queryMix() {
  const words = ['烏龍', '台灣', '臺灣', '茶', '高山', '紅茶', '冷泡', '禮盒', '凍頂', '阿里山', '東方美人', '包種', '金萱', '鐵觀音', '焙', '清香', '蜜香', '罐', '袋', '75'];
  const categories = ['', 'tea', 'high-mountain-oolong', 'roasted-oolong', 'black-tea', 'cold-brew'];
  const sorts = ['recommended', 'newest', 'price-asc', 'price-desc'];
  const floors = ['', '300', '600', '1000'];
  const paths = [];
  for (const q of ['', ...words]) for (const category of categories) for (const sort of sorts) for (const minPrice of floors) {
    const params = new URLSearchParams({ sort, page: String((paths.length % 3) + 1), pageSize: '12' });
    if (q) params.set('q', q);
    if (category) params.set('category', category);
    if (minPrice) params.set('minPrice', minPrice);
    paths.push(`/api/catalog/products?${params}`);
    if (paths.length >= 1300) return paths;
  }
  return paths;
}

const BUYERS = Number(process.env.BENCH_BUYERS ?? 100);
const ORDERS_EACH = 3;

/** A session cookie through the test-only sign-in (NODE_ENV=test). */
async function testSession(base, email, role = 'customer') {
  const res = await fetch(`${base}/api/test/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, role }) });
  if (!res.ok) throw new Error(`test sign-in: ${res.status}`);
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

/**
 * 100 buyers at once, each putting the same variant in the cart and ordering it (card, so it is
 * held unpaid) three times in a row: orders per second, the place-order latency, and that the stock
 * went down by exactly the orders placed (never oversold).
 */
async function hotVariant(base, slug) {
  const owner = await testSession(base, `bench-owner-${Date.now()}@example.com`, 'owner');
  const product = await (await fetch(`${base}/api/catalog/products/${slug}`)).json();
  const variant = product.variants[0];
  const json = (cookie) => ({ 'content-type': 'application/json', origin: base, cookie });
  await fetch(`${base}/api/admin/variants/${variant.id}/stock`, { method: 'POST', headers: json(owner), body: JSON.stringify({ delta: BUYERS * ORDERS_EACH, reason: '壓測補貨' }) });
  const stockOf = async () => (await (await fetch(`${base}/api/catalog/products/${slug}`)).json()).variants[0].stock;
  const before = await stockOf();
  const buyers = await Promise.all(Array.from({ length: BUYERS }, (_, i) => testSession(base, `bench-buyer-${Date.now()}-${i}@example.com`)));
  const latencies = [];
  let placed = 0;
  let refused = 0;
  const started = performance.now();
  await Promise.all(
    buyers.map(async (cookie, i) => {
      for (let n = 0; n < ORDERS_EACH; n++) {
        const t = performance.now();
        await fetch(`${base}/api/cart/items`, { method: 'POST', headers: json(cookie), body: JSON.stringify({ variantId: variant.id, quantity: 1 }) });
        const res = await fetch(`${base}/api/orders`, {
          method: 'POST',
          headers: json(cookie),
          body: JSON.stringify({ idempotencyKey: `bench-${i}-${n}-${Date.now()}-0000`, shipping: { method: 'home', recipientName: '壓測買家', phone: '0912345678', city: '南投縣', district: '鹿谷鄉', address: '興產路 87 號' }, invoice: { type: 'member' }, paymentMethod: 'credit_card' }),
        });
        latencies.push(performance.now() - t);
        if (res.status === 201) placed += 1;
        else refused += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const after = await stockOf();
  latencies.sort((a, b) => a - b);
  const at = (p) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]);
  return { placed, refused, perSecond: placed / seconds, p50: at(0.5), p99: at(0.99), oversold: before - after !== placed, stockTaken: before - after };
}

/** A member's session cookie: a new account signed up through the API, as a shopper would. */
async function memberCookie(base) {
  const email = `bench-${Date.now()}@example.com`;
  const res = await fetch(`${base}/api/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base }, body: JSON.stringify({ email, password: 'Bench-Tea-2026!', passwordConfirm: 'Bench-Tea-2026!', acceptTerms: true, displayName: '壓測會員' }) });
  if (!res.ok) throw new Error(`could not sign up the bench member: ${res.status} ${await res.text()}`);
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

// NODE_ENV=test only adds the sign-in helper the hot-variant run uses to make its 100 buyers (and
// keeps the periodic jobs quiet); everything measured is the same code.
const shop = await start(['--import', 'tsx', 'apps/server/src/server.ts'], { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'test', SEED_DEMO: '1', PUBLIC_URL: 'http://127.0.0.1' }, (out) => /running at http:\/\/localhost:(\d+)/.exec(out)?.[1]);
const bare = await start(['scripts/bare-server.mjs'], { PORT: '0' }, (out) => /listening (\d+)/.exec(out)?.[1]);

const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite (embedded)';
const runs = [];
let hot;
try {
  const shopBase = `http://127.0.0.1:${shop.port}`;
  // Warm up (JIT, caches, connection pool).
  await fetch(`${shopBase}/api/catalog/products?pageSize=12`);
  const pid = shop.child.pid;
  const cookie = await memberCookie(shopBase);
  const products = (await (await fetch(`${shopBase}/api/catalog/products?pageSize=48`)).json()).items.map((p) => `/api/catalog/products/${p.slug}`);
  runs.push(await load(`http://127.0.0.1:${bare.port}/bare`, 'bare Fastify route'));
  runs.push(await load(`${shopBase}/api/catalog/products?pageSize=12`, 'product list, same URL, anonymous', { pid }));
  runs.push(await load(`${shopBase}/api/catalog/products?pageSize=12`, 'product list, same URL, signed in', { pid, headers: { cookie } }));
  const mix = queryMix();
  runs.push(await load(shopBase, `catalogue query mix (${mix.length} distinct), signed in`, { pid, paths: mix, headers: { cookie } }));
  runs.push(await load(shopBase, `product detail (${products.length} products), signed in`, { pid, paths: products, headers: { cookie } }));
  hot = await hotVariant(shopBase, products[0].split('/').pop());
  hot.rss = rssOf(pid);
} finally {
  shop.child.kill('SIGTERM');
  bare.child.kill('SIGTERM');
}

const lines = [
  `Benchmark ${new Date().toISOString()} — ${connections} connections, ${seconds} s each, database ${engine}, Node ${process.version}`,
  '',
  '| work | requests/s (mean) | latency p50 | latency p99 | errors | shop RSS after |',
  '|---|---:|---:|---:|---:|---:|',
  ...runs.map(({ title, result, rss }) => `| ${title} | ${Math.round(result.requests.average).toLocaleString('en-US')} | ${result.latency.p50} ms | ${result.latency.p99} ms | ${result.errors + result.non2xx} | ${rss === null ? '—' : `${rss} MB`} |`),
];
if (hot !== undefined) {
  lines.push(
    '',
    `| hot variant: ${BUYERS} buyers × ${ORDERS_EACH} orders of one variant | orders/s | place-order p50 | place-order p99 | refused | oversold | shop RSS after |`,
    '|---|---:|---:|---:|---:|---:|---:|',
    `| add to cart + place order (card) | ${hot.perSecond.toFixed(0)} (${hot.placed} placed) | ${hot.p50} ms | ${hot.p99} ms | ${hot.refused} | ${hot.oversold ? `yes (stock took ${hot.stockTaken})` : 'no'} | ${hot.rss ?? '—'} MB |`,
  );
}
const report = lines.join('\n');
console.log(`\n${report}\n`);
fs.mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
fs.writeFileSync(path.join(ROOT, 'test-results', 'bench.md'), `${report}\n`);
process.exit(0);
