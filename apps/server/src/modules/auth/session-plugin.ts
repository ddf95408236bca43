import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SIGNED_IN_COOKIE, TOKEN_COOKIE } from '@shop/shared/session';
import { ForbiddenError, UnauthenticatedError } from '../../lib/errors.ts';
import { isApiPath, routedPath } from '../../lib/routed-path.ts';
import { createSessionCache } from './session-cache.ts';
import { resolveSession, type AuthContext } from './session-service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user and session, or null. Set for every /api request. */
    auth: AuthContext | null;
  }
  interface FastifyReply {
    setSessionCookies(token: string, expiresAt: Date): FastifyReply;
    clearSessionCookies(): FastifyReply;
  }
  interface FastifyInstance {
    /** onRequest hook for member-only scopes: 401 without a live session. */
    requireUser: (request: FastifyRequest) => Promise<void>;
    /** The session token a request carries, if any (whatever the cookie is called here). */
    sessionTokenOf: (request: FastifyRequest) => string | undefined;
    /** The live session of any request, a page's too (request.auth is set for /api only). */
    visitorOf: (request: FastifyRequest) => Promise<AuthContext | null>;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The token cookie's name: `token`, and over HTTPS `__Host-token`, which browsers accept only
 * from this host, Secure and for the whole site, so no sibling subdomain can set or shadow it.
 */
export const tokenCookieName = (secure: boolean) => (secure ? `__Host-${TOKEN_COOKIE}` : TOKEN_COOKIE);

/**
 * Reads the HttpOnly `token` cookie, resolves it to a session, and keeps the companion cookie
 * in step. Cookie-authenticated writes must come from our own origin (CSRF defence in depth on
 * top of SameSite=Lax).
 */
export default fp(
  async (app) => {
    const secure = app.config.publicUrl.startsWith('https:');
    const publicOrigin = new URL(app.config.publicUrl).origin;

    await app.register(cookie);

    const baseCookie = { path: '/', sameSite: 'lax' as const, secure };
    const tokenCookie = tokenCookieName(secure);

    app.decorateReply('setSessionCookies', function (this: FastifyReply, token: string, expiresAt: Date) {
      this.setCookie(tokenCookie, token, { ...baseCookie, httpOnly: true, expires: expiresAt });
      this.setCookie(SIGNED_IN_COOKIE, '1', { ...baseCookie, httpOnly: false, expires: expiresAt });
      return this;
    });
    app.decorateReply('clearSessionCookies', function (this: FastifyReply) {
      this.clearCookie(tokenCookie, { ...baseCookie, httpOnly: true });
      this.clearCookie(SIGNED_IN_COOKIE, { ...baseCookie, httpOnly: false });
      return this;
    });
    app.decorateRequest('auth', null);

    // Signed-in lookups from memory for a few seconds, dropped at once when a member's sessions or
    // account change (docs/decisions/021).
    const cache = createSessionCache({ ttlMs: app.config.sessionCacheMs, max: 20_000 });
    let stop = () => {};
    // The events plugin registers after this one: listen once everything is loaded.
    app.addHook('onReady', async () => {
      stop = app.onSessionsEnded((userId) => (userId ? cache.forgetUser(userId) : cache.clear()));
    });
    app.addHook('onClose', async () => stop());

    app.addHook('onRequest', async (request, reply) => {
      if (!isApiPath(routedPath(request))) return;
      const token = request.cookies[tokenCookie];
      if (token && !SAFE_METHODS.has(request.method) && !isSameOrigin(request, publicOrigin)) {
        throw new ForbiddenError('請從本站頁面送出這項操作。', 'cross-site-request');
      }
      request.auth = token ? await resolveSession(app.db, token, new Date(), cache) : null;
      // A dead token, or a companion without a token, is cleared so the client stops
      // believing it is signed in.
      if (!request.auth && (token || request.cookies[SIGNED_IN_COOKIE])) reply.clearSessionCookies();
    });

    app.decorate('sessionTokenOf', (request: FastifyRequest) => request.cookies[tokenCookie]);
    app.decorate('visitorOf', async (request: FastifyRequest) => {
      if (request.auth) return request.auth;
      const token = request.cookies[tokenCookie];
      return token ? resolveSession(app.db, token, new Date(), cache) : null;
    });
    app.decorate('requireUser', async (request: FastifyRequest) => {
      if (!request.auth) throw new UnauthenticatedError();
    });
  },
  { name: 'session', dependencies: ['db', 'config'] },
);

/**
 * A browser write is same-origin when Origin (or, lacking it, Referer) names the public origin
 * or the Host it was sent to. Requests with neither header and no cross-site fetch metadata come
 * from non-browser clients, which cannot be made to carry a victim's cookie.
 */
function isSameOrigin(request: FastifyRequest, publicOrigin: string): boolean {
  // Fetch metadata, when the browser sends it, is the clearest signal (form posts may carry Origin: null).
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite === 'cross-site') return false;
  if (fetchSite === 'same-origin') return true;
  const source = request.headers.origin ?? refererOrigin(request.headers.referer);
  if (!source) return true;
  if (source === publicOrigin) return true;
  const host = request.headers.host;
  return host !== undefined && (source === `http://${host}` || source === `https://${host}`);
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'invalid';
  }
}
