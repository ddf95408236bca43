import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.ts';
import type { Database } from '../../db/client.ts';
import { sessions, users } from '../../db/schema.ts';
import { createTestDatabase, dbAvailable, signIn, testConfig } from '../../../test/helpers.ts';
import { setRole } from '../../../test/fixtures.ts';
import { codeFrom, latestMail } from '../../../test/mail.ts';
import { ORIGIN } from '../../../test/shop.ts';

const PASSWORD = 'Shanlan-oolong-2026';
const NEW_PASSWORD = 'Lishan-winter-2027';
// The periodic check is far away here, so only the announced endings can close a stream in time.
const LIMITS = { perSession: 2, perUser: 3, total: 5, recheckMs: 60_000 };
const QUICK_RECHECK_MS = 300;

interface OpenStream {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  /** Everything received so far (the error body for a refused stream). */
  text(): string;
  readonly closed: Promise<void>;
  isClosed(): boolean;
  close(): void;
}

let ipCounter = 1;
const freshIp = () => `198.51.100.${ipCounter++}`;

/** True when a Redis server answers at `url` within a second. */
async function redisAnswers(url: string): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 1_000,
    retryStrategy: () => null,
  });
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/** Resolves true when the stream ends within `ms`. */
const endsWithin = (stream: OpenStream, ms: number) =>
  Promise.race([stream.closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

describe.skipIf(!dbAvailable())('live-update streams (/api/events)', () => {
  let app: FastifyInstance;
  let database: Database;
  let port: number;
  const open: OpenStream[] = [];

  let quick: FastifyInstance;
  let quickPort: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await buildApp({ config: testConfig(), database, closeDatabase: false, streamLimits: LIMITS });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
    // A second server on the same database, checking every stream often.
    quick = await buildApp({
      config: testConfig(),
      database,
      closeDatabase: false,
      streamLimits: { recheckMs: QUICK_RECHECK_MS },
    });
    await quick.listen({ port: 0, host: '127.0.0.1' });
    quickPort = (quick.server.address() as AddressInfo).port;
  });
  // Each test starts with no stream open, whatever the last one left behind.
  afterEach(async () => {
    for (const s of open.splice(0)) s.close();
    await new Promise((r) => setTimeout(r, 100));
  });
  afterAll(async () => {
    await quick.close();
    await app.close();
    await database.close();
  });

  /** Opens a stream over a real socket; resolves once it is refused, or once `ready` arrived. */
  function connect(cookie: string, to = port): Promise<OpenStream> {
    return new Promise((resolve, reject) => {
      const req = http.get(
        {
          host: '127.0.0.1',
          port: to,
          path: '/api/events',
          headers: { cookie, accept: 'text/event-stream' },
        },
        (res) => {
          let body = '';
          let ended = false;
          const closed = new Promise<void>((done) => {
            res.on('close', () => {
              ended = true;
              done();
            });
          });
          const stream: OpenStream = {
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: () => body,
            closed,
            isClosed: () => ended,
            close: () => req.destroy(),
          };
          open.push(stream);
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
            if (res.statusCode === 200 && body.includes('event: ready')) resolve(stream);
          });
          res.on('end', () => resolve(stream));
          res.on('error', () => resolve(stream));
        },
      );
      req.on('error', reject);
    });
  }

  /** A stream the server accepted. */
  async function connectOk(cookie: string, to = port): Promise<OpenStream> {
    const stream = await connect(cookie, to);
    expect(stream.status, stream.text()).toBe(200);
    return stream;
  }

  const post = (url: string, cookie: string, payload: object = {}) =>
    app.inject({
      method: 'POST',
      url,
      payload,
      remoteAddress: freshIp(),
      headers: { cookie, origin: ORIGIN },
    });

  async function register(email: string): Promise<string> {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: freshIp(),
      headers: { origin: ORIGIN },
      payload: {
        displayName: '林小嵐',
        email,
        password: PASSWORD,
        passwordConfirm: PASSWORD,
        acceptTerms: true,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.cookies
      .filter((c) => c.value !== '')
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  async function signInWithPassword(email: string, password = PASSWORD): Promise<string> {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: freshIp(),
      headers: { origin: ORIGIN },
      payload: { email, password },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.cookies
      .filter((c) => c.value !== '')
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  it('delivers the member’s own events, and nothing meant only for the server', async () => {
    const { cookie, uid } = await signIn(app, 'deliver@example.com');
    const stream = await connect(cookie);
    expect(stream.status).toBe(200);
    await app.events.publish(uid, { type: 'cart.updated', data: { count: 2 } });
    await app.sessionsEnded(uid);
    await new Promise((r) => setTimeout(r, 200));
    expect(stream.text()).toContain('event: cart.updated\ndata: {"count":2}');
    expect(stream.text()).not.toContain('session');
    expect(stream.isClosed()).toBe(false);
    stream.close();
  });

  it('tells every shopper’s open page at once when the owner switches maintenance mode, and no staff page', async () => {
    const shopper = await signIn(app, 'maintenance-shopper@example.com');
    const owner = await signIn(app, 'maintenance-owner@example.com');
    await setRole(database, 'maintenance-owner@example.com', 'owner');
    const shopperPage = await connectOk(shopper.cookie);
    const ownerPage = await connectOk(owner.cookie);
    const setMaintenance = (enabled: boolean) =>
      app.inject({
        method: 'POST',
        url: '/api/admin/maintenance',
        headers: { cookie: owner.cookie, origin: ORIGIN },
        payload: { enabled },
      });
    try {
      expect((await setMaintenance(true)).statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, 200));
      expect(shopperPage.text()).toContain('event: site.maintenance\ndata: {"enabled":true}');
      expect(ownerPage.text()).not.toContain('site.maintenance');
    } finally {
      expect((await setMaintenance(false)).statusCode).toBe(200);
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(shopperPage.text()).toContain('event: site.maintenance\ndata: {"enabled":false}');
    expect(shopperPage.isClosed()).toBe(false);
  });

  it('refuses a stream over the cap per session, per member and in total with 429 and Retry-After', async () => {
    const first = await signIn(app, 'caps@example.com');
    const a = [await connect(first.cookie), await connect(first.cookie)];
    expect(a.map((s) => s.status)).toEqual([200, 200]);
    const overSession = await connect(first.cookie);
    expect(overSession.status).toBe(429);
    expect(Number(overSession.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(overSession.text()).error.code).toBe('too-many-requests');
    expect(JSON.parse(overSession.text()).error.message).toMatch(/[\u4e00-\u9fff]/);

    // Another session of the same member: one more fits under the member's cap of 3, then no more.
    const second = await signIn(app, 'caps@example.com');
    expect((await connect(second.cookie)).status).toBe(200);
    const overMember = await connect(second.cookie);
    expect(overMember.status).toBe(429);
    expect(overMember.headers['retry-after']).toBeDefined();

    // Someone else: the server-wide cap of 5 leaves room for two.
    const other = await signIn(app, 'caps-other@example.com');
    expect((await connect(other.cookie)).status).toBe(200);
    expect((await connect(other.cookie)).status).toBe(200);
    const third = await signIn(app, 'caps-third@example.com');
    const overTotal = await connect(third.cookie);
    expect(overTotal.status).toBe(429);
    expect(overTotal.headers['retry-after']).toBeDefined();

    // A closed stream frees its place.
    a[0]!.close();
    await a[0]!.closed;
    await new Promise((r) => setTimeout(r, 100));
    expect((await connect(third.cookie)).status).toBe(200);
    for (const s of open) s.close();
    await new Promise((r) => setTimeout(r, 100));
  });

  /** The status question the web client asks after a refused stream: only the status line counts. */
  function probe(cookie: string): Promise<{ status: number; retryAfter: string | undefined }> {
    return new Promise((resolve, reject) => {
      const req = http.get(
        { host: '127.0.0.1', port, path: '/api/events?probe=1', headers: { cookie } },
        (res) => {
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers['retry-after'] as string | undefined,
          });
          req.destroy();
        },
      );
      req.on('error', reject);
    });
  }

  it('answers the client’s question why a stream was refused, without opening one', async () => {
    const member = await signIn(app, 'probe@example.com');
    expect((await probe(member.cookie)).status).toBe(204);
    const streams = [await connectOk(member.cookie), await connectOk(member.cookie)];
    // Probes never take a place: asking again and again changes nothing.
    for (let i = 0; i < 3; i++) expect((await probe(member.cookie)).status).toBe(429);
    const refused = await probe(member.cookie);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    streams[0]!.close();
    await streams[0]!.closed;
    await new Promise((r) => setTimeout(r, 100));
    expect((await probe(member.cookie)).status).toBe(204);
    expect((await probe('')).status).toBe(401);
  });

  it('sign-out ends that session’s streams at once, and only that session’s', async () => {
    const mine = await signIn(app, 'signout@example.com');
    const elsewhere = await signIn(app, 'signout@example.com');
    const stream = await connectOk(mine.cookie);
    const other = await connectOk(elsewhere.cookie);
    expect((await post('/api/auth/logout', mine.cookie)).statusCode).toBe(200);
    expect(await endsWithin(stream, 300)).toBe(true);
    expect(other.isClosed()).toBe(false);
    // The signed-out browser cannot open a new one.
    expect((await connect(mine.cookie)).status).toBe(401);
    other.close();
  });

  it('a password change ends the other sessions’ streams and keeps this one’s', async () => {
    const here = await register('change@example.com');
    const there = await signInWithPassword('change@example.com');
    const herePage = await connectOk(here);
    const therePage = await connectOk(there);
    expect((await post('/api/auth/reauthenticate', here, { password: PASSWORD })).statusCode).toBe(200);
    const res = await post('/api/auth/change-password', here, {
      password: NEW_PASSWORD,
      passwordConfirm: NEW_PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await endsWithin(therePage, 300)).toBe(true);
    expect(herePage.isClosed()).toBe(false);
    herePage.close();
  });

  it('a password reset ends every stream of the account', async () => {
    const here = await register('reset@example.com');
    const page = await connectOk(here);
    expect((await post('/api/auth/forgot-password', '', { email: 'reset@example.com' })).statusCode).toBe(
      200,
    );
    const code = codeFrom((await latestMail(database, 'reset@example.com', 'reset-password')).meta.link);
    const res = await post('/api/auth/reset-password', '', {
      code,
      password: NEW_PASSWORD,
      passwordConfirm: NEW_PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await endsWithin(page, 300)).toBe(true);
  });

  it('disabling an account in the console ends its streams at once', async () => {
    const member = await signIn(app, 'disabled@example.com');
    const owner = await signIn(app, 'events-owner@example.com');
    await setRole(database, 'events-owner@example.com', 'owner');
    const page = await connectOk(member.cookie);
    const res = await post(`/api/admin/members/${member.uid}/disable`, owner.cookie, { reason: '盜用帳號' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await endsWithin(page, 300)).toBe(true);
  });

  it('with Redis, a sign-out on one instance ends the stream another instance holds', async (test) => {
    const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    if (!(await redisAnswers(redisUrl))) test.skip();
    const config = testConfig({ REDIS_URL: redisUrl });
    const a = await buildApp({ config, database, closeDatabase: false, streamLimits: LIMITS });
    const b = await buildApp({ config, database, closeDatabase: false, streamLimits: LIMITS });
    try {
      await b.listen({ port: 0, host: '127.0.0.1' });
      const member = await signIn(a, 'two-instances@example.com');
      const page = await connectOk(member.cookie, (b.server.address() as AddressInfo).port);
      const res = await a.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { cookie: member.cookie, origin: ORIGIN },
      });
      expect(res.statusCode).toBe(200);
      expect(await endsWithin(page, 1_000)).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a session that ended some other way is noticed by the periodic check', async () => {
    const member = await signIn(quick, 'quietly@example.com');
    const page = await connectOk(member.cookie, quickPort);
    const alive = await connectOk((await signIn(quick, 'still-here@example.com')).cookie, quickPort);
    await database.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, member.uid));
    expect(await endsWithin(page, QUICK_RECHECK_MS * 4)).toBe(true);
    const disabled = await signIn(quick, 'quietly-disabled@example.com');
    const other = await connectOk(disabled.cookie, quickPort);
    await database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, disabled.uid));
    expect(await endsWithin(other, QUICK_RECHECK_MS * 4)).toBe(true);
    expect(alive.isClosed()).toBe(false);
    alive.close();
  });
});
