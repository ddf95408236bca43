import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { buildApp, HTTP_TIMEOUTS } from '../src/app.ts';
import { setRole } from './fixtures.ts';
import { ORIGIN } from './shop.ts';
import type { Database } from '../src/db/client.ts';
import {
  createTestDatabase,
  createTestApp,
  dbAvailable,
  signIn,
  testConfig,
  type TestContext,
} from './helpers.ts';

const MB = 1024 * 1024;
/** What a phone on a weak mobile signal still uploads: 384 kbit/s, the old 3G uplink rate. */
const SLOW_PHONE_BYTES_PER_S = 384_000 / 8;

/** Opens a raw socket and resolves when the server closes it, with what it answered and when. */
function rawClient(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (c: Buffer) => (received += c.toString('latin1')));
  socket.on('error', () => {});
  const started = Date.now();
  const closed = new Promise<{ afterMs: number; received: string }>((resolve) =>
    socket.once('close', () => resolve({ afterMs: Date.now() - started, received })),
  );
  return { socket, closed };
}

/** Resolves to the close, or to null when the socket is still open after `ms`. */
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<null>((r) => setTimeout(() => r(null), ms))]);

describe.skipIf(!dbAvailable())('time-outs', () => {
  describe('the values a real server runs with', () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await createTestApp();
    });
    afterAll(async () => ctx.close());

    it('bound every phase of a request, yet leave an honest 30 MB upload from a slow phone room to finish', () => {
      const server = ctx.app.server;
      const slowUploadMs = ((30 * MB) / SLOW_PHONE_BYTES_PER_S) * 1000;
      expect(server.requestTimeout).toBeGreaterThan(slowUploadMs);
      expect(server.requestTimeout).toBeLessThanOrEqual(20 * 60_000);
      expect(server.headersTimeout).toBeGreaterThan(0);
      expect(server.headersTimeout).toBeLessThanOrEqual(30_000);
      // Idle sockets are closed, but never a live-update stream between its 25-second heartbeats.
      expect(server.timeout).toBeGreaterThan(25_000);
      expect(server.timeout).toBeLessThanOrEqual(5 * 60_000);
      expect(server.keepAliveTimeout).toBeGreaterThan(0);
      expect(server.keepAliveTimeout).toBeLessThanOrEqual(120_000);
      // Any other body (JSON, forms: 1 MB at most) must arrive within a minute.
      expect(HTTP_TIMEOUTS.bodyMs).toBeGreaterThanOrEqual(30_000);
      expect(HTTP_TIMEOUTS.bodyMs).toBeLessThanOrEqual(60_000);
    });
  });

  describe('enforced on a listening server (shortened for the test)', () => {
    let app: FastifyInstance;
    let database: Database;
    let port: number;
    beforeAll(async () => {
      database = await createTestDatabase();
      app = await buildApp({
        config: testConfig(),
        database,
        closeDatabase: false,
        httpTimeouts: { requestMs: 1500, headersMs: 1000, idleMs: 1000, keepAliveMs: 500, checkEveryMs: 200 },
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      port = (app.server.address() as net.AddressInfo).port;
    });
    afterAll(async () => {
      await app.close();
      await database.close();
    });

    it('cuts off a body trickled in slower than the request time-out, however steadily it arrives', async () => {
      const { socket, closed } = rawClient(port);
      socket.write(
        `PUT /api/storage/b/products/o/slow.jpg HTTP/1.1\r\nHost: localhost\r\nContent-Type: image/jpeg\r\nContent-Length: ${30 * MB}\r\n\r\n`,
      );
      // A byte every 100 ms keeps the socket busy, so only the request time-out can end it.
      const drip = setInterval(() => socket.writable && socket.write('x'), 100);
      const result = await within(closed, 6_000);
      clearInterval(drip);
      socket.destroy();
      expect(result, 'the socket was still open after 6 s').not.toBeNull();
      expect(result!.afterMs).toBeLessThan(4_000);
    });

    it('cuts off headers sent a line at a time (slowloris)', async () => {
      const { socket, closed } = rawClient(port);
      socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n');
      const drip = setInterval(() => socket.writable && socket.write(`X-Slow-${Date.now()}: 1\r\n`), 100);
      const result = await within(closed, 6_000);
      clearInterval(drip);
      socket.destroy();
      expect(result, 'the socket was still open after 6 s').not.toBeNull();
      expect(result!.afterMs).toBeLessThan(4_000);
    });

    it('closes a connection that says nothing', async () => {
      const { socket, closed } = rawClient(port);
      const result = await within(closed, 6_000);
      socket.destroy();
      expect(result, 'the socket was still open after 6 s').not.toBeNull();
    });

    it('still answers an honest request at once', async () => {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(res.status).toBe(200);
    });
  });

  describe('the body time-out, on a listening server (shortened for the test, the whole request left long)', () => {
    let app: FastifyInstance;
    let database: Database;
    let port: number;
    beforeAll(async () => {
      database = await createTestDatabase();
      app = await buildApp({
        config: testConfig(),
        database,
        closeDatabase: false,
        httpTimeouts: { requestMs: 60_000, bodyMs: 1000, checkEveryMs: 200 },
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      port = (app.server.address() as net.AddressInfo).port;
    });
    afterAll(async () => {
      await app.close();
      await database.close();
    });

    it('answers 408 and closes when a JSON body is trickled in longer than the body time-out', async () => {
      const { socket, closed } = rawClient(port);
      socket.write(
        `POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nOrigin: ${ORIGIN}\r\nContent-Length: 1000\r\n\r\n{"email":"`,
      );
      const drip = setInterval(() => socket.writable && socket.write('a'), 100);
      const result = await within(closed, 6_000);
      clearInterval(drip);
      socket.destroy();
      expect(result, 'the socket was still open after 6 s').not.toBeNull();
      expect(result!.received).toMatch(/^HTTP\/1\.1 408 /);
      expect(result!.received).toContain('"code":"request-timeout"');
      expect(result!.afterMs).toBeLessThan(4_000);
    });

    it('lets an upload take longer than that: a picture sent in three parts over 2.4 s is stored', async () => {
      const { cookie } = await signIn(app, 'slow-uploader@example.com');
      await setRole(database, 'slow-uploader@example.com', 'owner');
      const picture = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3F6B4F' } })
        .png()
        .toBuffer();
      const { socket, closed } = rawClient(port);
      socket.write(
        `POST /api/storage/b/products/o?name=slow%2F1.png HTTP/1.1\r\nHost: localhost\r\nCookie: ${cookie}\r\nOrigin: ${ORIGIN}\r\nContent-Type: image/png\r\nContent-Length: ${picture.length}\r\nConnection: close\r\n\r\n`,
      );
      const third = Math.ceil(picture.length / 3);
      for (let i = 0; i < 3; i++) {
        socket.write(picture.subarray(i * third, (i + 1) * third));
        if (i < 2) await new Promise((r) => setTimeout(r, 1200));
      }
      const result = await within(closed, 10_000);
      socket.destroy();
      expect(result?.received ?? 'still open').toMatch(/^HTTP\/1\.1 201 /);
    });
  });
});
