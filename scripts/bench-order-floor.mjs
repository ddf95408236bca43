#!/usr/bin/env node
// npm run bench:floor: how many orders per second this machine's PostgreSQL can take when nothing
// but the database does the work. The statements one order of the hot-variant bench sends (add to
// cart, the checkout's transaction, the order mail's delivery through the outbox), replayed with
// no HTTP, no ORM and no application code: through node-postgres (10 connections, as the shop's
// pool, 100 buyers), and through pgbench (PostgreSQL's own C client) when it is on the PATH. The
// rate the shop could at best reach on this machine, for docs/decisions/028.
//
// The statements are copies of what `npm run bench` logged with log_statement = all on
// 2026-11-27 (constants in place of the parameters that do not change between orders); they do
// not follow later changes to the order path by themselves.
//
//   DATABASE_URL (required): a database `npm run bench` has filled (its 500 products).
//   BENCH_SECONDS (default 10), BENCH_ROUNDS (default 3).
// Each round's two runs get a hundred new buyers each (floor-buyer-…@example.com, no orders yet,
// as the bench's are); the orders it places are cancelled after each run (their idempotency keys
// start with `floor-`), and its helper table is dropped at the end. Use a bench database only.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error(
    'DATABASE_URL is required: a database `npm run bench` has filled (run it first with DATABASE_URL set).',
  );
  process.exit(2);
}
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const BUYERS = 100;
const POOL = 10;

const admin = new pg.Client({ connectionString: url });
await admin.connect();
const hot = (
  await admin.query(`select v.id, v.sku, v.price, p.id as product_id, p.slug, p.name from product_variants v join products p on p.id = v.product_id
    where p.status = 'active' and not v.archived order by p.sort_weight desc, p.created_at, v.sort_order limit 1`)
).rows[0];
if (!hot) {
  console.error(
    'This database has no bench catalogue: run `npm run bench` with the same DATABASE_URL first.',
  );
  process.exit(2);
}
await admin.query('create table if not exists bench_floor_buyers (n int primary key, id uuid not null)');
/** A hundred new buyers (verified, no orders yet) for a run, as the bench's hot variant has; pgbench finds them in bench_floor_buyers. */
async function newBuyers(round) {
  const stamp = `${Date.now()}-${round}`;
  const { rows } = await admin.query(
    `insert into users (email, display_name, email_verified_at) select 'floor-buyer-' || $1 || '-' || n || '@example.com', '壓測買家', now() from generate_series(1, ${BUYERS}) n returning id`,
    [stamp],
  );
  await admin.query('truncate bench_floor_buyers');
  await admin.query(
    'insert into bench_floor_buyers select row_number() over (), id from unnest($1::uuid[]) as id',
    [rows.map((r) => r.id)],
  );
  return rows;
}
await admin.query('update product_variants set stock = greatest(stock, 1000000) where id = $1', [hot.id]);

const q = (s) => `'${String(s).replaceAll("'", "''")}'`;
const cartRows = `select "cart_items"."variant_id", "cart_items"."quantity", "cart_items"."added_price", "cart_items"."created_at", "product_variants"."price", "product_variants"."compare_at_price", "product_variants"."stock", "product_variants"."sku", "product_variants"."options", "product_variants"."archived", "products"."id", "products"."slug", "products"."name", "products"."status", "products"."images", "categories"."name" from "cart_items" inner join "product_variants" on "product_variants"."id" = "cart_items"."variant_id" inner join "products" on "products"."id" = "product_variants"."product_id" inner join "categories" on "categories"."id" = "products"."category_id" where "cart_items"."user_id" = :uid order by "cart_items"."created_at", "cart_items"."variant_id"`;
const mailHtml = `repeat('<p>訂單已成立，感謝您的訂購。</p>', 100)`;
/** One order, in the order the shop sends it; `:name` is a value an earlier statement gave (`gset`). */
const ORDER = [
  { sql: 'select id as uid from bench_floor_buyers where n = :u', gset: true, setup: true },
  // POST /api/cart/items
  {
    sql: `insert into cart_items (user_id, variant_id, quantity, added_price) select :uid::uuid, v.id, 1, v.price from product_variants v join products p on p.id = v.product_id where v.id = ${q(hot.id)}::uuid and not v.archived and p.status = 'active' and 1 <= least(v.stock, 99) on conflict (user_id, variant_id) do update set quantity = cart_items.quantity + excluded.quantity, updated_at = now() where cart_items.quantity + excluded.quantity <= (select least(v.stock, 99) from product_variants v where v.id = excluded.variant_id) returning quantity`,
  },
  { sql: cartRows },
  // POST /api/orders: the transaction
  { sql: 'begin', tx: true },
  {
    sql: 'select "email", "display_name", "email_verified_at" from "users" where "users"."id" = :uid limit 1 for update',
  },
  {
    sql: `select count(*) filter (where "payment_method" <> 'cod' and "orders"."status" in ('pending_payment', 'payment_failed') and ("expires_at" is null or "expires_at" > now()))::int, count(*) filter (where "payment_method" = 'cod' and "orders"."status" = 'processing')::int, (array_agg("id") filter (where "idempotency_key" = 'floor-x'))[1] from "orders" where "orders"."user_id" = :uid and ("orders"."status" in ('pending_payment', 'payment_failed', 'processing') or "orders"."idempotency_key" = 'floor-x')`,
  },
  { sql: cartRows },
  {
    sql: 'select "code", "name", "threshold", "discount_percent", "free_shipping_over", "sort_order", "created_at", "updated_at", (select "tier_code" from "users" where "id" = :uid) from "membership_tiers" order by "membership_tiers"."threshold" asc, "membership_tiers"."sort_order" asc',
  },
  {
    sql: `select "value", "updated_at" from "site_settings" where "site_settings"."key" = 'shipping' limit 1`,
  },
  {
    sql: `with o as (insert into "orders" ("id", "order_no", "user_id", "status", "payment_method", "shipping", "invoice", "subtotal", "discount_total", "discounts", "shipping_fee", "total", "note", "idempotency_key", "expires_at", "created_at", "updated_at") values (gen_random_uuid(), (select 'TW20261127' || case when length(n) < 6 then lpad(n, 6, '0') else n end from (select nextval('order_number_seq')::text as n) drawn), :uid, 'pending_payment', 'credit_card', '{"city": "南投縣", "phone": "0912345678", "method": "home", "address": "興產路 87 號", "district": "鹿谷鄉", "postalCode": "558", "recipientName": "壓測買家"}', '{"type": "member"}', ${hot.price}, 0, '[]', 120, ${hot.price + 120}, '', 'floor-' || gen_random_uuid(), now() + interval '30 minutes', now(), now()) returning *), e as (insert into "order_events" ("order_id", "kind", "status", "note", "created_at") select o.id, 'status', 'pending_payment', '訂單成立，等待付款', now() from o returning *), p as (insert into "payments" ("order_id", "merchant_trade_no", "method", "amount", "created_at", "updated_at") select o.id, o.order_no || 'P1', 'credit_card', o.total, now(), now() from o returning *) select (select id from o) as oid, (select order_no from o) as ono, (select row_to_json(o) from o) as "order", (select row_to_json(e) from e) as event, (select row_to_json(p) from p) as payment`,
    gset: true,
  },
  {
    sql: `delete from "cart_items" where "cart_items"."user_id" = :uid and "cart_items"."variant_id" in (${q(hot.id)})`,
  },
  {
    sql: `insert into "outbox_messages" ("kind", "key", "payload", "summary") values ('mail', 'mail:' || gen_random_uuid(), jsonb_build_object('to', 'floor@example.com', 'html', ${mailHtml}, 'text', repeat('訂單已成立', 60)), 'floor') on conflict ("key") do nothing`,
  },
  {
    sql: `with moved as (update product_variants set stock = stock - 1, updated_at = now() where id = ${q(hot.id)} and stock - 1 >= 0 and not archived returning id, stock, sku, product_id), entered as (insert into stock_ledger (variant_id, delta, stock_after, kind, reason, order_no, actor_id) select id, -1, stock, 'sale', '訂單售出', :ono, null from moved returning id), alongside as (insert into "order_items" ("order_id", "product_id", "variant_id", "product_slug", "product_name", "variant_label", "sku", "image", "unit_price", "quantity", "line_total") values (:oid, ${q(hot.product_id)}, ${q(hot.id)}, ${q(hot.slug)}, ${q(hot.name)}, '75 g', ${q(hot.sku)}, null, ${hot.price}, 1, ${hot.price}) returning *) select moved.stock, entered.id::text as entry_id, (select json_agg(row_to_json(a)) from alongside a) as alongside from moved, entered`,
  },
  { sql: 'commit', tx: true },
  // After the commit: the order mail through the outbox (claim, the stand-in mailer's row, sent).
  {
    sql: `update outbox_messages set lease_until = now() + interval '2 minutes', attempts = attempts + 1 where id in (select id from outbox_messages where status = 'pending' and next_attempt_at <= now() and (lease_until is null or lease_until < now()) and kind = 'mail' order by next_attempt_at, id limit 1 for update skip locked) returning id as mid, attempts as matt`,
    gset: true,
  },
  {
    sql: `insert into "mail_outbox" ("to_address", "subject", "html", "text", "meta") values ('floor@example.com', '【山嵐茶事】訂單已成立', ${mailHtml}, repeat('訂單已成立', 60), '{"kind": "order-placed"}')`,
  },
  {
    sql: `update outbox_messages set status = 'sent', sent_at = now(), lease_until = null, last_error = null where id = :mid and attempts = :matt`,
  },
];
const statementsPerOrder = ORDER.filter((s) => !s.setup).length;

const tidy = () =>
  admin.query(
    `update orders set status = 'cancelled' where idempotency_key like 'floor-%' and status = 'pending_payment'`,
  );

/** A statement with pgbench's `:name` values written as node-postgres's `$1`, `$2`…, and those names in order. */
function numbered(statement, i) {
  const names = [];
  const text = statement.sql.replace(/(?<!:):([a-z]+)\b/g, (_, name) => {
    if (!names.includes(name)) names.push(name);
    return `$${names.indexOf(name) + 1}`;
  });
  return { ...statement, name: `floor_${i}`, text, names };
}

/** The statements through node-postgres: the buyers, each placing orders one after another. */
async function nodePostgres(buyers) {
  const pool = new pg.Pool({ connectionString: url, max: POOL });
  const prepared = ORDER.filter((s) => !s.setup).map(numbered);
  const commitAt = prepared.findIndex((s) => s.sql === 'commit');
  const begin = prepared.findIndex((s) => s.sql === 'begin');
  const run = async (client, s, vars) => {
    if (s.tx) return client.query(s.sql);
    const r = await client.query({ name: s.name, text: s.text, values: s.names.map((n) => vars[n]) });
    if (s.gset && r.rows[0]) Object.assign(vars, r.rows[0]);
  };
  const order = async (uid) => {
    const vars = { uid };
    for (const s of prepared.slice(0, begin)) await run(pool, s, vars);
    const client = await pool.connect();
    try {
      for (const s of prepared.slice(begin, commitAt + 1)) await run(client, s, vars);
    } finally {
      client.release();
    }
    for (const s of prepared.slice(commitAt + 1)) await run(pool, s, vars);
  };
  for (let i = 0; i < 30; i++) await order(buyers[i % BUYERS].id);
  const started = performance.now();
  const cpu = process.cpuUsage();
  let done = 0;
  await Promise.all(
    buyers.map(async (b) => {
      while (performance.now() - started < seconds * 1000) {
        await order(b.id);
        done += 1;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  await pool.end();
  return { perSecond: done / elapsed, clientMs: (used.user + used.system) / 1000 / done };
}

/** The script pgbench runs (the buyers from bench_floor_buyers), written once; null without pgbench. */
const pgbenchScript = (() => {
  if (spawnSync('pgbench', ['--version'], { encoding: 'utf8' }).status !== 0) return null;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'order-floor-')), 'order.pgbench');
  fs.writeFileSync(
    file,
    [`\\set u random(1, ${BUYERS})`, ...ORDER.map((s) => `${s.sql}${s.gset ? ' \\gset' : ';'}`)].join('\n') +
      '\n',
  );
  return file;
})();

/** The same statements through pgbench (10 connections, prepared), when it is installed. */
function pgbench(file) {
  if (file === null) return null;
  const out = spawnSync(
    'pgbench',
    ['-n', '-M', 'prepared', '-c', String(POOL), '-j', '2', '-T', String(seconds), '-f', file, url],
    { encoding: 'utf8' },
  );
  const tps = /tps = ([\d.]+)/.exec(out.stdout)?.[1];
  if (!tps) throw new Error(`pgbench: ${out.stderr || out.stdout}`);
  return { perSecond: Number(tps), latency: Number(/latency average = ([\d.]+)/.exec(out.stdout)?.[1]) };
}

const results = [];
try {
  for (let round = 1; round <= rounds; round++) {
    const viaNode = await nodePostgres(await newBuyers(`${round}n`));
    await tidy();
    await newBuyers(`${round}p`);
    const viaPgbench = pgbench(pgbenchScript);
    await tidy();
    results.push({ round, viaNode, viaPgbench });
  }
} finally {
  await tidy();
  await admin.query('drop table if exists bench_floor_buyers');
  await admin.end();
}

console.log(
  `\nOrder floor ${new Date().toISOString()}: ${statementsPerOrder} statements per order (add to cart, checkout, order mail), ${BUYERS} buyers of one variant, ${POOL} connections, ${seconds} s a round, ${os.availableParallelism()} cores, Node ${process.version}\n`,
);
console.log(
  '| round | node-postgres orders/s | node-postgres client CPU per order | pgbench orders/s | pgbench latency (mean) |',
);
console.log('|---:|---:|---:|---:|---:|');
for (const { round, viaNode, viaPgbench } of results) {
  console.log(
    `| ${round} | ${viaNode.perSecond.toFixed(0)} | ${viaNode.clientMs.toFixed(2)} ms | ${viaPgbench ? viaPgbench.perSecond.toFixed(0) : '— (no pgbench)'} | ${viaPgbench ? `${viaPgbench.latency.toFixed(1)} ms` : '—'} |`,
  );
}
