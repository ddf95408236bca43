import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PlaceOrderBody, QuoteBody, QuoteResponse } from '@shop/shared/checkout';
import { OrderDetail, OrderListQuery, OrderListResponse, OrderNoParams, PaymentForm, PlaceOrderResponse } from '@shop/shared/orders';
import { PickupStoreBody } from '@shop/shared/logistics';
import { orderDeps } from './deps.ts';
import * as service from './service.ts';

/** Checkout and the member's orders (all routes need a session). */
const orders: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', app.requireUser);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = () => orderDeps(app);

  r.post('/api/checkout/quote', { schema: { body: QuoteBody, response: { 200: QuoteResponse } } }, async (request) =>
    service.quote(deps(), request.auth!.user.id, request.body),
  );

  r.post('/api/orders', { schema: { body: PlaceOrderBody, response: { 201: PlaceOrderResponse } } }, async (request, reply) => {
    const result = await service.placeOrder(deps(), request.auth!.user.id, request.body);
    return reply.code(201).send(result);
  });

  r.get('/api/orders', { schema: { querystring: OrderListQuery, response: { 200: OrderListResponse } } }, async (request) =>
    service.listOrders(app.db, request.auth!.user.id, request.query.status, request.query.page),
  );

  r.get('/api/orders/:orderNo', { schema: { params: OrderNoParams, response: { 200: OrderDetail } } }, async (request) =>
    service.getOrder(app.db, request.auth!.user.id, request.params.orderNo),
  );

  r.post('/api/orders/:orderNo/cancel', { schema: { params: OrderNoParams, response: { 200: OrderDetail } } }, async (request) =>
    service.cancelByMember(deps(), request.auth!.user.id, request.params.orderNo),
  );

  r.post('/api/orders/:orderNo/pickup-store', { schema: { params: OrderNoParams, body: PickupStoreBody, response: { 200: OrderDetail } } }, async (request) =>
    service.changePickupStore(deps(), request.auth!.user.id, request.params.orderNo, request.body.token),
  );

  r.post('/api/orders/:orderNo/pay', { schema: { params: OrderNoParams, response: { 200: z.object({ payment: PaymentForm }) } } }, async (request) => ({
    payment: await service.payAgain(deps(), request.auth!.user.id, request.params.orderNo),
  }));
};

export default orders;
