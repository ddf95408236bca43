import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { tooManyRequestsMessage } from '@shop/shared/auth-errors';
import { TooManyRequestsError } from '../lib/errors.ts';

export interface Limit {
  readonly max: number;
  readonly windowMs: number;
}

export interface Counter {
  readonly count: number;
  /** Milliseconds until the window ends (0 when nothing is counted). */
  readonly resetMs: number;
}

/** Fixed-window counters: in process by default, in Redis when REDIS_URL is set. */
export interface RateLimiter {
  readonly kind: 'memory' | 'redis';
  /** Counts one and answers the new count, atomically: concurrent hits each see their own number. */
  hit(key: string, windowMs: number): Promise<Counter>;
  peek(key: string): Promise<Counter>;
  /** Gives one back (never below zero, never starting a window). */
  undo(key: string): Promise<void>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

export function memoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; endsAt: number }>();
  const live = (key: string) => {
    const entry = windows.get(key);
    if (entry && entry.endsAt <= now()) {
      windows.delete(key);
      return undefined;
    }
    return entry;
  };
  // Forget expired windows now and then so the map cannot grow without bound.
  const sweep = setInterval(() => {
    const t = now();
    for (const [key, entry] of windows) if (entry.endsAt <= t) windows.delete(key);
  }, 60_000);
  sweep.unref();
  return {
    kind: 'memory',
    async hit(key, windowMs) {
      const entry = live(key) ?? { count: 0, endsAt: now() + windowMs };
      entry.count += 1;
      windows.set(key, entry);
      return { count: entry.count, resetMs: entry.endsAt - now() };
    },
    async peek(key) {
      const entry = live(key);
      return entry ? { count: entry.count, resetMs: entry.endsAt - now() } : { count: 0, resetMs: 0 };
    },
    async undo(key) {
      const entry = live(key);
      if (entry && entry.count > 0) entry.count -= 1;
    },
    async reset(key) {
      windows.delete(key);
    },
    async close() {
      clearInterval(sweep);
      windows.clear();
    },
  };
}

// DECR only a live key above zero: a plain DECR on an expired key would make one without a TTL.
const UNDO_SCRIPT =
  "local n = tonumber(redis.call('get', KEYS[1]) or '0') if n > 0 then return redis.call('decr', KEYS[1]) end return 0";

export function redisRateLimiter(redis: Redis, prefix = 'shop:rl:'): RateLimiter {
  return {
    kind: 'redis',
    async hit(key, windowMs) {
      const k = prefix + key;
      const result = await redis.multi().incr(k).pexpire(k, windowMs, 'NX').pttl(k).exec();
      const count = Number(result?.[0]?.[1] ?? 1);
      const ttl = Number(result?.[2]?.[1] ?? windowMs);
      return { count, resetMs: ttl > 0 ? ttl : windowMs };
    },
    async peek(key) {
      const k = prefix + key;
      const [count, ttl] = await Promise.all([redis.get(k), redis.pttl(k)]);
      return { count: Number(count ?? 0), resetMs: ttl > 0 ? ttl : 0 };
    },
    async undo(key) {
      await redis.eval(UNDO_SCRIPT, 1, prefix + key);
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
    async close() {
      await redis.quit();
    },
  };
}

/** Of two counts of the same hits, the one that refuses first. */
const larger = (a: Counter, b: Counter): Counter => (b.count > a.count ? b : a);

/**
 * Every hit is counted twice: in this instance's memory always, and in Redis while the link is
 * ready; the larger count decides (refuse on either). While Redis answers, however slowly, the
 * shared count holds across instances; when the link is down, or a command fails, the local one
 * still counts every attempt, including those made before the outage.
 */
export function sharedRateLimiter(
  shared: RateLimiter,
  local: RateLimiter,
  sharedReady: () => boolean,
  onSharedFailure: (error: unknown) => void,
): RateLimiter {
  /** The shared answer, or null when the link is down or the command failed (reported once). */
  const tryShared = async <T>(op: (limiter: RateLimiter) => Promise<T>): Promise<T | null> => {
    if (!sharedReady()) return null;
    try {
      return await op(shared);
    } catch (error) {
      onSharedFailure(error);
      return null;
    }
  };
  const both = async (op: (limiter: RateLimiter) => Promise<Counter>): Promise<Counter> => {
    const [mine, ours] = await Promise.all([op(local), tryShared(op)]);
    return ours ? larger(mine, ours) : mine;
  };
  return {
    kind: shared.kind,
    hit: (key, windowMs) => both((l) => l.hit(key, windowMs)),
    peek: (key) => both((l) => l.peek(key)),
    async undo(key) {
      await Promise.all([local.undo(key), tryShared((l) => l.undo(key))]);
    },
    async reset(key) {
      // A count made during an outage must not outlive the success that clears it.
      await Promise.all([local.reset(key), tryShared((l) => l.reset(key))]);
    },
    close: () => local.close(),
  };
}

export interface LimitCheck {
  readonly key: string;
  readonly limit: Limit;
}

/**
 * Takes one attempt from each limit before the guarded work runs (count first, then act). Every
 * hit is atomic in memory and in Redis, so of any burst, however parallel, at most `max` get
 * through. When a limit is spent it throws 429 with Retry-After and a message saying how long to
 * wait, and gives back what it already took from the earlier limits (that attempt never ran).
 */
export async function takeAttempt(
  limiter: RateLimiter,
  checks: readonly LimitCheck[],
  message: (seconds: number) => string = tooManyRequestsMessage,
): Promise<void> {
  const taken: string[] = [];
  for (const { key, limit } of checks) {
    const { count, resetMs } = await limiter.hit(key, limit.windowMs);
    if (count > limit.max) {
      await Promise.all(taken.map((k) => limiter.undo(k)));
      throw new TooManyRequestsError(resetMs / 1000, message(Math.ceil(resetMs / 1000)));
    }
    taken.push(key);
  }
}

/** Counts one hit and throws 429 with Retry-After once the limit is passed. */
export async function enforceLimit(limiter: RateLimiter, key: string, limit: Limit): Promise<void> {
  await takeAttempt(limiter, [{ key, limit }]);
}

declare module 'fastify' {
  interface FastifyInstance {
    limiter: RateLimiter;
  }
}

export default fp(
  async (app) => {
    const local = memoryRateLimiter();
    let limiter: RateLimiter = local;
    if (app.redis) {
      const link = app.redis;
      limiter = sharedRateLimiter(redisRateLimiter(link.client), local, link.ready, (error) =>
        link.reportFailure(error, 'rate limit'),
      );
      app.log.info(
        'rate limits: counted in this instance and, while it answers, in Redis; the larger count decides',
      );
    }
    app.decorate('limiter', limiter);
    // The Redis connection itself belongs to the redis plugin, which closes it after this.
    app.addHook('onClose', async () => local.close());
  },
  { name: 'rate-limiter', dependencies: ['config', 'redis'] },
);
