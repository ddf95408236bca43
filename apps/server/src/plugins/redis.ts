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
  state(): RedisState;
  /** A second connection with the same policy, for pub/sub (a subscribed connection takes no other command). */
  duplicate(): Redis;
  /** Logs a failed command once per outage and, when Redis stopped answering, starts a new connection. */
  reportFailure(error: unknown, what: string): void;
  close(): Promise<void>;
}

/**
 * Fail fast, reconnect for ever: a command never waits in a queue while Redis is away
 * (`enableOfflineQueue: false`), one cut off by a lost connection is not resent, one that gets no
 * answer within two seconds fails (a black-holed network), and the connection is tried again with a
 * growing pause, at most 5 s, for as long as the process runs.
 */
export const REDIS_OPTIONS = {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  connectTimeout: 2000,
  // 2 s: on a CPU-starved two-core machine (300 parallel sign-ins) an answer took over 1 s, and a
  // slow Redis taken for a dead one splits the shared limits into per-instance ones.
  commandTimeout: 2000,
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
    log.warn({ redis: where(url), reason }, 'Redis unavailable: running degraded (sign-in limits counted per instance, live updates only to pages on this instance); retrying in the background');
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
      if (error instanceof Error && /timed? ?out/i.test(error.message) && client.status === 'ready') client.disconnect(true);
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
    // Start with Redis if it answers within the connect time-out, without it otherwise: the first
    // failure is logged once (degraded), and the link keeps trying in the background.
    await link.client.connect().catch(() => undefined);
    if (link.ready()) app.log.info({ redis: where(url) }, 'Redis connected: limits and live updates shared between instances');
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
