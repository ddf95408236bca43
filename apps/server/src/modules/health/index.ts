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
    return reply.header('cache-control', 'no-store').send({
      status: 'ok',
      database: app.database.engine,
      latencyMs: Math.round((performance.now() - started) * 10) / 10,
    });
  });
};

export default health;
