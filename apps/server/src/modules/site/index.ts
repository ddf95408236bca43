import type { FastifyPluginAsync } from 'fastify';
import { MaintenanceStatus } from '@shop/shared/site';
import { StorefrontView } from '@shop/shared/storefront';
import { ShippingRules } from '@shop/shared/shipping';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendCached } from '../../lib/cached-json.ts';
import { serialise, type CachedBody } from '../../lib/response-cache.ts';
import { serveShippingRules, shippingRules } from './shipping-rules.ts';
import type { StorefrontCopy } from './storefront.ts';

/** Browsers may reuse the shipping table this long; checkout always prices on the server anyway. */
const SHIPPING_MAX_AGE_S = 5;

/**
 * GET /api/site/status: whether the shop is in maintenance, and until when.
 * GET /api/site/shipping-rules: the shipping fee table in force (the pages show it from here).
 * GET /api/site/storefront: the footer's facts and the measurement IDs the consent banner offers.
 */
const site: FastifyPluginAsync<{ storefront: StorefrontCopy }> = async (app, { storefront }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/site/storefront',
    { schema: { response: { 200: StorefrontView } } },
    async (_request, reply) => {
      // Short: a save shows to a browser that already read it within a minute (pages are dropped at once).
      reply.header('cache-control', 'public, max-age=60');
      return storefront.current();
    },
  );
  r.get('/api/site/status', { schema: { response: { 200: MaintenanceStatus } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return app.maintenanceStatus();
  });

  // Content tokens ({{home.fee}}) are filled from this app's copy of the rules.
  const stop = await serveShippingRules(app.db, (error) =>
    app.log.warn({ err: error }, 'shipping rules could not be read; using the last known ones'),
  );
  app.addHook('onClose', async () => stop());

  // Serialised once per rules object: the accessor hands out the same object until they change.
  const bodies = new WeakMap<object, CachedBody>();
  r.get('/api/site/shipping-rules', async (request, reply) => {
    const rules = await shippingRules(app.db);
    let body = bodies.get(rules);
    if (!body) {
      body = serialise(ShippingRules.parse(rules));
      bodies.set(rules, body);
    }
    return sendCached(request, reply, body, `public, max-age=${SHIPPING_MAX_AGE_S}`);
  });
};

export default site;
