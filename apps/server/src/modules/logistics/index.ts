import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { StoreSearchQuery, StoreSearchResponse } from '@shop/shared/checkout';

/** GET /api/logistics/stores?brand=7-ELEVEN&q=鹿谷 — the store picker of 超商取貨. */
const logistics: FastifyPluginAsync = async (app) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/logistics/stores',
    { onRequest: app.requireUser, schema: { querystring: StoreSearchQuery, response: { 200: StoreSearchResponse } } },
    async (request, reply) => {
      const stores = await app.stores.search(request.query.brand, request.query.q, 20);
      reply.header('cache-control', 'private, max-age=300');
      return { stores: stores.map((s) => ({ brand: s.brand, id: s.id, name: s.name, address: s.address })) };
    },
  );
};

export default logistics;
