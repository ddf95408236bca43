import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enforceLimit, memoryRateLimiter, redisRateLimiter, takeAttempt, type RateLimiter } from './rate-limiter.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAnswers(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    console.warn(`[rate-limiter] Redis at ${REDIS_URL} did not answer; the Redis tests are skipped.`);
    return false;
  } finally {
    probe.disconnect();
  }
}

const redisUp = await redisAnswers();

function contract(name: string, make: () => RateLimiter) {
  describe(name, () => {
    let limiter: RateLimiter;
    beforeAll(() => {
      limiter = make();
    });
    afterAll(async () => limiter.close());
    const key = () => `test:${randomBytes(6).toString('hex')}`;

    it('counts hits within a window and reports when it ends', async () => {
      const k = key();
      expect((await limiter.hit(k, 60_000)).count).toBe(1);
      const second = await limiter.hit(k, 60_000);
      expect(second.count).toBe(2);
      expect(second.resetMs).toBeGreaterThan(58_000);
      expect(second.resetMs).toBeLessThanOrEqual(60_000);
      expect((await limiter.peek(k)).count).toBe(2);
    });

    it('starts a new window after the old one ends', async () => {
      const k = key();
      await limiter.hit(k, 150);
      await limiter.hit(k, 150);
      await new Promise((r) => setTimeout(r, 250));
      expect((await limiter.peek(k)).count).toBe(0);
      expect((await limiter.hit(k, 150)).count).toBe(1);
    });

    it('forgets a key on reset', async () => {
      const k = key();
      await limiter.hit(k, 60_000);
      await limiter.reset(k);
      expect((await limiter.peek(k)).count).toBe(0);
    });

    it('throws 429 with Retry-After once the limit is passed', async () => {
      const k = key();
      for (let i = 0; i < 3; i++) await enforceLimit(limiter, k, { max: 3, windowMs: 60_000 });
      const error = await enforceLimit(limiter, k, { max: 3, windowMs: 60_000 }).catch((e: unknown) => e);
      expect(error).toMatchObject({ statusCode: 429, code: 'too-many-requests', headers: { 'retry-after': '60' }, message: '嘗試次數過多，請於 1 分鐘後再試。' });
    });

    it('lets no more than the limit through a parallel burst', async () => {
      const k = key();
      const results = await Promise.allSettled(Array.from({ length: 300 }, () => takeAttempt(limiter, [{ key: k, limit: { max: 5, windowMs: 60_000 } }])));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    });

    it('gives an attempt back, never below zero and never opening a window', async () => {
      const k = key();
      await limiter.hit(k, 60_000);
      await limiter.hit(k, 60_000);
      await limiter.undo(k);
      expect((await limiter.peek(k)).count).toBe(1);
      await limiter.undo(k);
      await limiter.undo(k);
      expect((await limiter.peek(k)).count).toBe(0);
      const fresh = key();
      await limiter.undo(fresh);
      expect(await limiter.peek(fresh)).toEqual({ count: 0, resetMs: 0 });
    });

    it('gives back what it took from earlier limits when a later one is spent', async () => {
      const network = key();
      const account = key();
      for (let i = 0; i < 2; i++) await takeAttempt(limiter, [{ key: network, limit: { max: 10, windowMs: 60_000 } }, { key: account, limit: { max: 2, windowMs: 60_000 } }]);
      const error = await takeAttempt(limiter, [{ key: network, limit: { max: 10, windowMs: 60_000 } }, { key: account, limit: { max: 2, windowMs: 60_000 } }], (s) => `wait ${s}`).catch((e: unknown) => e);
      expect(error).toMatchObject({ statusCode: 429, message: 'wait 60' });
      expect((await limiter.peek(network)).count).toBe(2);
    });
  });
}

contract('in-process counters', () => memoryRateLimiter());

describe.skipIf(!redisUp)('Redis counters', () => {
  contract('one instance', () => redisRateLimiter(new Redis(REDIS_URL), `shop-test:${process.pid}:`));

  it('are shared by two server instances', async () => {
    const prefix = `shop-test-shared:${randomBytes(4).toString('hex')}:`;
    const a = redisRateLimiter(new Redis(REDIS_URL), prefix);
    const b = redisRateLimiter(new Redis(REDIS_URL), prefix);
    await a.hit('login-fail:acct:x@example.com', 60_000);
    await a.hit('login-fail:acct:x@example.com', 60_000);
    expect((await b.hit('login-fail:acct:x@example.com', 60_000)).count).toBe(3);
    await a.reset('login-fail:acct:x@example.com');
    await Promise.all([a.close(), b.close()]);
  });
});
