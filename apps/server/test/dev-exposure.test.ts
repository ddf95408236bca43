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
