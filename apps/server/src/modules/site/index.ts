import { createHash } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { MaintenanceStatus } from '@shop/shared/site';
import { ShippingRules } from '@shop/shared/shipping';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { serveShippingRules, shippingRules } from './shipping-rules.ts';

/** Browsers may reuse the shipping table this long; checkout always prices on the server anyway. */
const SHIPPING_MAX_AGE_S = 5;

/**
 * GET /api/site/status: whether the shop is in maintenance, and until when.
 * GET /api/site/shipping-rules: the shipping fee table in force (the pages show it from here).
 */
const site: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/site/status', { schema: { response: { 200: MaintenanceStatus } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return app.maintenanceStatus();
  });

  // Content tokens ({{home.fee}}) are filled from this app's copy of the rules.
  const stop = await serveShippingRules(app.db, (error) => app.log.warn({ err: error }, 'shipping rules could not be read; using the last known ones'));
  app.addHook('onClose', async () => stop());

  r.get('/api/site/shipping-rules', async (request, reply) => {
    const rules = ShippingRules.parse(await shippingRules(app.db));
    const json = JSON.stringify(rules);
    const etag = `"${createHash('sha1').update(json).digest('base64url')}"`;
    reply.header('etag', etag).header('cache-control', `public, max-age=${SHIPPING_MAX_AGE_S}`);
    const match = request.headers['if-none-match'];
    if (match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(json);
  });
};

export default site;
