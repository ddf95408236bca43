import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MeResponse } from '@shop/shared/auth';
import { toCurrentUser } from './present.ts';

/** Identity routes. The current-user lookup answers for anyone: null when signed out. */
const auth: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/auth/me', { schema: { response: { 200: MeResponse } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { user: request.auth ? toCurrentUser(request.auth.user) : null };
  });
};

export default auth;
