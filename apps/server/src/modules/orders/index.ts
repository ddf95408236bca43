import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  LastRecipientResponse,
  PaymentOptionsResponse,
  PlaceOrderBody,
  QuoteBody,
  QuoteResponse,
} from '@shop/shared/checkout';
import {
  CancelOrderResponse,
  OrderDetail,
  OrderListQuery,
  OrderListResponse,
  OrderNoParams,
  PaymentForm,
  PlaceOrderResponse,
} from '@shop/shared/orders';
import { PickupStoreBody } from '@shop/shared/logistics';
import { orderDeps } from './deps.ts';
import * as checkout from './checkout.ts';
import { cancelByMember } from './lifecycle.ts';
import { changePickupStore } from './parcel-progress.ts';
import { getOrder, listOrders } from './read-models.ts';
import * as returns from './returns.ts';
import { BadRequestError } from '../../lib/errors.ts';
import type { ObjectStore } from '../storage/backends.ts';
import {
  MAX_RETURN_PHOTO_BYTES,
  RefundAccount,
  ReturnPhotoResponse,
  ReturnRequestBody,
} from '@shop/shared/returns';

/** Checkout and the member's orders (all routes need a session). */
const orders: FastifyPluginAsync<{ store: ObjectStore }> = async (app, options) => {
  app.addHook('onRequest', app.requireUser);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = () => orderDeps(app);

  r.post(
    '/api/checkout/quote',
    { schema: { body: QuoteBody, response: { 200: QuoteResponse } } },
    async (request) => checkout.quote(deps(), request.auth!.user.id, request.body),
  );

  r.get(
    '/api/checkout/last-recipient',
    { schema: { response: { 200: LastRecipientResponse } } },
    async (request) => checkout.lastRecipient(app.db, request.auth!.user.id),
  );

  r.get(
    '/api/checkout/payment-options',
    { schema: { response: { 200: PaymentOptionsResponse } } },
    async () => ({ linePay: deps().linePayOffered === true }),
  );

  r.post(
    '/api/orders',
    { schema: { body: PlaceOrderBody, response: { 201: PlaceOrderResponse } } },
    async (request, reply) => {
      const result = await checkout.placeOrder(deps(), request.auth!.user.id, request.body);
      // What was bought left the cart: the member's other pages and kept copies of it hear so.
      await app.events.publish(request.auth!.user.id, { type: 'cart.updated', data: {} });
      return reply.code(201).send(result);
    },
  );

  r.get(
    '/api/orders',
    { schema: { querystring: OrderListQuery, response: { 200: OrderListResponse } } },
    async (request) => listOrders(app.db, request.auth!.user.id, request.query.status, request.query.page),
  );

  r.get(
    '/api/orders/:orderNo',
    { schema: { params: OrderNoParams, response: { 200: OrderDetail } } },
    async (request) => getOrder(app.db, request.auth!.user.id, request.params.orderNo),
  );

  r.post(
    '/api/orders/:orderNo/cancel',
    { schema: { params: OrderNoParams, response: { 200: CancelOrderResponse } } },
    async (request) => cancelByMember(deps(), request.auth!.user.id, request.params.orderNo),
  );

  r.post(
    '/api/orders/:orderNo/pickup-store',
    { schema: { params: OrderNoParams, body: PickupStoreBody, response: { 200: OrderDetail } } },
    async (request) =>
      changePickupStore(deps(), request.auth!.user.id, request.params.orderNo, request.body.token),
  );

  const returnDeps = () => ({ ...deps(), store: options.store });

  r.post(
    '/api/orders/:orderNo/returns',
    { schema: { params: OrderNoParams, body: ReturnRequestBody, response: { 200: OrderDetail } } },
    async (request) =>
      returns.requestReturn(returnDeps(), request.auth!.user.id, request.params.orderNo, request.body),
  );

  r.put(
    '/api/orders/:orderNo/refund-account',
    { schema: { params: OrderNoParams, body: RefundAccount, response: { 200: OrderDetail } } },
    async (request) =>
      returns.giveRefundAccount(deps(), request.auth!.user.id, request.params.orderNo, request.body),
  );

  // A return's photo: the picture's own bytes as the body (its type is sniffed again from them).
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      ['image/jpeg', 'image/png', 'image/webp'],
      { parseAs: 'buffer', bodyLimit: MAX_RETURN_PHOTO_BYTES },
      (_request, body, done) => done(null, body),
    );
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/api/orders/:orderNo/return-photos',
      {
        config: { slowBody: true },
        schema: { params: OrderNoParams, response: { 201: ReturnPhotoResponse } },
      },
      async (request, reply) => {
        const body = request.body;
        if (!Buffer.isBuffer(body))
          throw new BadRequestError('照片請用 JPEG、PNG 或 WebP 格式。', {
            photos: '照片請用 JPEG、PNG 或 WebP 格式',
          });
        const photo = await returns.uploadReturnPhoto(
          returnDeps(),
          request.auth!.user.id,
          request.params.orderNo,
          body,
          request.headers['content-type'] ?? '',
        );
        return reply.code(201).send(photo);
      },
    );
  });

  r.post(
    '/api/orders/:orderNo/pay',
    { schema: { params: OrderNoParams, response: { 200: z.object({ payment: PaymentForm }) } } },
    async (request) => ({
      payment: await checkout.payAgain(deps(), request.auth!.user.id, request.params.orderNo),
    }),
  );
};

export default orders;
