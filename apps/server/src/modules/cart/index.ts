import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AddCartItemBody, CartResponse, UpdateCartItemBody } from '@shop/shared/cart';
import * as service from './service.ts';
import type { MemberCarts } from './member-carts.ts';

const VariantParams = z.object({ variantId: z.uuid('商品規格代碼不正確') });

/** The member's cart (all routes need a session). `carts`: the carts kept for server-rendered pages. */
const cart: FastifyPluginAsync<{ carts: MemberCarts }> = async (app, { carts }) => {
  app.addHook('onRequest', app.requireUser);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const changed = (userId: string) => {
    carts.drop(userId);
    return app.events.publish(userId, { type: 'cart.updated', data: {} });
  };

  r.get('/api/cart', { schema: { response: { 200: CartResponse } } }, async (request) =>
    service.getCart(app.db, request.auth!.user.id),
  );

  r.post(
    '/api/cart/items',
    { schema: { body: AddCartItemBody, response: { 200: CartResponse } } },
    async (request) => {
      const result = await service.addItem(
        app.db,
        request.auth!.user.id,
        request.body.variantId,
        request.body.quantity,
      );
      await changed(request.auth!.user.id);
      return result;
    },
  );

  r.patch(
    '/api/cart/items/:variantId',
    { schema: { params: VariantParams, body: UpdateCartItemBody, response: { 200: CartResponse } } },
    async (request) => {
      const result = await service.updateItem(
        app.db,
        request.auth!.user.id,
        request.params.variantId,
        request.body.quantity,
      );
      await changed(request.auth!.user.id);
      return result;
    },
  );

  r.delete(
    '/api/cart/items/:variantId',
    { schema: { params: VariantParams, response: { 200: CartResponse } } },
    async (request) => {
      const result = await service.removeItem(app.db, request.auth!.user.id, request.params.variantId);
      await changed(request.auth!.user.id);
      return result;
    },
  );
};

export default cart;
