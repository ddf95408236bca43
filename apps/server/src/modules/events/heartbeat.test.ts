import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LIVE_UPDATES } from '@shop/shared/limits';
import { createTestApp, dbAvailable, signIn, type TestContext } from '../../../test/helpers.ts';

/** Waits (on real time) until `ok()` holds; vi.waitFor would move the faked clock while it waits. */
async function until(ok: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(!dbAvailable())('live-update heartbeat', () => {
  let ctx: TestContext;
  let port: number;
  beforeAll(async () => {
    ctx = await createTestApp();
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    vi.useRealTimers();
    await ctx.close();
  });

  it('sends a heartbeat the browser can see (a named event, not a comment) every 15 s, inside the 5–30 s window', async () => {
    const { cookie } = await signIn(ctx.app, 'heartbeat@example.com');
    // Only the stream's interval timer is under the test's control; everything else runs for real.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let body = '';
    const req = http.get({
      host: '127.0.0.1',
      port,
      path: '/api/events',
      headers: { cookie, accept: 'text/event-stream' },
    });
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      req.on('response', resolve);
      req.on('error', reject);
    });
    expect(res.statusCode).toBe(200);
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (body += chunk));
    await until(() => body.includes('event: ready'));
    vi.advanceTimersByTime(LIVE_UPDATES.heartbeatMs - 1);
    await new Promise((r) => setTimeout(r, 100));
    expect(body).not.toContain('heartbeat');
    vi.advanceTimersByTime(1);
    await until(() => body.includes('heartbeat'));
    expect(body).toContain('event: heartbeat\ndata: {}\n\n');
    req.destroy();
  });
});
