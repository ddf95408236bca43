#!/usr/bin/env node
// npm run soak: the compiled server (as `npm start` and production run it) under steady load for
// 10 minutes, its resident memory (RSS) sampled every 10 s, and whether it stays flat.
//   SOAK_SECONDS (default 600), SOAK_SAMPLE_SECONDS (default 10), SOAK_CONNECTIONS (default 40),
//   DATABASE_URL (optional: PostgreSQL; else the embedded database under .data/soak),
//   SOAK_NODE_ARGS (extra Node flags after the server's own, e.g. "--max-semi-space-size=2", to try one)
// The load, on loopback, never stopping: half the connections anonymous and half signed in, each
// cycling through 1,300 distinct catalogue queries, every product's data and the pages (public
// ones, and the mall's for members); beside them a trickle of writes every 2 s (a sign-in, so
// sessions keep being made, and an order placed and cancelled). Prints the samples and a verdict
// and writes test-results/soak.md.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { allSlugs, queryMix } from './catalogue-requests.mjs';
import { compiledServerArgs, cpuMsOf, ROOT, rssOf, SERVER_NODE_FLAGS } from './lib.mjs';

const seconds = Number(process.env.SOAK_SECONDS ?? 600);
const every = Number(process.env.SOAK_SAMPLE_SECONDS ?? 10);
const connections = Number(process.env.SOAK_CONNECTIONS ?? 40);
const extraArgs = (process.env.SOAK_NODE_ARGS ?? '').split(' ').filter(Boolean);
const dataDir = path.join(ROOT, '.data', 'soak');
const MEMBER = { email: 'demo@shanlan-tea.example', password: '山嵐茶事-demo-2026' };

async function startShop() {
  const args = await compiledServerArgs(extraArgs);
  // Development, as `npm start` runs it (the periodic jobs and the outbox run), with demo data.
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SEED_DEMO: '1',
  };
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the shop did not start: ${out.slice(-500)}`)), 180_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const port = /running at http:\/\/localhost:(\d+)/.exec(out)?.[1];
      if (port) {
        clearTimeout(timer);
        // Keep draining its output (warnings), or a full pipe would stall the server.
        child.stdout.removeAllListeners('data');
        child.stdout.on('data', (c) => process.stdout.write(c));
        resolve({ child, base: `http://127.0.0.1:${port}` });
      }
    });
    child.on('exit', (code) => reject(new Error(`the shop exited with ${code}: ${out.slice(-500)}`)));
  });
}

async function signIn(base) {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify(MEMBER),
  });
  if (!res.ok) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** Interleaves lists: a query, a product, a query, a page shell… */
function interleave(...lists) {
  const out = [];
  const longest = Math.max(...lists.map((l) => l.length));
  for (let i = 0; i < longest; i++) for (const list of lists) out.push(list[i % list.length]);
  return out;
}

function loadFor(base, paths, options) {
  let next = 0;
  const instance = autocannon({
    url: base,
    connections: options.connections,
    duration: seconds,
    pipelining: 1,
    ...(options.headers ? { headers: options.headers } : {}),
    requests: [{ setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }],
  });
  return new Promise((resolve, reject) => {
    instance.on('done', resolve);
    instance.on('error', reject);
  });
}

/** Cancels the member's unpaid card orders (left by an earlier run), so new ones are not refused. */
async function cancelOpenOrders(base, cookie) {
  const headers = { origin: base, cookie };
  const list = await (await fetch(`${base}/api/orders?status=pending_payment`, { headers })).json();
  for (const order of list.items ?? [])
    if (order.paymentMethod === 'credit_card')
      await (
        await fetch(`${base}/api/orders/${order.orderNo}/cancel`, { method: 'POST', headers })
      ).arrayBuffer();
}

/**
 * Every 2 s until `until`: a sign-in (a new session), and with it a product in the cart and an
 * order by card, cancelled at once (the stock comes back; a member may hold only three unpaid).
 */
async function writes(base, slugs, until) {
  const counts = { signIns: 0, orders: 0, refused: 0 };
  let n = 0;
  while (Date.now() < until) {
    n += 1;
    try {
      const cookie = await signIn(base);
      counts.signIns += 1;
      const headers = { 'content-type': 'application/json', origin: base, cookie };
      const product = await (await fetch(`${base}/api/catalog/products/${slugs[n % slugs.length]}`)).json();
      const variant = product.variants?.find((v) => v.stock > 0);
      if (variant) {
        await (
          await fetch(`${base}/api/cart/items`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ variantId: variant.id, quantity: 1 }),
          })
        ).arrayBuffer();
        const res = await fetch(`${base}/api/orders`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            idempotencyKey: `soak-${Date.now()}-${n}-00000000`,
            shipping: {
              method: 'home',
              recipientName: '壓測買家',
              phone: '0912345678',
              city: '南投縣',
              district: '鹿谷鄉',
              address: '興產路 87 號',
            },
            invoice: { type: 'member' },
            paymentMethod: 'credit_card',
          }),
        });
        const body = await res.json();
        if (res.status === 201) {
          counts.orders += 1;
          await (
            await fetch(`${base}/api/orders/${body.order.orderNo}/cancel`, {
              method: 'POST',
              headers: { origin: base, cookie },
            })
          ).arrayBuffer();
        } else counts.refused += 1;
      }
    } catch {
      counts.refused += 1;
    }
    await new Promise((r) => setTimeout(r, 2_000));
  }
  return counts;
}

/** Least-squares slope of y over x. */
function slope(points) {
  const n = points.length;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  const num = points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0);
  const den = points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

const shop = await startShop();
const pid = shop.child.pid;
const samples = [];
let result;
try {
  const base = shop.base;
  const idle = rssOf(pid);
  const cookie = await signIn(base);
  await cancelOpenOrders(base, cookie);
  const slugs = await allSlugs(base, 'newest');
  const queries = queryMix();
  const products = slugs.map((s) => `/api/catalog/products/${s}`);
  const publicPages = ['/', '/home', '/faq', '/shipping', '/shippingFee', '/master', '/contact'];
  const memberPages = [...publicPages, '/mall', ...slugs.slice(0, 20).map((s) => `/mall/${s}`)];
  console.log(
    `Soak: ${seconds} s, ${connections} connections, RSS every ${every} s; the shop (pid ${pid}) idles at ${idle} MB.`,
  );
  const started = Date.now();
  const cpuBefore = cpuMsOf(pid);
  const sampler = setInterval(() => {
    const sample = { t: Math.round((Date.now() - started) / 1000), rss: rssOf(pid) };
    samples.push(sample);
    console.log(`  ${String(sample.t).padStart(4)} s  ${sample.rss} MB`);
  }, every * 1000);
  const [anonymous, signedIn, written] = await Promise.all([
    loadFor(base, interleave(queries, products, publicPages), { connections: Math.ceil(connections / 2) }),
    loadFor(base, interleave(queries, products, memberPages), {
      connections: Math.floor(connections / 2),
      headers: { cookie },
    }),
    writes(base, slugs, started + seconds * 1000),
  ]);
  clearInterval(sampler);
  result = { idle, anonymous, signedIn, written, cpuMs: cpuMsOf(pid) - cpuBefore };
} finally {
  shop.child.kill('SIGTERM');
}

const rss = samples.map((s) => s.rss);
const half = samples.slice(Math.floor(samples.length / 2));
const perMinute = slope(half.map((s) => ({ x: s.t / 60, y: s.rss })));
const overall = slope(samples.map((s) => ({ x: s.t / 60, y: s.rss })));
const requests = result.anonymous.requests.total + result.signedIn.requests.total;
const errors =
  result.anonymous.errors + result.anonymous.non2xx + result.signedIn.errors + result.signedIn.non2xx;
const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite (embedded)';
const flags = [...SERVER_NODE_FLAGS, ...extraArgs].join(' ');
// Flat: over the second half (after the caches and the heap have filled) RSS climbs less than
// 0.5 MB a minute, and never goes 10 MB above the highest sample of the first half.
const firstHalfMax = Math.max(...samples.slice(0, Math.floor(samples.length / 2)).map((s) => s.rss));
const flat = perMinute < 0.5 && Math.max(...half.map((s) => s.rss)) <= firstHalfMax + 10;
const lines = [
  `Soak ${new Date().toISOString()} — ${seconds} s, ${connections} connections, database ${engine}, Node ${process.version}, flags \`${flags}\``,
  '',
  `- requests: ${requests.toLocaleString('en-US')} (${Math.round(requests / seconds).toLocaleString('en-US')}/s), non-2xx or errors: ${errors}; writes: ${result.written.signIns} sign-ins, ${result.written.orders} orders (${result.written.refused} refused)`,
  // CPU per request hardly depends on what else the machine runs, unlike requests per second.
  `- the shop's CPU: ${(result.cpuMs / 1000).toFixed(0)} s, ${((result.cpuMs / requests) * 1000).toFixed(0)} ms per 1,000 requests`,
  `- RSS: idle ${result.idle} MB before the load; under load min ${Math.min(...rss)} MB, max ${Math.max(...rss)} MB, last ${rss.at(-1)} MB`,
  `- trend: ${overall.toFixed(2)} MB/min over the run, ${perMinute.toFixed(2)} MB/min over the second half: ${flat ? 'flat' : 'GROWING'}`,
  '',
  `samples (s: MB): ${samples.map((s) => `${s.t}: ${s.rss}`).join(', ')}`,
];
const report = lines.join('\n');
console.log(`\n${report}\n`);
fs.mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
fs.writeFileSync(path.join(ROOT, 'test-results', 'soak.md'), `${report}\n`);
process.exit(flat ? 0 : 1);
