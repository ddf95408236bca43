import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { RedirectLookupQuery, RedirectLookupResponse } from '@shop/shared/redirects';
import { lookupRedirect, onRedirectsChange } from './service.ts';

/** The event-bus channel of redirect edits (not a member: no page listens to it). */
const REDIRECTS_CHANNEL = 'redirects';

/** GET /api/redirects?path=/mall/old-slug → { redirect: { target, permanent } | null } */
const redirects: FastifyPluginAsync = async (app) => {
  // Other instances hear of an edit here (their kept pages).
  const unsubscribe = onRedirectsChange(
    () => void app.events.publish(REDIRECTS_CHANNEL, { type: 'redirects.changed', data: {} }),
  );
  app.addHook('onClose', async () => unsubscribe());
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/api/redirects',
      { schema: { querystring: RedirectLookupQuery, response: { 200: RedirectLookupResponse } } },
      async (request, reply) => {
        const redirect = await lookupRedirect(app.db, request.query.path);
        reply.header('cache-control', 'no-cache');
        return { redirect };
      },
    );
};

export default redirects;
