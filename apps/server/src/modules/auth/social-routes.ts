import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OkResponse } from '@shop/shared/auth';
import {
  SignInMethodsResponse,
  SocialCodeProofBody,
  SocialDoneResponse,
  SocialEmailBody,
  SocialPasswordProofBody,
  SocialPendingResponse,
  SocialProviderId,
  SocialProvidersResponse,
} from '@shop/shared/social-sign-in';
import { ownFetch } from '../../lib/form-post.ts';
import { requestMeta as meta } from './http.ts';
import { OidcClients } from './oidc-client.ts';
import { PENDING_TTL_MS } from './social-service.ts';
import * as social from './social-service.ts';

/** The browser's handle on its trip to a provider (social-service.ts); only the API reads it. */
const TRIP_COOKIE = 'social_trip';
const TRIP_COOKIE_PATH = '/api/auth/oidc/';

const ProviderParams = z.object({ provider: SocialProviderId });
const StartQuery = z.object({
  redirect: z.string().max(2000).optional(),
  intent: z.enum(['sign-in', 'link']).default('sign-in'),
});

/**
 * Sign-in through LINE and Google (OpenID Connect): the trip out and back, the steps that may
 * follow (an e-mail for the new account, proof of an existing one), and the member's list of
 * sign-in methods. Registered inside the identity module, so its answers are no-store too.
 */
const socialRoutes: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { publicUrl } = app.config;
  const clients = new OidcClients(app.config.socialSignIn, publicUrl, ownFetch(app, publicUrl));
  const deps = (): social.SocialDeps => ({
    db: app.db,
    limiter: app.limiter,
    mailer: app.mailer,
    publicUrl,
    sessionsEnded: app.sessionsEnded,
    clients,
  });
  const secure = publicUrl.startsWith('https:');
  const tripCookie = (reply: FastifyReply, token: string | null) =>
    token
      ? reply.setCookie(TRIP_COOKIE, token, {
          path: TRIP_COOKIE_PATH,
          httpOnly: true,
          // Lax: the provider's redirect back is a top-level GET, which carries it.
          sameSite: 'lax',
          secure,
          maxAge: PENDING_TTL_MS / 1000,
        })
      : reply.clearCookie(TRIP_COOKIE, { path: TRIP_COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure });
  const current = (request: FastifyRequest) =>
    request.auth ? { sessionId: request.auth.sessionId, userId: request.auth.user.id } : null;

  /** Carries a step's outcome out: cookies, and the log line. */
  async function conclude(request: FastifyRequest, reply: FastifyReply, outcome: social.SocialOutcome) {
    if (outcome.kind === 'pending') {
      tripCookie(reply, outcome.token);
      return outcome.redirect;
    }
    tripCookie(reply, null);
    if (outcome.kind === 'signed-in') {
      // The session this browser had before has ended: its live-update streams close.
      if (request.auth) await app.sessionsEnded(request.auth.user.id);
      reply.setSessionCookies(outcome.session.token, outcome.session.expiresAt);
      request.log.info({ event: 'social-sign-in', userId: outcome.user.id }, 'signed in through a provider');
    } else if (outcome.kind === 'linked') {
      request.log.info({ event: 'social-linked', userId: outcome.userId }, 'sign-in method linked');
    }
    return outcome.redirect;
  }

  r.get('/api/auth/oidc/providers', { schema: { response: { 200: SocialProvidersResponse } } }, async () => ({
    providers: clients.offered(),
  }));

  r.get(
    '/api/auth/oidc/:provider/start',
    { schema: { params: ProviderParams, querystring: StartQuery } },
    async (request, reply) => {
      const { provider } = request.params;
      const { intent, redirect } = request.query;
      if (intent === 'link' && !request.auth) return reply.redirect('/login?redirect=%2Fmember', 303);
      const trip = await social.startTrip(
        deps(),
        provider,
        { intent, userId: request.auth?.user.id ?? null, returnTo: redirect },
        meta(request),
      );
      tripCookie(reply, trip.token);
      return reply.redirect(trip.url, 303);
    },
  );

  r.get(
    '/api/auth/oidc/:provider/callback',
    { schema: { params: ProviderParams } },
    async (request, reply) => {
      const query = request.url.split('?')[1] ?? '';
      const outcome = await social.finishTrip(
        deps(),
        request.params.provider,
        request.cookies[TRIP_COOKIE],
        query,
        meta(request),
        current(request),
        (message, error) => request.log.warn({ err: error, provider: request.params.provider }, message),
      );
      return reply.redirect(await conclude(request, reply, outcome), 303);
    },
  );

  r.get('/api/auth/oidc/pending', { schema: { response: { 200: SocialPendingResponse } } }, async (request) =>
    social.pending(deps(), request.cookies[TRIP_COOKIE]),
  );

  r.post(
    '/api/auth/oidc/email',
    { schema: { body: SocialEmailBody, response: { 200: SocialDoneResponse } } },
    async (request, reply) => {
      const outcome = await social.giveEmail(
        deps(),
        request.cookies[TRIP_COOKIE],
        request.body.email,
        meta(request),
        current(request),
      );
      return { redirect: await conclude(request, reply, outcome) };
    },
  );

  r.post('/api/auth/oidc/proof-code/send', { schema: { response: { 200: OkResponse } } }, async (request) => {
    await social.sendProofCode(deps(), request.cookies[TRIP_COOKIE], meta(request));
    return { ok: true as const };
  });

  r.post(
    '/api/auth/oidc/proof-code',
    { schema: { body: SocialCodeProofBody, response: { 200: SocialDoneResponse } } },
    async (request, reply) => {
      const outcome = await social.proveWithCode(
        deps(),
        request.cookies[TRIP_COOKIE],
        request.body.code,
        meta(request),
        current(request),
      );
      return { redirect: await conclude(request, reply, outcome) };
    },
  );

  r.post(
    '/api/auth/oidc/proof-password',
    { schema: { body: SocialPasswordProofBody, response: { 200: SocialDoneResponse } } },
    async (request, reply) => {
      const outcome = await social.proveWithPassword(
        deps(),
        request.cookies[TRIP_COOKIE],
        request.body.password,
        meta(request),
        current(request),
      );
      return { redirect: await conclude(request, reply, outcome) };
    },
  );

  r.get(
    '/api/auth/sign-in-methods',
    { onRequest: app.requireUser, schema: { response: { 200: SignInMethodsResponse } } },
    async (request) => social.signInMethods(deps(), request.auth!.user.id),
  );

  r.delete(
    '/api/auth/sign-in-methods/:provider',
    { onRequest: app.requireUser, schema: { params: ProviderParams, response: { 200: OkResponse } } },
    async (request) => {
      await social.unlink(deps(), request.auth!.user.id, request.params.provider);
      request.log.info(
        { event: 'social-unlinked', userId: request.auth!.user.id, provider: request.params.provider },
        'sign-in method unlinked',
      );
      return { ok: true as const };
    },
  );
};

export default socialRoutes;
