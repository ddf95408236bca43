import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CartResponse } from '@shop/shared/cart';
import { WishlistIdsResponse, WishlistResponse, WishlistToCartBody } from '@shop/shared/wishlist';
import * as service from './service.ts';

const ProductParams = z.object({ productId: z.uuid('商品代碼不正確') });

/** The member's 收藏 (every route needs a session). */
const wishlist: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', app.requireUser);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/wishlist', { schema: { response: { 200: WishlistResponse } } }, async (request) =>
    service.wishlist(app.db, request.auth!.user.id),
  );

  r.get('/api/wishlist/ids', { schema: { response: { 200: WishlistIdsResponse } } }, async (request) => ({
    productIds: await service.wishlistIds(app.db, request.auth!.user.id),
  }));

  r.put('/api/wishlist/:productId', { schema: { params: ProductParams } }, async (request, reply) => {
    await service.keep(app.db, request.auth!.user.id, request.params.productId);
    return reply.code(204).send();
  });

  r.delete('/api/wishlist/:productId', { schema: { params: ProductParams } }, async (request, reply) => {
    await service.drop(app.db, request.auth!.user.id, request.params.productId);
    return reply.code(204).send();
  });

  r.post(
    '/api/wishlist/:productId/cart',
    { schema: { params: ProductParams, body: WishlistToCartBody, response: { 200: CartResponse } } },
    async (request) => {
      const userId = request.auth!.user.id;
      const cart = await app.db.transaction((tx) =>
        service.moveToCart(tx, userId, request.params.productId, request.body.variantId),
      );
      await app.events.publish(userId, { type: 'cart.updated', data: {} });
      return cart;
    },
  );
};

export default wishlist;
