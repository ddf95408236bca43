import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, dbAvailable, type TestContext } from './helpers.ts';
import { productionEnv } from './production.ts';

/** Reset requests are limited to 10 an hour per client address: the 11th from one client is refused. */
async function resetRequests(
  ctx: TestContext,
  count: number,
  from: (i: number) => { remoteAddress: string; forwardedFor: string },
) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const { remoteAddress, forwardedFor } = from(i);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      remoteAddress,
      headers: { 'x-forwarded-for': forwardedFor },
      payload: { email: `nobody-${i}@example.com` },
    });
    statuses.push(res.statusCode);
  }
  return statuses;
}

describe.skipIf(!dbAvailable())('client addresses behind a proxy', () => {
  let ctx: TestContext | undefined;
  afterEach(async () => {
    await ctx?.close();
    ctx = undefined;
  });

  it('in production without TRUST_PROXY, a forged X-Forwarded-For does not get around the per-address limit', async () => {
    ctx = await createTestApp(productionEnv());
    const statuses = await resetRequests(ctx, 11, (i) => ({
      remoteAddress: '203.0.113.7',
      forwardedFor: `198.51.100.${i + 1}`,
    }));
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
  });

  it('with TRUST_PROXY naming the proxy, X-Forwarded-For counts only on requests that came through it', async () => {
    ctx = await createTestApp(productionEnv({ TRUST_PROXY: '10.0.0.1' }));
    // Through the proxy: eleven different shoppers, none of them limited.
    const viaProxy = await resetRequests(ctx, 11, (i) => ({
      remoteAddress: '10.0.0.1',
      forwardedFor: `198.51.100.${i + 1}`,
    }));
    expect(viaProxy).toEqual(Array(11).fill(200));
    // Straight to the server, the header is the sender's own claim and is ignored.
    const direct = await resetRequests(ctx, 11, (i) => ({
      remoteAddress: '203.0.113.8',
      forwardedFor: `192.0.2.${i + 1}`,
    }));
    expect(direct[10]).toBe(429);
  });

  it('with TRUST_PROXY=1, only the address the proxy itself saw counts, not what the sender prepended', async () => {
    ctx = await createTestApp(productionEnv({ TRUST_PROXY: '1' }));
    const statuses = await resetRequests(ctx, 11, (i) => ({
      remoteAddress: '10.0.0.1',
      forwardedFor: `192.0.2.${i + 1}, 198.51.100.9`,
    }));
    expect(statuses[10]).toBe(429);
  });
});
