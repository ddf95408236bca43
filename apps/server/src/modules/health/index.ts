import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'drizzle-orm';

/** GET /api/health: 200 when the database answers, 503 when it does not. */
const health: FastifyPluginAsync = async (app) => {
  app.get('/api/health', async (request, reply) => {
    const started = performance.now();
    try {
      await app.db.execute(sql`select 1`);
    } catch (error) {
      request.log.error({ err: error }, 'health check: database did not answer');
      return reply.code(503).header('cache-control', 'no-store').send({ status: 'error', database: 'unavailable' });
    }
    // Redis is optional: without it the shop still works (degraded), so it never makes health fail.
    const redis = app.redis ? { redis: app.redis.state() } : {};
    return reply.header('cache-control', 'no-store').send({
      status: 'ok',
      database: app.database.engine,
      latencyMs: Math.round((performance.now() - started) * 10) / 10,
      ...redis,
    });
  });
};

export default health;
