import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RestockRequestBody, RestockRequestsResponse } from '@shop/shared/wishlist';
import * as restock from './restock.ts';

const VariantParams = z.object({ variantId: z.uuid('商品規格代碼不正確') });

/** A member's 貨到通知 requests (every route needs a session). */
const restockRoutes: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', app.requireUser);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/restock-requests',
    { schema: { response: { 200: RestockRequestsResponse } } },
    async (request) => ({ variantIds: await restock.waitingVariantIds(app.db, request.auth!.user.id) }),
  );

  r.post('/api/restock-requests', { schema: { body: RestockRequestBody } }, async (request, reply) => {
    await restock.requestRestock(app.db, request.auth!.user.id, request.body.variantId);
    return reply.code(204).send();
  });

  r.delete(
    '/api/restock-requests/:variantId',
    { schema: { params: VariantParams } },
    async (request, reply) => {
      await restock.cancelRestock(app.db, request.auth!.user.id, request.params.variantId);
      return reply.code(204).send();
    },
  );
};

/**
 * The routes, and the outbox handler that turns a claimed request into its mail (keyed by the
 * notice, so a notice delivered twice is still one mail).
 */
export default fp(
  async (app) => {
    app.outbox.handle(restock.RESTOCK_NOTICE, async (payload, message) => {
      const notice = payload as unknown as restock.RestockNotice;
      await app.mailer.queue(restock.restockMail(notice, app.config.publicUrl), message.key);
    });
    await app.register(restockRoutes);
  },
  { name: 'restock', dependencies: ['outbox', 'mail', 'session'] },
);
