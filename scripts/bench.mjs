#!/usr/bin/env node
// npm run bench: requests per second of the catalogue (anonymous, signed in, a varied query mix,
// product detail) next to a bare Fastify route, and 100 buyers ordering one variant at once, all
// served from this machine in the same run, with the shop's memory (RSS) after each. The catalogue
// is the demo's topped up to BENCH_PRODUCTS products through the console's API before anything is
// measured (once per data directory or database). Loopback only; every run is bounded in time.
//   BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50), DATABASE_URL (optional: PostgreSQL),
//   BENCH_WARMUP (default 2: seconds of the same load before each run, not measured, so that the
//   figures are the steady state, not the compiler's and the caches' first seconds),
//   BENCH_PRODUCTS (default 500), BENCH_BUYERS (default 100),
//   BENCH_MAILS (default 2000: mails sent through the outbox to a local SMTP sink, after the rest),
//   BENCH_ONLY=<comma list> of the runs below (default: all): bare, list, list-signed-in, mix, detail,
//   product-pages, mall-pages, hot, mail,
//   BENCH_NODE_ARGS (extra Node flags for the shop's process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"),
//   BENCH_ACCEPT_ENCODING (default none: answers as they are; Chromium's is "gzip, deflate, br, zstd")
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import autocannon from 'autocannon';
import { SMTPServer } from 'smtp-server';
import { allSlugs, queryMix } from './catalogue-requests.mjs';
import { cpuMsOf, ROOT, rssOf } from './lib.mjs';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const warmUpSeconds = Number(process.env.BENCH_WARMUP ?? 2);
// The load runs ask for answers as they are, as every figure before 2026-11-28 was measured;
// BENCH_ACCEPT_ENCODING="gzip, deflate, br, zstd" asks as Chromium does (compressed answers).
const acceptEncoding = process.env.BENCH_ACCEPT_ENCODING ?? '';
const catalogueSize = Number(process.env.BENCH_PRODUCTS ?? 500);
const dataDir = path.join(ROOT, '.data', 'bench');

const RUNS = [
  'bare',
  'list',
  'list-signed-in',
  'mix',
  'detail',
  'product-pages',
  'mall-pages',
  'hot',
  'mail',
];
const only = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const unknown = only.filter((name) => !RUNS.includes(name));
if (unknown.length > 0) {
  console.error(`BENCH_ONLY: unknown run ${unknown.join(', ')} (the runs: ${RUNS.join(', ')})`);
  process.exit(2);
}
const wanted = (name) => only.length === 0 || only.includes(name);

function start(args, env, ready) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
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

/**
 * One load run: a URL, or a list of paths taken in turn (each connection cycles through them).
 * With the shop's pid, the run also gives the shop's CPU time per request, measured over the run
 * after its warm-up: a figure a busy machine moves much less than requests per second.
 */
async function load(target, title, options = {}) {
  const { base, paths, pid } = options;
  const headers = { ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}), ...options.headers };
  let next = 0;
  const requests = paths
    ? [{ setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }]
    : undefined;
  const run = (duration) =>
    new Promise((resolve, reject) =>
      autocannon(
        {
          url: target,
          connections,
          duration,
          pipelining: 1,
          headers,
          ...(requests ? { requests } : {}),
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      ),
    );
  if (warmUpSeconds > 0) await run(warmUpSeconds);
  const cpuBefore = pid ? cpuMsOf(pid) : null;
  const result = await run(seconds);
  const cpuAfter = pid ? cpuMsOf(pid) : null;
  const cpuPerRequest =
    cpuBefore === null || cpuAfter === null || result.requests.total === 0
      ? null
      : (cpuAfter - cpuBefore) / result.requests.total;
  return { title, result, rss: pid ? rssOf(pid) : null, base, cpuPerRequest };
}

const BUYERS = Number(process.env.BENCH_BUYERS ?? 100);
const ORDERS_EACH = 3;
const WARM_UP_ORDERS = 20;

/**
 * A POST through Node's own HTTP client on kept-alive connections, answering the status (the body
 * is read and dropped). The buyers' client shares this machine's cores with the shop and the
 * database: `fetch` took about 4 ms of CPU per order (add to cart + place order), this about a
 * quarter of that.
 */
const buyerAgent = new http.Agent({ keepAlive: true, maxSockets: 256 });
function post(url, headers, body) {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent: buyerAgent, headers: { ...headers, 'content-length': payload.length } },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve(res.statusCode));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** A session cookie through the test-only sign-in (NODE_ENV=test). */
async function testSession(base, email, role = 'customer') {
  const res = await fetch(`${base}/api/test/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, role }),
  });
  if (!res.ok) throw new Error(`test sign-in: ${res.status}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/**
 * 100 buyers at once, each putting the same variant in the cart and ordering it (card, so it is
 * held unpaid) three times in a row: orders per second, the place-order latency (the order's own
 * request, and with its add to cart), the shop's CPU time per order, and that the stock went down
 * by exactly the orders placed (never oversold). Twenty orders first warm the path up, unmeasured.
 */
async function hotVariant(base, slug, owner, pid) {
  const json = (cookie) => ({ 'content-type': 'application/json', origin: base, cookie });
  const product = await (await fetch(`${base}/api/catalog/products/${slug}`)).json();
  const variant = product.variants[0];
  // The console's view of the stock, which no response cache holds.
  const stockOf = async () =>
    (
      await (await fetch(`${base}/api/admin/products/${product.id}`, { headers: json(owner) })).json()
    ).variants.find((v) => v.id === variant.id).stock;
  await fetch(`${base}/api/admin/variants/${variant.id}/stock`, {
    method: 'POST',
    headers: json(owner),
    body: JSON.stringify({ delta: BUYERS * ORDERS_EACH + WARM_UP_ORDERS, reason: '壓測補貨' }),
  });
  const order = async (cookie, key) => {
    await post(`${base}/api/cart/items`, json(cookie), { variantId: variant.id, quantity: 1 });
    const o = performance.now();
    const status = await post(`${base}/api/orders`, json(cookie), {
      idempotencyKey: key,
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
    });
    return { status, placeMs: performance.now() - o };
  };
  // Warm up the order path (JIT) with a few buyers of their own, one after the other; not measured.
  for (let i = 0; i < WARM_UP_ORDERS; i++)
    await order(
      await testSession(base, `bench-warm-${Date.now()}-${i}@example.com`),
      `bench-warm-${i}-${Date.now()}-0000`,
    );
  const before = await stockOf();
  const buyers = await Promise.all(
    Array.from({ length: BUYERS }, (_, i) => testSession(base, `bench-buyer-${Date.now()}-${i}@example.com`)),
  );
  const rounds = [];
  const orders = [];
  let placed = 0;
  let refused = 0;
  const cpuBefore = cpuMsOf(pid);
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    buyers.map(async (cookie, i) => {
      for (let n = 0; n < ORDERS_EACH; n++) {
        const t = performance.now();
        const { status, placeMs } = await order(cookie, `bench-${i}-${n}-${Date.now()}-0000`);
        orders.push(placeMs);
        rounds.push(performance.now() - t);
        if (status === 201) placed += 1;
        else refused += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = cpuMsOf(pid);
  const client = process.cpuUsage(clientBefore);
  if (process.env.BENCH_DEBUG)
    console.log(
      `bench client CPU ${((client.user + client.system) / 1000 / seconds / 10).toFixed(0)} % of a core over ${seconds.toFixed(1)} s`,
    );
  const after = await stockOf();
  const at = (list, p) => {
    const sorted = [...list].sort((a, b) => a - b);
    return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]);
  };
  return {
    placed,
    refused,
    perSecond: placed / seconds,
    p50: at(orders, 0.5),
    p99: at(orders, 0.99),
    roundP99: at(rounds, 0.99),
    cpuPerOrder: cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / (placed + refused),
    oversold: after < 0 || before - after !== placed,
    stockTaken: before - after,
  };
}

/** Batch words for the copies' names: the catalogue then has many products per search word, as a real one would. */
const BATCHES = [
  '春茶',
  '冬茶',
  '秋茶',
  '夏茶',
  '特選',
  '典藏',
  '小批',
  '竹山',
  '山頭',
  '新焙',
  '陳年',
  '單株',
  '冷泡用',
  '家庭號',
  '分享包',
];

/**
 * Tops the demo catalogue up to `size` products on sale through the console's API, as the owner
 * would: copies of the demo products with their pictures, words, categories and variants, each
 * with its own name, slug, SKUs, prices (0.5 to 2.3 times) and stock (one in nine sold out).
 * Idempotent: the copies are numbered, so a second run over the same data finds them there.
 */
async function fillCatalogue(base, owner, size) {
  const have = (await (await fetch(`${base}/api/catalog/products?pageSize=1`)).json()).total;
  if (have >= size) return { created: 0, total: have };
  const json = { 'content-type': 'application/json', origin: base, cookie: owner };
  const list = await (
    await fetch(`${base}/api/admin/products?status=active&pageSize=100`, { headers: json })
  ).json();
  const templates = await Promise.all(
    list.items
      .filter((p) => !p.slug.startsWith('bench-'))
      .map(async (p) => (await fetch(`${base}/api/admin/products/${p.id}`, { headers: json })).json()),
  );
  let created = 0;
  let inFlight = 0;
  let n = 0;
  const todo = size - have;
  // A few at a time: each is its own transaction on the server.
  const worker = async () => {
    while (created + inFlight < todo) {
      const i = ++n;
      inFlight += 1;
      const t = templates[i % templates.length];
      const factor = 0.5 + ((i * 37) % 19) / 10;
      const price = (p) => Math.max(10, Math.round((p * factor) / 10) * 10);
      const body = {
        slug: `bench-${i}`,
        name: `${t.name}・${BATCHES[i % BATCHES.length]} ${i}`.slice(0, 60),
        summary: t.summary,
        categorySlug: t.category.slug,
        tags: t.tags,
        specs: t.specs,
        description: t.description,
        images: t.images.map((img) => ({ name: img.name, alt: img.alt })),
        status: 'active',
        variants: t.variants
          .filter((v) => v.active !== false)
          .map((v, k) => ({
            sku: `B${i}-${k}`,
            options: v.options,
            price: price(v.price),
            compareAtPrice:
              v.compareAtPrice !== null && price(v.compareAtPrice) > price(v.price)
                ? price(v.compareAtPrice)
                : null,
            stock: i % 9 === 0 ? 0 : 5 + ((i * 13 + k * 7) % 60),
            lowStockThreshold: v.lowStockThreshold,
          })),
      };
      const res = await fetch(`${base}/api/admin/products`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify(body),
      }).finally(() => {
        inFlight -= 1;
      });
      // 409: that copy is there from an earlier run that stopped half way.
      if (res.status === 201) created += 1;
      else if (res.status !== 409)
        throw new Error(`could not add a bench product: ${res.status} ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return { created, total: (await (await fetch(`${base}/api/catalog/products?pageSize=1`)).json()).total };
}

/** Distinct mall list pages in the run (search words, categories, price floors, sorts, pages). */
const MALL_PAGES = 400;

/** Asks for each page once, four at a time, and checks it came back rendered (not the empty shell). */
async function visitAll(base, paths, cookie) {
  const queue = [...paths];
  const worker = async () => {
    for (let path = queue.shift(); path; path = queue.shift()) {
      const res = await fetch(`${base}${path}`, { headers: { cookie } });
      const html = await res.text();
      if (!res.ok || !html.includes('data-hydrating'))
        throw new Error(`${path} was not rendered (${res.status})`);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}

/** A member's session cookie: a new account signed up through the API, as a shopper would. */
async function memberCookie(base) {
  const email = `bench-${Date.now()}@example.com`;
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({
      email,
      password: 'Bench-Tea-2026!',
      passwordConfirm: 'Bench-Tea-2026!',
      acceptTerms: true,
      displayName: '壓測會員',
    }),
  });
  if (!res.ok) throw new Error(`could not sign up the bench member: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

// NODE_ENV=test only adds the sign-in helper the hot-variant run uses to make its 100 buyers (and
// keeps the periodic jobs quiet); everything measured is the same code.
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const shopArgs = await (await import('./lib.mjs')).compiledServerArgs(nodeArgs);
const shopEnv = {
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  NODE_ENV: 'test',
  SEED_DEMO: '1',
  PUBLIC_URL: 'http://127.0.0.1',
};
const startShop = (env = {}) =>
  start(shopArgs, { ...shopEnv, ...env }, (out) => /running at http:\/\/localhost:(\d+)/.exec(out)?.[1]);
const shop = await startShop();
const bare = await start(
  ['scripts/bare-server.mjs'],
  { PORT: '0' },
  (out) => /listening (\d+)/.exec(out)?.[1],
);

const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite (embedded)';
const runs = [];
let hot;
let catalogue;
try {
  const shopBase = `http://127.0.0.1:${shop.port}`;
  const owner = await testSession(shopBase, 'bench-owner@example.com', 'owner');
  const filled = await fillCatalogue(shopBase, owner, catalogueSize);
  catalogue = filled.total;
  if (filled.created > 0) console.log(`added ${filled.created} products: ${filled.total} on sale`);
  // Warm up (JIT, caches, connection pool).
  await fetch(`${shopBase}/api/catalog/products?pageSize=12`);
  const pid = shop.child.pid;
  const cookie = await memberCookie(shopBase);
  const slugs = await allSlugs(shopBase);
  // Product pages as shoppers open them: most of the catalogue (470 of 500, the least recommended left out), each in turn.
  const products = slugs
    .slice(0, Math.ceil(slugs.length * 0.94))
    .map((slug) => `/api/catalog/products/${slug}`);
  if (wanted('bare')) runs.push(await load(`http://127.0.0.1:${bare.port}/bare`, 'bare Fastify route'));
  if (wanted('list'))
    runs.push(
      await load(`${shopBase}/api/catalog/products?pageSize=12`, 'product list, same URL, anonymous', {
        pid,
      }),
    );
  if (wanted('list-signed-in'))
    runs.push(
      await load(`${shopBase}/api/catalog/products?pageSize=12`, 'product list, same URL, signed in', {
        pid,
        headers: { cookie },
      }),
    );
  const mix = queryMix();
  if (wanted('mix'))
    runs.push(
      await load(shopBase, `catalogue query mix (${mix.length} distinct), signed in`, {
        pid,
        paths: mix,
        headers: { cookie },
      }),
    );
  if (wanted('detail'))
    runs.push(
      await load(shopBase, `product detail (${products.length} products), signed in`, {
        pid,
        paths: products,
        headers: { cookie },
      }),
    );
  // Server-rendered pages, signed in: each shown once before the run (a shop's pages are asked for
  // again and again; the first render of each is not what a campaign's thousandth shopper costs).
  const pages = products.map((p) => p.replace('/api/catalog/products/', '/mall/'));
  if (wanted('product-pages')) {
    await visitAll(shopBase, pages, cookie);
    runs.push(
      await load(shopBase, `product pages, server-rendered (${pages.length} products), signed in`, {
        pid,
        paths: pages,
        headers: { cookie },
      }),
    );
  }
  const mallPages = queryMix('/mall', '').slice(0, MALL_PAGES);
  if (wanted('mall-pages')) {
    await visitAll(shopBase, mallPages, cookie);
    runs.push(
      await load(shopBase, `mall list pages, server-rendered (${mallPages.length} distinct), signed in`, {
        pid,
        paths: mallPages,
        headers: { cookie },
      }),
    );
  }
  if (wanted('hot')) {
    // The demo's best seller (the first of the recommended list), as on a sale day.
    const first = (await (await fetch(`${shopBase}/api/catalog/products?pageSize=1`)).json()).items[0].slug;
    hot = await hotVariant(shopBase, first, owner, pid);
    hot.rss = rssOf(pid);
  }
} finally {
  shop.child.kill('SIGTERM');
  bare.child.kill('SIGTERM');
}

/**
 * Mail through the outbox: the same shop started again with SMTP_URL pointing at an SMTP sink in
 * this process (smtp-server, which accepts and drops), BENCH_MAILS mails enqueued in one
 * transaction (the test-only /api/test/mail-burst), timed from the enqueue until the sink has
 * accepted the last one. 50 mails first, unmeasured, open the pool's connections.
 */
async function mailRun() {
  const MAILS = Number(process.env.BENCH_MAILS ?? 2000);
  const to = 'bench-mail@example.com';
  let accepted = 0;
  const sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        if (session.envelope.rcptTo.some((r) => r.address === to)) accepted += 1;
        callback();
      });
    },
  });
  await new Promise((resolve) => sink.listen(0, '127.0.0.1', resolve));
  if (shop.child.exitCode === null && shop.child.signalCode === null)
    await new Promise((resolve) => shop.child.once('exit', resolve));
  const mailShop = await startShop({ SMTP_URL: `smtp://127.0.0.1:${sink.server.address().port}` });
  const base = `http://127.0.0.1:${mailShop.port}`;
  const burst = async (count) => {
    const goal = accepted + count;
    const res = await fetch(`${base}/api/test/mail-burst`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count, to }),
    });
    if (!res.ok) throw new Error(`mail-burst answered ${res.status}: ${await res.text()}`);
    const deadline = Date.now() + 10 * 60_000;
    while (accepted < goal) {
      if (Date.now() > deadline)
        throw new Error(`only ${accepted - goal + count} of ${count} mails arrived in 10 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  try {
    await burst(50);
    const started = performance.now();
    await burst(MAILS);
    const ms = performance.now() - started;
    return {
      mails: MAILS,
      seconds: ms / 1000,
      perSecond: MAILS / (ms / 1000),
      rss: rssOf(mailShop.child.pid),
    };
  } finally {
    mailShop.child.kill('SIGTERM');
    sink.close();
  }
}
const mail = wanted('mail') ? await mailRun() : undefined;

const lines = [
  `Benchmark ${new Date().toISOString()} — ${catalogue} products on sale, ${connections} connections, ${seconds} s each after ${warmUpSeconds} s of warm-up, database ${engine}, Node ${process.version}, Accept-Encoding: ${acceptEncoding || '(none)'}`,
];
if (runs.length > 0) {
  lines.push(
    '',
    '| work | requests/s (mean) | latency p50 | latency p99 | shop CPU per request | errors | shop RSS after |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...runs.map(
      ({ title, result, rss, cpuPerRequest }) =>
        `| ${title} | ${Math.round(result.requests.average).toLocaleString('en-US')} | ${result.latency.p50} ms | ${result.latency.p99} ms | ${cpuPerRequest === null ? '—' : `${(cpuPerRequest * 1000).toFixed(0)} µs`} | ${result.errors + result.non2xx} | ${rss === null ? '—' : `${rss} MB`} |`,
    ),
  );
}
if (hot !== undefined) {
  lines.push(
    '',
    `| hot variant: ${BUYERS} buyers × ${ORDERS_EACH} orders of one variant | orders/s | place-order p50 | place-order p99 | add to cart + place order p99 | shop CPU per order | refused | oversold | shop RSS after |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| add to cart + place order (card) | ${hot.perSecond.toFixed(0)} (${hot.placed} placed) | ${hot.p50} ms | ${hot.p99} ms | ${hot.roundP99} ms | ${hot.cpuPerOrder === null ? '—' : `${hot.cpuPerOrder.toFixed(1)} ms`} | ${hot.refused} | ${hot.oversold ? `yes (stock took ${hot.stockTaken})` : 'no'} | ${hot.rss ?? '—'} MB |`,
  );
}
if (mail !== undefined) {
  lines.push(
    '',
    '| mail through the outbox to a local SMTP sink (pooled, up to 10 at once) | mails/s | mails | seconds | shop RSS after |',
    '|---|---:|---:|---:|---:|',
    `| enqueued in one transaction, until the last is accepted | ${mail.perSecond.toFixed(0)} | ${mail.mails} | ${mail.seconds.toFixed(1)} | ${mail.rss ?? '—'} MB |`,
  );
}
const report = lines.join('\n');
console.log(`\n${report}\n`);
fs.mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
fs.writeFileSync(path.join(ROOT, 'test-results', 'bench.md'), `${report}\n`);
process.exit(0);
