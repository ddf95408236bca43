import type { FastifyPluginAsync } from 'fastify';
import { isOutboxHeld } from '../../plugins/outbox.ts';

/** A database that has not answered `select 1` within this is reported away. */
export const HEALTH_PROBE_TIMEOUT_MS = 2_000;
/** One probe serves every health request for this long, so a busy monitor never loads the database. */
export const HEALTH_CACHE_MS = 1_000;

interface Probe {
  readonly ok: boolean;
  readonly latencyMs: number;
  /** The outbox is held after a restore (plugins/outbox.ts): nothing is sent until the owner releases it. */
  readonly outboxHeld?: boolean;
  readonly error?: unknown;
}

/**
 * GET /api/health: 200 when the database answers, 503 while it does not; `outbox: "held"` while a
 * restored shop's outbox waits for the owner. The answer comes within
 * the probe's 2 s whatever the database does, and concurrent health requests share one probe.
 */
const health: FastifyPluginAsync = async (app) => {
  let last: { at: number; probe: Promise<Probe> } | null = null;

  const probe = async (): Promise<Probe> => {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${HEALTH_PROBE_TIMEOUT_MS} ms`)),
        HEALTH_PROBE_TIMEOUT_MS,
      );
    });
    try {
      // One statement answers both: the database is there, and whether the outbox is held.
      const outboxHeld = await Promise.race([isOutboxHeld(app.db), timedOut]);
      return {
        ok: true,
        latencyMs: Math.round((performance.now() - started) * 10) / 10,
        outboxHeld,
      };
    } catch (error) {
      return { ok: false, latencyMs: 0, error };
    } finally {
      clearTimeout(timer);
    }
  };

  app.get('/api/health', async (request, reply) => {
    const now = Date.now();
    let fresh = false;
    if (!last || now - last.at >= HEALTH_CACHE_MS) {
      last = { at: now, probe: probe() };
      fresh = true;
    }
    const result = await last.probe;
    reply.header('cache-control', 'no-store');
    if (!result.ok) {
      if (fresh) request.log.error({ err: result.error }, 'health check: database did not answer');
      return reply.code(503).send({ status: 'error', database: 'unavailable' });
    }
    // Redis is optional: without it the shop still works (degraded), so it never makes health fail.
    const redis = app.redis ? { redis: app.redis.state() } : {};
    // A held outbox does not make the shop unhealthy, but it is said here for monitors and people.
    const outbox = result.outboxHeld ? { outbox: 'held' } : {};
    return reply.send({
      status: 'ok',
      database: app.database.engine,
      latencyMs: result.latencyMs,
      ...redis,
      ...outbox,
    });
  });
};

export default health;
