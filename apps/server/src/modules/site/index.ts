import type { FastifyPluginAsync } from 'fastify';
import { MaintenanceStatus } from '@shop/shared/site';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** GET /api/site/status: whether the shop is in maintenance, and until when. */
const site: FastifyPluginAsync = async (app) => {
  app.withTypeProvider<ZodTypeProvider>().get('/api/site/status', { schema: { response: { 200: MaintenanceStatus } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return app.maintenanceStatus();
  });
};

export default site;
