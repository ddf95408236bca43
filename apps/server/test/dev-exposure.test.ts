import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbAvailable, type TestContext } from './helpers.ts';

/**
 * Outside production the mail outbox (reset and verification links) is readable at /dev/mailbox.
 * It must answer only someone sitting at the machine, never a neighbour on the network.
 */
describe.skipIf(!dbAvailable())('the development mailbox', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    // Even with a proxy trusted, a forwarded "127.0.0.1" must not open it.
    ctx = await createTestApp({ TRUST_PROXY: 'loopback,10.0.0.0/8' });
  });
  afterAll(async () => ctx.close());

  const get = (url: string, remoteAddress: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'GET', url, remoteAddress, headers });

  it('reads in a browser: the page arrives whole when compressed', async () => {
    const { brotliDecompressSync, gunzipSync } = await import('node:zlib');
    // A few mails, so the page is over the compressor's 1 KB threshold.
    for (let i = 0; i < 3; i++) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        remoteAddress: `198.51.100.${i + 1}`,
        headers: { origin: 'http://localhost:3000' },
        payload: {
          displayName: '山嵐茶友',
          email: `mailbox-${i}@example.com`,
          password: '山嵐茶事-mailbox-2026',
          passwordConfirm: '山嵐茶事-mailbox-2026',
          acceptTerms: true,
        },
      });
      expect(res.statusCode).toBe(201);
    }
    // Over a real socket, as a browser asks: the answer came back empty ("stream closed prematurely").
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const http = await import('node:http');
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const { status, headers, body } = await new Promise<{
        status: number;
        headers: Record<string, unknown>;
        body: Buffer;
      }>((resolve, reject) => {
        http
          .get(`${address}/dev/mailbox`, { headers: { 'accept-encoding': encoding } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
            );
            res.on('error', reject);
          })
          .on('error', reject);
      });
      expect(status, encoding).toBe(200);
      expect(headers['content-encoding'], encoding).toBe(encoding);
      expect(decode(body).toString('utf8'), encoding).toContain('<h1>開發用信箱</h1>');
    }
  });

  it('answers on the machine itself', async () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      expect((await get('/dev/mailbox', address)).statusCode, address).toBe(200);
      expect((await get('/api/dev/mailbox', address)).statusCode, address).toBe(200);
    }
  });

  it('is not there for anyone else on the network, whatever X-Forwarded-For claims', async () => {
    for (const [address, headers] of [
      ['192.168.1.20', {}],
      ['192.168.1.20', { 'x-forwarded-for': '127.0.0.1' }],
      ['10.0.0.5', { 'x-forwarded-for': '127.0.0.1' }],
      // A proxy on the same machine relays strangers from a loopback socket: its header gives it away.
      ['127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }],
      ['127.0.0.1', { forwarded: 'for=203.0.113.9' }],
    ] as const) {
      const page = await get('/dev/mailbox', address, headers);
      expect(page.statusCode, `${address} ${JSON.stringify(headers)}`).toBe(404);
      expect(page.body).not.toContain('開發用信箱');
      const api = await get('/api/dev/mailbox', address, headers);
      expect(api.statusCode).toBe(404);
      expect(api.json().error.code).toBe('not-found');
    }
  });
});
