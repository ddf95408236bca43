import fp from 'fastify-plugin';
import type { FastifyBaseLogger } from 'fastify';
import { Redis, type RedisOptions } from 'ioredis';

/** What `/api/health` says about Redis when REDIS_URL is set. */
export type RedisState = 'ok' | 'unavailable';

/**
 * The shared Redis connection, optional at run time: the shop works without it (limits counted in
 * this instance's memory, live updates only to pages connected to this instance) and uses it again
 * as soon as it answers. Nothing waits for Redis: while it is away every command fails at once.
 */
export interface RedisLink {
  /** For commands. Check `ready()` first; a command sent while Redis is away fails at once. */
  readonly client: Redis;
  ready(): boolean;
  /** Connects, and answers whether the link became ready within `ms` (it keeps trying either way). */
  start(ms: number): Promise<boolean>;
  state(): RedisState;
  /** A second connection with the same policy, for pub/sub (a subscribed connection takes no other command). */
  duplicate(): Redis;
  /** Logs a failed command once per outage and, when Redis stopped answering, starts a new connection. */
  reportFailure(error: unknown, what: string): void;
  close(): Promise<void>;
}

/**
 * Fail fast while Redis is away, wait while it is merely slow, reconnect for ever: a command never
 * waits in a queue while Redis is away (`enableOfflineQueue: false`), one cut off by a lost
 * connection is not resent, one that gets no answer within ten seconds fails and ends the
 * connection (a black-holed network), and the connection is tried again with a growing pause, at
 * most 5 s, for as long as the process runs.
 */
export const REDIS_OPTIONS = {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  connectTimeout: 2000,
  // Slow is not dead: a CPU-starved instance read answers more than 2 s late, gave up on them,
  // dropped the link and counted sign-in limits per instance (5 × instances). Ten seconds of
  // silence is a black hole, not a busy process (docs/decisions/030-shared-limits-when-redis-is-slow.md).
  commandTimeout: 10_000,
  autoResubscribe: false,
  retryStrategy: (times: number) => Math.min(100 * 2 ** Math.min(times, 6), 5000),
} satisfies RedisOptions;

/** host:port only: a password in the URL never reaches the log. */
const where = (url: string) => {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 6379}`;
};

export function redisLink(url: string, log: FastifyBaseLogger): RedisLink {
  const client = new Redis(url, REDIS_OPTIONS);
  const others: Redis[] = [];
  // One warning per outage, one notice when it is over: never a line per failed command.
  let down = false;
  let closing = false;
  const wentDown = (reason: string) => {
    if (down || closing) return;
    down = true;
    log.warn(
      { redis: where(url), reason },
      'Redis unavailable: running degraded (sign-in limits counted per instance, live updates only to pages on this instance); retrying in the background',
    );
  };
  const watch = (connection: Redis) => {
    // ioredis reports every failed attempt as an error event; the state changes are what we log.
    connection.on('error', (error: Error) => wentDown(error.message));
    connection.on('close', () => wentDown('connection closed'));
  };
  watch(client);
  client.on('ready', () => {
    if (down) log.info({ redis: where(url) }, 'Redis is back: limits and live updates are shared again');
    down = false;
  });
  return {
    client,
    ready: () => client.status === 'ready',
    start(ms) {
      // A refused first attempt rejects connect(); the retry strategy goes on trying regardless.
      void client.connect().catch(() => undefined);
      if (client.status === 'ready' || ms <= 0) return Promise.resolve(client.status === 'ready');
      return new Promise<boolean>((resolve) => {
        const done = (ok: boolean) => {
          clearTimeout(timer);
          client.off('ready', onReady);
          resolve(ok);
        };
        const onReady = () => done(true);
        const timer = setTimeout(() => done(client.status === 'ready'), ms);
        client.once('ready', onReady);
      });
    },
    state: () => (client.status === 'ready' ? 'ok' : 'unavailable'),
    duplicate() {
      const connection = client.duplicate();
      watch(connection);
      others.push(connection);
      return connection;
    },
    reportFailure(error, what) {
      wentDown(`${what}: ${error instanceof Error ? error.message : String(error)}`);
      // No answer at all: the connection is useless until made again (a reset would have closed it).
      if (error instanceof Error && /timed? ?out/i.test(error.message) && client.status === 'ready')
        client.disconnect(true);
    },
    async close() {
      closing = true;
      await Promise.all(
        [client, ...others].map(async (connection) => {
          if (connection.status !== 'ready') return connection.disconnect();
          await connection.quit().catch(() => connection.disconnect());
        }),
      );
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared Redis link when REDIS_URL is set, else null (one instance: everything in memory). */
    redis: RedisLink | null;
  }
}

export default fp(
  async (app) => {
    const url = app.config.redisUrl;
    if (!url) {
      app.decorate('redis', null);
      return;
    }
    const link = redisLink(url, app.log);
    // Traffic waits for Redis (bounded): an instance that took sign-ins while still connecting
    // would count their limits alone. Past the wait it starts degraded and keeps trying.
    const seconds = app.config.redisStartWaitMs / 1000;
    if (await link.start(app.config.redisStartWaitMs))
      app.log.info(
        { redis: where(url) },
        'Redis connected: limits and live updates shared between instances',
      );
    else
      app.log.warn(
        { redis: where(url), waitedSeconds: seconds },
        `Redis not ready after ${seconds} s (REDIS_START_WAIT_SECONDS): starting without it; sign-in limits are counted per instance until it answers`,
      );
    if (!app.config.s3) {
      app.log.warn(
        "REDIS_URL is set (several instances?) but uploaded files are stored on this instance's disk under DATA_DIR/storage: other instances answer 404 for them. Set the S3_* settings, or make DATA_DIR/storage a volume every instance shares.",
      );
    }
    app.decorate('redis', link);
    app.addHook('onClose', async () => link.close());
  },
  { name: 'redis', dependencies: ['config'] },
);
