import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LabelsBody, LabelsResponse } from '@shop/shared/logistics';
import { labelsFor } from './shipments.ts';

/** The console's logistics: labels for one order or a batch (the forms the browser posts to ECPay's print pages). */
const logisticsAdmin: FastifyPluginAsync = async (app) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/admin/logistics/labels',
    {
      config: { permission: 'orders.write' },
      schema: { body: LabelsBody, response: { 200: LabelsResponse } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return labelsFor(
        { db: app.db, settings: app.config.logistics, publicUrl: app.config.publicUrl },
        request.body.orderNos,
      );
    },
  );
};

export default logisticsAdmin;
