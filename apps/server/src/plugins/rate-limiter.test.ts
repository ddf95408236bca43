import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  enforceLimit,
  memoryRateLimiter,
  redisRateLimiter,
  sharedRateLimiter,
  takeAttempt,
  type RateLimiter,
} from './rate-limiter.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAnswers(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    retryStrategy: () => null,
  });
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
      expect(error).toMatchObject({
        statusCode: 429,
        code: 'too-many-requests',
        headers: { 'retry-after': '60' },
        message: '嘗試次數過多，請於 1 分鐘後再試。',
      });
    });

    it('lets no more than the limit through a parallel burst', async () => {
      const k = key();
      const results = await Promise.allSettled(
        Array.from({ length: 300 }, () =>
          takeAttempt(limiter, [{ key: k, limit: { max: 5, windowMs: 60_000 } }]),
        ),
      );
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
      for (let i = 0; i < 2; i++)
        await takeAttempt(limiter, [
          { key: network, limit: { max: 10, windowMs: 60_000 } },
          { key: account, limit: { max: 2, windowMs: 60_000 } },
        ]);
      const error = await takeAttempt(
        limiter,
        [
          { key: network, limit: { max: 10, windowMs: 60_000 } },
          { key: account, limit: { max: 2, windowMs: 60_000 } },
        ],
        (s) => `wait ${s}`,
      ).catch((e: unknown) => e);
      expect(error).toMatchObject({ statusCode: 429, message: 'wait 60' });
      expect((await limiter.peek(network)).count).toBe(2);
    });
  });
}

contract('in-process counters', () => memoryRateLimiter());
contract('counted in this instance and in a shared store', () =>
  sharedRateLimiter(
    memoryRateLimiter(),
    memoryRateLimiter(),
    () => true,
    () => undefined,
  ),
);

describe('counted in this instance and in a shared store', () => {
  const limit = { max: 3, windowMs: 60_000 };
  /** A shared store whose commands fail while `failing` is set, or answer after `delayMs`. */
  const flaky = () => {
    const inner = memoryRateLimiter();
    const state = { failing: false, delayMs: 0 };
    const step = async <T>(op: () => Promise<T>) => {
      if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs));
      if (state.failing) throw new Error('Connection is closed.');
      return op();
    };
    const store: RateLimiter = {
      kind: 'redis',
      hit: (k, w) => step(() => inner.hit(k, w)),
      peek: (k) => step(() => inner.peek(k)),
      undo: (k) => step(() => inner.undo(k)),
      reset: (k) => step(() => inner.reset(k)),
      close: () => inner.close(),
    };
    return { store, state, inner };
  };

  it('waits for a slow shared store instead of counting in this instance alone', async () => {
    const shared = flaky();
    const failures: unknown[] = [];
    // Two instances, one store: each alone would let three through.
    const a = sharedRateLimiter(
      shared.store,
      memoryRateLimiter(),
      () => true,
      (e) => failures.push(e),
    );
    const b = sharedRateLimiter(
      shared.store,
      memoryRateLimiter(),
      () => true,
      (e) => failures.push(e),
    );
    shared.state.delayMs = 30;
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) => takeAttempt(i % 2 ? a : b, [{ key: 'acct', limit }])),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(failures).toEqual([]);
  });

  it('counts every attempt in this instance too: when the store fails, the attempts made before still count', async () => {
    const shared = flaky();
    const failures: unknown[] = [];
    const limiter = sharedRateLimiter(
      shared.store,
      memoryRateLimiter(),
      () => true,
      (e) => failures.push(e),
    );
    await takeAttempt(limiter, [{ key: 'acct', limit }]);
    await takeAttempt(limiter, [{ key: 'acct', limit }]);
    shared.state.failing = true;
    await takeAttempt(limiter, [{ key: 'acct', limit }]);
    await expect(takeAttempt(limiter, [{ key: 'acct', limit }])).rejects.toMatchObject({ statusCode: 429 });
    expect(failures.length).toBeGreaterThan(0);
  });

  it('refuses on either count: a store that lost its counts (restarted) does not reopen the limit', async () => {
    const shared = flaky();
    const limiter = sharedRateLimiter(
      shared.store,
      memoryRateLimiter(),
      () => true,
      () => undefined,
    );
    for (let i = 0; i < 3; i++) await takeAttempt(limiter, [{ key: 'acct', limit }]);
    await shared.inner.reset('acct');
    await expect(takeAttempt(limiter, [{ key: 'acct', limit }])).rejects.toMatchObject({ statusCode: 429 });
    // And the other way round: another instance's attempts in the store count here.
    const other = sharedRateLimiter(
      shared.store,
      memoryRateLimiter(),
      () => true,
      () => undefined,
    );
    for (let i = 0; i < 3; i++) await shared.inner.hit('other', limit.windowMs);
    await expect(takeAttempt(other, [{ key: 'other', limit }])).rejects.toMatchObject({ statusCode: 429 });
  });

  it('counts in this instance only while the store is not ready, and a reset clears both', async () => {
    const shared = flaky();
    let ready = false;
    const limiter = sharedRateLimiter(
      shared.store,
      memoryRateLimiter(),
      () => ready,
      () => undefined,
    );
    await limiter.hit('acct', limit.windowMs);
    expect((await shared.inner.peek('acct')).count).toBe(0);
    ready = true;
    expect((await limiter.hit('acct', limit.windowMs)).count).toBe(2);
    await limiter.reset('acct');
    expect((await limiter.peek('acct')).count).toBe(0);
  });
});

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
