import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
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
  hit(key: string, windowMs: number): Promise<Counter>;
  peek(key: string): Promise<Counter>;
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
    async reset(key) {
      windows.delete(key);
    },
    async close() {
      clearInterval(sweep);
      windows.clear();
    },
  };
}

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
    async reset(key) {
      await redis.del(prefix + key);
    },
    async close() {
      await redis.quit();
    },
  };
}

/** Counts one hit and throws 429 with Retry-After once the limit is passed. */
export async function enforceLimit(limiter: RateLimiter, key: string, limit: Limit): Promise<void> {
  const { count, resetMs } = await limiter.hit(key, limit.windowMs);
  if (count > limit.max) throw new TooManyRequestsError(resetMs / 1000);
}

/** Throws 429 when the key has already reached its limit, without counting. */
export async function assertUnderLimit(limiter: RateLimiter, key: string, limit: Limit): Promise<void> {
  const { count, resetMs } = await limiter.peek(key);
  if (count >= limit.max) throw new TooManyRequestsError(resetMs / 1000);
}

declare module 'fastify' {
  interface FastifyInstance {
    limiter: RateLimiter;
  }
}

export default fp(
  async (app) => {
    let limiter: RateLimiter;
    if (app.config.redisUrl) {
      const redis = new Redis(app.config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: false });
      await redis.connect();
      limiter = redisRateLimiter(redis);
      app.log.info('rate limits: shared through Redis');
    } else {
      limiter = memoryRateLimiter();
    }
    app.decorate('limiter', limiter);
    app.addHook('onClose', async () => limiter.close());
  },
  { name: 'rate-limiter', dependencies: ['config'] },
);
