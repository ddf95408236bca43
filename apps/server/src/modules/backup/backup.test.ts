import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import sharp from 'sharp';
import { extract, pack } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '../../config/env.ts';
import { buildApp } from '../../app.ts';
import { openDatabase, PGLITE_OPTIONS, pgliteDatabase, type Database } from '../../db/client.ts';
import { auditLog, orderItems, orders, productVariants, storageObjects, users } from '../../db/schema.ts';
import { enqueueOutbox } from '../../plugins/outbox.ts';
import { runOutboxRelease } from '../../cli/outbox-release.ts';
import { HEALTH_CACHE_MS } from '../health/index.ts';
import { withDatabase } from '../../../test/global-setup.ts';
import { dbAvailable, dbEngine, createTestDatabase, signIn, testConfig } from '../../../test/helpers.ts';
import { seedTestCatalog, setRole } from '../../../test/fixtures.ts';
import { ORIGIN, shopper } from '../../../test/shop.ts';

interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the backup or restore command in its own process, as `npm run <script> -- …args` from the
 * repository root (as an operator would), or straight through node for the rest: npm adds a second
 * or more to each run on a busy machine.
 */
function runCli(
  script: 'backup' | 'restore',
  args: string[],
  env: Record<string, string | undefined>,
  via: 'npm' | 'node' = 'node',
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const { DATABASE_URL: _inherited, ...base } = process.env;
    const [command, argv] =
      via === 'npm'
        ? ['npm', ['run', '--silent', script, '--', ...args]]
        : [
            process.execPath,
            ['--import', 'tsx', path.join(REPO_ROOT, `apps/server/src/cli/${script}.ts`), ...args],
          ];
    const child = spawn(command, argv, {
      cwd: REPO_ROOT,
      env: { ...base, NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:3000', LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    // npm's own notices (a user config it does not know, say) are not the command's output.
    child.on('exit', (code) =>
      resolve({
        code: code ?? 1,
        stdout,
        stderr: stderr
          .split('\n')
          .filter((l) => !l.startsWith('npm warn'))
          .join('\n')
          .trim(),
      }),
    );
  });
}

/** How many tables a PostgreSQL database has (0: a refused restore left it empty). */
async function tableCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')",
    );
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

/** Every file under a folder, by relative path, with the SHA-256 of its bytes. */
function treeHashes(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else out[path.relative(root, full)] = createHash('sha256').update(fs.readFileSync(full)).digest('hex');
    }
  };
  walk(root);
  return out;
}

/** The rows a restore must give back, through drizzle so both engines compare alike. */
async function snapshot(database: Database) {
  const db = database.db;
  return {
    users: await db.select().from(users).orderBy(asc(users.id)),
    orders: await db.select().from(orders).orderBy(asc(orders.id)),
    orderItems: await db.select().from(orderItems).orderBy(asc(orderItems.id)),
    variants: await db.select().from(productVariants).orderBy(asc(productVariants.id)),
    files: await db
      .select()
      .from(storageObjects)
      .orderBy(asc(storageObjects.bucket), asc(storageObjects.name)),
  };
}

async function png(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: '#3F6B4F' } })
    .png()
    .toBuffer();
}

/** Rewrites an archive's backup.json through `change` (to make archives from "another version"). */
async function rewriteManifest(
  from: string,
  to: string,
  change: (manifest: Record<string, unknown>) => void,
): Promise<void> {
  const source = extract();
  const target = pack();
  const written = new Promise<void>((resolve, reject) => {
    const out = fs.createWriteStream(to);
    target.pipe(out);
    out.on('finish', resolve);
    out.on('error', reject);
  });
  source.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: unknown) => chunks.push(c as Buffer));
    stream.on('end', () => {
      let body = Buffer.concat(chunks);
      if (header.name === 'backup.json') {
        const manifest = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
        change(manifest);
        body = Buffer.from(JSON.stringify(manifest));
      }
      target.entry({ ...header, size: body.length }, body, next);
    });
  });
  source.on('finish', () => target.finalize());
  fs.createReadStream(from).pipe(source);
  await written;
}

describe.skipIf(!dbAvailable())('npm run backup and npm run restore', () => {
  const engine = dbEngine();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-backup-test-'));
  const dataDir = path.join(work, 'shop');
  let database: Database;
  let databaseUrl: string | undefined;
  let app: FastifyInstance;
  let port: number;
  let closed = false;
  let variantIds: string[];
  const extraDatabases: string[] = [];

  /** A fresh, empty PostgreSQL database (for a restore), dropped at the end. */
  async function emptyPostgres(): Promise<string> {
    const template = inject('dbTemplate:postgres');
    const name = `${new URL(template).pathname.slice(1).replace(/_tpl$/, '')}_restore_${extraDatabases.length}`;
    const admin = new pg.Client({ connectionString: withDatabase(template, 'postgres') });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    await admin.end();
    extraDatabases.push(name);
    return withDatabase(template, name);
  }

  beforeAll(async () => {
    if (engine === 'pglite') {
      // The shop's own data directory on disk, as `npm start` has it.
      const tar = await fs.promises.readFile(inject('dbTemplate:pglite'));
      fs.mkdirSync(path.join(dataDir, 'pglite'), { recursive: true });
      database = pgliteDatabase(
        await PGlite.create(path.join(dataDir, 'pglite'), {
          ...PGLITE_OPTIONS,
          loadDataDir: new Blob([tar]),
        }),
      );
    } else {
      database = await createTestDatabase();
      const name = (
        (await database.db.execute('select current_database() as name')) as unknown as {
          rows: { name: string }[];
        }
      ).rows[0]!.name;
      databaseUrl = withDatabase(inject('dbTemplate:postgres'), name);
    }
    app = await buildApp({ config: testConfig({ DATA_DIR: dataDir }), database, closeDatabase: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;

    await seedTestCatalog(database);
    const skus = ['DD-S', 'CUP-1', 'LS-S'];
    const bySku = new Map(
      (
        await database.db.select({ id: productVariants.id, sku: productVariants.sku }).from(productVariants)
      ).map((v) => [v.sku, v.id]),
    );
    variantIds = skus.map((sku) => bySku.get(sku)!);
    const owner = (await signIn(app, 'owner@example.com')).cookie;
    await setRole(database, 'owner@example.com', 'owner');
    const upload = (bucket: string, name: string, body: Buffer, type: string) =>
      app.inject({
        method: 'POST',
        url: `/api/storage/b/${bucket}/o?name=${encodeURIComponent(name)}`,
        payload: body,
        headers: { 'content-type': type, origin: ORIGIN, cookie: owner },
      });
    expect(
      (await upload('products', 'teas/dong-ding/1.png', await png(900, 700), 'image/png')).statusCode,
    ).toBe(201);
    expect(
      (
        await upload(
          'downloads',
          'catalog/2026.pdf',
          Buffer.from('%PDF-1.4\n% 山嵐茶事\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n'),
          'application/pdf',
        )
      ).statusCode,
    ).toBe(201);
    for (const who of ['a', 'b']) {
      const s = await shopper(app, `buyer-${who}@example.com`);
      expect((await s.add(variantIds[0]!, 1)).statusCode).toBe(200);
      const placed = await s.order();
      expect(placed.statusCode, placed.body).toBe(201);
    }
  }, 120_000);

  afterAll(async () => {
    if (!closed) {
      await app?.close();
      await database?.close();
    }
    if (extraDatabases.length) {
      const admin = new pg.Client({
        connectionString: withDatabase(inject('dbTemplate:postgres'), 'postgres'),
      });
      await admin.connect();
      for (const name of extraDatabases) await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
    fs.rmSync(work, { recursive: true, force: true });
  });

  const shopEnv = () => ({ DATA_DIR: dataDir, PORT: String(port), DATABASE_URL: databaseUrl });
  /** The first test's archive (or a new one when that test did not run). */
  let liveArchive: string | undefined;
  async function anArchive(): Promise<string> {
    if (liveArchive) return liveArchive;
    const archive = path.join(work, 'whole.tar');
    const made = await runCli('backup', [archive], shopEnv());
    expect(made.code, made.stderr).toBe(0);
    return (liveArchive = archive);
  }

  /** Opens a restored shop's database, compares it with the running one, closes it. */
  async function expectSameShop(
    restoredDir: string,
    restoredUrl: string | undefined,
    expected: Awaited<ReturnType<typeof snapshot>>,
  ) {
    const restored = await openDatabase({ databaseUrl: restoredUrl, dataDir: restoredDir });
    try {
      const got = await snapshot(restored);
      expect(got.users.map((u) => u.email).sort()).toEqual(expected.users.map((u) => u.email).sort());
      expect(got).toEqual(expected);
    } finally {
      await restored.close();
    }
    expect(treeHashes(path.join(restoredDir, 'storage'))).toEqual(treeHashes(path.join(dataDir, 'storage')));
  }

  it('a backup taken while the shop takes orders restores the same orders, members and files into an empty data directory', async () => {
    const archive = path.join(work, 'live.tar');
    // Shoppers keep using the shop while the backup runs; every request must still succeed.
    let running = true;
    const load = (async () => {
      const s = await shopper(app, 'busy@example.com');
      const codes: number[] = [];
      for (let i = 0; running && i < 200; i++) {
        const variant = variantIds[i % variantIds.length]!;
        codes.push(
          (await s.add(variant, 1)).statusCode,
          (await s.call('DELETE', `/api/cart/items/${variant}`)).statusCode,
        );
      }
      return codes;
    })();
    const backup = await runCli('backup', [archive], shopEnv(), 'npm');
    running = false;
    const codes = await load;
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stderr).toBe('');
    expect(codes.length).toBeGreaterThan(0);
    expect(codes.filter((c) => c !== 200)).toEqual([]);
    expect(backup.stdout).toContain(engine === 'pglite' ? 'through the running shop' : 'PostgreSQL');
    expect(backup.stdout).toContain(`${Object.keys(treeHashes(path.join(dataDir, 'storage'))).length} files`);

    const target = path.join(work, 'restored-live');
    const targetUrl = engine === 'postgres' ? await emptyPostgres() : undefined;
    const restore = await runCli('restore', [archive], { DATA_DIR: target, DATABASE_URL: targetUrl }, 'npm');
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stderr).toBe('');
    expect(restore.stdout).toContain('2 orders');
    liveArchive = archive;
    await expectSameShop(target, targetUrl, await snapshot(database));
  }, 120_000);

  it('only the command line on the server may download a backup: not a console owner, not anyone else', async () => {
    const owner = (await signIn(app, 'owner@example.com')).cookie;
    const asOwner = await app.inject({ method: 'GET', url: '/api/admin/backup', headers: { cookie: owner } });
    expect(asOwner.statusCode).toBe(403);
    expect(asOwner.json().error.message).toBe('備份只能在伺服器上以 npm run backup 取得。');
    expect((await app.inject({ method: 'GET', url: '/api/admin/backup' })).statusCode).toBe(401);
    expect(
      (
        await app.inject({
          method: 'GET',
          url: '/api/admin/backup',
          headers: { 'x-admin-cli-token': 'guess' },
        })
      ).statusCode,
    ).toBe(401);
    const token = fs.readFileSync(path.join(dataDir, 'admin-cli.token'), 'utf8').trim();
    expect(
      (
        await app.inject({
          method: 'GET',
          url: '/api/admin/backup',
          remoteAddress: '192.0.2.7',
          headers: { 'x-admin-cli-token': token },
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (
        await app.inject({
          method: 'GET',
          url: '/api/admin/backup?format=zip',
          headers: { 'x-admin-cli-token': token },
        })
      ).statusCode,
    ).toBe(400);
    const ok = await app.inject({
      method: 'GET',
      url: '/api/admin/backup',
      headers: { 'x-admin-cli-token': token },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('application/x-tar');
    expect(ok.rawPayload.subarray(0, 11).toString()).toBe('backup.json');
  }, 60_000);

  it('a logical backup restores into the embedded database whichever engine it came from', async () => {
    const archive = path.join(work, 'logical.tar');
    const backup = await runCli('backup', [archive, '--logical'], shopEnv());
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stderr).toBe('');
    expect(backup.stdout).toContain('logical');
    const target = path.join(work, 'restored-logical');
    const restore = await runCli('restore', [archive], { DATA_DIR: target });
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stderr).toBe('');
    await expectSameShop(target, undefined, await snapshot(database));
    // The restored shop keeps numbering orders after the last one it had.
    const restored = await openDatabase({ databaseUrl: undefined, dataDir: target });
    try {
      const seq = (await restored.db.execute(
        'select last_value::int as v from order_number_seq',
      )) as unknown as { rows: { v: number }[] };
      expect(seq.rows[0]!.v).toBeGreaterThanOrEqual(2);
    } finally {
      await restored.close();
    }
  }, 120_000);

  it('restore refuses a data directory or database that already holds a shop, and changes nothing', async () => {
    const archive = await anArchive();
    const before = await snapshot(database);
    const filesBefore = treeHashes(path.join(dataDir, 'storage'));
    const restore = await runCli('restore', [archive], { DATA_DIR: dataDir, DATABASE_URL: databaseUrl });
    expect(restore.code).toBe(1);
    expect(restore.stderr).toMatch(/not empty/);
    expect(await snapshot(database)).toEqual(before);
    expect(treeHashes(path.join(dataDir, 'storage'))).toEqual(filesBefore);
  }, 120_000);

  it('restore refuses a cut-off archive, one from a newer version of the shop and one that is no backup, leaving the target empty', async () => {
    const archive = await anArchive();
    const bytes = fs.readFileSync(archive);
    const cut = path.join(work, 'cut.tar');
    fs.writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const newer = path.join(work, 'newer.tar');
    await rewriteManifest(archive, newer, (m) => {
      const migrations = m.migrations as { count: number; lastHash: string };
      m.migrations = { count: migrations.count + 1, lastHash: 'f'.repeat(64) };
    });
    const future = path.join(work, 'future.tar');
    await rewriteManifest(archive, future, (m) => {
      m.version = 99;
    });
    const junk = path.join(work, 'junk.tar');
    fs.writeFileSync(junk, 'hello');

    const cases: Array<[string, RegExp]> = [
      [cut, /incomplete|cut off/],
      [newer, /newer version of the shop/],
      [future, /format version 99/],
      [junk, /not a backup/],
    ];
    // Empty databases made one at a time (CREATE DATABASE copies template1, one copy at a time).
    const targetUrls: Array<string | undefined> = [];
    for (const _ of cases) targetUrls.push(engine === 'postgres' ? await emptyPostgres() : undefined);
    await Promise.all(
      cases.map(async ([file, message], i) => {
        const target = path.join(work, `refused-${path.basename(file, '.tar')}`);
        const targetUrl = targetUrls[i];
        const restore = await runCli('restore', [file], { DATA_DIR: target, DATABASE_URL: targetUrl });
        expect(restore.code, file).toBe(1);
        expect(restore.stderr, file).toMatch(message);
        expect(treeHashes(target), file).toEqual({});
        if (targetUrl) expect(await tableCount(targetUrl), file).toBe(0);
      }),
    );
  }, 180_000);

  it('writes the backup owner-only (0600) into an owner-only folder (0700) it makes', async () => {
    const folder = path.join(work, 'private', 'nightly');
    const archive = path.join(folder, 'shop.tar');
    const made = await runCli('backup', [archive], shopEnv());
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain('not encrypted');
    expect({
      file: fs.statSync(archive).mode & 0o777,
      folder: fs.statSync(folder).mode & 0o777,
      parent: fs.statSync(path.dirname(folder)).mode & 0o777,
    }).toEqual({
      file: 0o600,
      folder: 0o700,
      parent: 0o700,
    });
  }, 120_000);

  it('seals the backup with BACKUP_ENCRYPTION_KEY; restore opens it with that key only, and a wrong, missing or damaged one changes nothing', async () => {
    const key = Buffer.alloc(32, 11).toString('base64');
    const archive = path.join(work, 'sealed.tar');
    const made = await runCli('backup', [archive], { ...shopEnv(), BACKUP_ENCRYPTION_KEY: key });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain('encrypted with BACKUP_ENCRYPTION_KEY');
    const bytes = fs.readFileSync(archive);
    expect(bytes.subarray(0, 24).toString('ascii')).toBe('shanlan-backup-aes256gcm');
    // Nothing of the archive shows through: not its manifest, not an address from the orders.
    expect(bytes.includes(Buffer.from('backup.json'))).toBe(false);
    expect(bytes.includes(Buffer.from('buyer-a@example.com'))).toBe(false);
    expect(fs.statSync(archive).mode & 0o777).toBe(0o600);

    const damaged = path.join(work, 'sealed-damaged.tar');
    const flipped = Buffer.from(bytes);
    flipped[Math.floor(flipped.length / 2)]! ^= 0x01;
    fs.writeFileSync(damaged, flipped);
    const cases: Array<[string, string | undefined, RegExp]> = [
      [archive, undefined, /This backup is encrypted: set BACKUP_ENCRYPTION_KEY/],
      [
        archive,
        Buffer.alloc(32, 12).toString('hex'),
        /BACKUP_ENCRYPTION_KEY is not the key this backup was made with; nothing was changed/,
      ],
      [damaged, key, /encrypted backup is damaged/],
    ];
    const targetUrls: Array<string | undefined> = [];
    for (const _ of cases) targetUrls.push(engine === 'postgres' ? await emptyPostgres() : undefined);
    for (const [i, [file, withKey, message]] of cases.entries()) {
      const target = path.join(work, `sealed-refused-${i}`);
      const restore = await runCli('restore', [file], {
        DATA_DIR: target,
        DATABASE_URL: targetUrls[i],
        BACKUP_ENCRYPTION_KEY: withKey,
      });
      expect(restore.code, restore.stderr).toBe(1);
      expect(restore.stderr).toMatch(message);
      expect(treeHashes(target)).toEqual({});
      if (targetUrls[i]) expect(await tableCount(targetUrls[i])).toBe(0);
    }

    const target = path.join(work, 'sealed-restored');
    const targetUrl = engine === 'postgres' ? await emptyPostgres() : undefined;
    const restore = await runCli('restore', [archive], {
      DATA_DIR: target,
      DATABASE_URL: targetUrl,
      BACKUP_ENCRYPTION_KEY: key,
    });
    expect(restore.code, restore.stderr).toBe(0);
    await expectSameShop(target, targetUrl, await snapshot(database));
  }, 180_000);

  it('a restored shop sends nothing until the owner releases its outbox, then each waiting message once', async () => {
    // Waiting in the live shop when the backup is taken (a kind the live shop does not deliver).
    await enqueueOutbox(database.db, [
      { kind: 'test-held', key: 'held-1', payload: { text: 'invoice for order 1' } },
      { kind: 'test-held', key: 'held-2', payload: { text: 'refund of order 2' } },
    ]);
    const archive = path.join(work, 'pending.tar');
    const made = await runCli('backup', [archive], shopEnv());
    expect(made.code, made.stderr).toBe(0);
    const target = path.join(work, 'restored-pending');
    const targetUrl = engine === 'postgres' ? await emptyPostgres() : undefined;
    const restore = await runCli('restore', [archive], { DATA_DIR: target, DATABASE_URL: targetUrl });
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toMatch(
      /The outbox is held: no mail or gateway call \(\d+ waiting\) is sent until the owner releases it/,
    );

    const restoredDb = await openDatabase({ databaseUrl: targetUrl, dataDir: target });
    const cliToken = 'restored-shop-command-line-token-0123456789';
    const restored = await buildApp({
      config: testConfig({ DATA_DIR: target }),
      database: restoredDb,
      closeDatabase: false,
      cliToken,
    });
    const delivered: string[] = [];
    restored.outbox.handle('test-held', async (payload) => {
      delivered.push(String(payload.text));
    });
    try {
      await restored.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(restored.server.address() as { port: number }).port}`;
      await restored.outbox.drain();
      expect(delivered).toEqual([]);
      expect((await restored.inject({ method: 'GET', url: '/api/health' })).json()).toMatchObject({
        status: 'ok',
        outbox: 'held',
      });
      const hold = await restored.inject({
        method: 'GET',
        url: '/api/admin/outbox/hold',
        headers: { 'x-admin-cli-token': cliToken },
      });
      expect(hold.json()).toMatchObject({
        held: true,
        reason: expect.stringContaining('restored from a backup made'),
        pending: expect.any(Number),
      });
      expect(hold.json().pending).toBeGreaterThanOrEqual(2);
      // Staff may see it, but only the owner lets a restored shop send.
      const clerk = (await signIn(restored, 'clerk@example.com')).cookie;
      await setRole(restoredDb, 'clerk@example.com', 'staff');
      expect(
        (
          await restored.inject({
            method: 'POST',
            url: '/api/admin/outbox/release',
            headers: { cookie: clerk, origin: ORIGIN },
            payload: {},
          })
        ).statusCode,
      ).toBe(403);
      await restored.outbox.drain();
      expect(delivered).toEqual([]);

      const lines: string[] = [];
      const io = {
        base,
        token: cliToken,
        log: (l: string) => lines.push(l),
        error: (l: string) => lines.push(l),
      };
      expect(await runOutboxRelease(io)).toBe(0);
      expect(lines.at(-1)).toMatch(/^Outbox released: \d+ waiting messages are sent now\.$/);
      await restored.outbox.drain();
      await restored.outbox.drain();
      expect(delivered.sort()).toEqual(['invoice for order 1', 'refund of order 2']);
      // Health answers from a probe of up to a second ago.
      await new Promise((resolve) => setTimeout(resolve, HEALTH_CACHE_MS + 100));
      expect((await restored.inject({ method: 'GET', url: '/api/health' })).json()).not.toHaveProperty(
        'outbox',
      );
      expect(await runOutboxRelease(io)).toBe(1);
      expect(lines.at(-1)).toBe('The outbox is not held: it already sends.');
      const audit = await restoredDb.db.select().from(auditLog).where(eq(auditLog.action, 'outbox.release'));
      expect(
        audit.map((a) => ({ actor: a.actorEmail, before: (a.before as { held: boolean }).held })),
      ).toEqual([{ actor: 'command-line', before: true }]);
    } finally {
      await restored.close();
      await restoredDb.close();
    }
  }, 180_000);

  it.skipIf(engine !== 'pglite')(
    'never opens an embedded database that a shop it cannot reach holds, and opens it itself once the shop has stopped',
    async () => {
      const archive = path.join(work, 'offline.tar');
      // A PORT where no shop answers: the database is still open in this process.
      const refused = await runCli('backup', [archive], { DATA_DIR: dataDir, PORT: '1' });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/in use/);
      expect(fs.existsSync(archive)).toBe(false);

      const expected = await snapshot(database);
      closed = true;
      await app.close();
      await database.close();
      const offline = await runCli('backup', [archive], { DATA_DIR: dataDir, PORT: String(port) });
      expect(offline.code, offline.stderr).toBe(0);
      expect(offline.stderr).toBe('');
      expect(offline.stdout).toContain('opened the embedded database itself');
      const target = path.join(work, 'restored-offline');
      expect((await runCli('restore', [archive], { DATA_DIR: target })).code).toBe(0);
      await expectSameShop(target, undefined, expected);
    },
    120_000,
  );
});
