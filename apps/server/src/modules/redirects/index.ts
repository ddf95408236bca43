import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { RedirectLookupQuery, RedirectLookupResponse } from '@shop/shared/redirects';
import { lookupRedirect } from './service.ts';

/** GET /api/redirects?path=/mall/old-slug → { redirect: { target, permanent } | null } */
const redirects: FastifyPluginAsync = async (app) => {
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
