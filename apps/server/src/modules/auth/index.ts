import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ActionCodeInfo,
  ActionCodeQuery,
  ChangePasswordBody,
  ForgotPasswordBody,
  LoginBody,
  MeResponse,
  OkResponse,
  ReauthenticateBody,
  ReauthenticateResponse,
  RegisterBody,
  ResendVerificationResponse,
  ResetPasswordBody,
  UserResponse,
  VerifyEmailBody,
  VerifyEmailResponse,
} from '@shop/shared/auth';
import { AUTH_ERROR_MESSAGES, AuthErrorCode } from '@shop/shared/auth-errors';
import { errorHandler } from '../../lib/error-body.ts';
import { requestMeta as meta, setDeviceCookie } from './http.ts';
import { toCurrentUser } from './present.ts';
import * as service from './service.ts';
import socialRoutes from './social-routes.ts';

/** Identity API (accounts issue). Every answer is no-store: it is about one person. */
const auth: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = (): service.AuthDeps => ({
    db: app.db,
    limiter: app.limiter,
    mailer: app.mailer,
    publicUrl: app.config.publicUrl,
    sessionsEnded: app.sessionsEnded,
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  // A malformed e-mail address answers the identity code `invalid-email` (docs/product-rules.md#error-codes), with the field message kept;
  // a malformed link code (a made-up or cut-off link) is an invalid link, said in plain words, not "the address's conditions".
  app.setErrorHandler(
    errorHandler((body) =>
      body.error.code === 'invalid-argument' && body.error.fields?.email
        ? { error: { ...body.error, code: AuthErrorCode.invalidEmail } }
        : body.error.code === 'invalid-argument' && body.error.fields?.code
          ? {
              error: {
                code: AuthErrorCode.invalidActionCode,
                message: AUTH_ERROR_MESSAGES[AuthErrorCode.invalidActionCode],
              },
            }
          : body,
    ),
  );

  // LINE and Google sign-in (OpenID Connect), in this scope: no-store, the same error shapes.
  await app.register(socialRoutes);

  r.get('/api/auth/me', { schema: { response: { 200: MeResponse } } }, async (request) => ({
    user: request.auth ? toCurrentUser(request.auth.user) : null,
  }));

  r.post(
    '/api/auth/register',
    { schema: { body: RegisterBody, response: { 201: UserResponse } } },
    async (request, reply) => {
      const { user, session, device } = await service.register(deps(), request.body, meta(request));
      reply.setSessionCookies(session.token, session.expiresAt).code(201);
      setDeviceCookie(reply, device, app.config.publicUrl);
      return { user: toCurrentUser(user) };
    },
  );

  r.post(
    '/api/auth/login',
    { schema: { body: LoginBody, response: { 200: UserResponse } } },
    async (request, reply) => {
      const { user, session, device } = await service.login(
        deps(),
        request.body,
        meta(request),
        request.auth?.sessionId ?? null,
      );
      // The session this browser had before has ended: its live-update streams close.
      if (request.auth) await app.sessionsEnded(request.auth.user.id);
      reply.setSessionCookies(session.token, session.expiresAt);
      setDeviceCookie(reply, device, app.config.publicUrl);
      return { user: toCurrentUser(user) };
    },
  );

  r.post('/api/auth/logout', { schema: { response: { 200: OkResponse } } }, async (request, reply) => {
    if (request.auth) {
      await service.logout(deps(), request.auth.sessionId);
      await app.sessionsEnded(request.auth.user.id);
    }
    reply.clearSessionCookies();
    return { ok: true as const };
  });

  r.post(
    '/api/auth/verify-email',
    { schema: { body: VerifyEmailBody, response: { 200: VerifyEmailResponse } } },
    async (request) => {
      const current = request.auth ? { id: request.auth.sessionId, userId: request.auth.user.id } : null;
      const result = await service.verifyEmail(deps(), request.body.code, current);
      // Only the signed-in owner gets their user back; a link opened elsewhere learns nothing more.
      const mine = request.auth?.user.id === result.user.id;
      return {
        email: result.email,
        user: mine ? toCurrentUser(result.user) : null,
        ...('alreadyVerified' in result ? { alreadyVerified: true as const } : {}),
      };
    },
  );

  r.post(
    '/api/auth/resend-verification',
    { onRequest: app.requireUser, schema: { response: { 200: ResendVerificationResponse } } },
    async (request) => service.resendVerification(deps(), request.auth!.user.id, meta(request)),
  );

  r.get(
    '/api/auth/action-code',
    { schema: { querystring: ActionCodeQuery, response: { 200: ActionCodeInfo } } },
    async (request) => service.checkActionCode(deps(), request.query.code, request.query.kind),
  );

  r.post(
    '/api/auth/forgot-password',
    { schema: { body: ForgotPasswordBody, response: { 200: OkResponse } } },
    async (request) => {
      await service.forgotPassword(deps(), request.body.email, meta(request));
      return { ok: true as const };
    },
  );

  r.post(
    '/api/auth/reset-password',
    { schema: { body: ResetPasswordBody, response: { 200: ActionCodeInfo } } },
    async (request, reply) => {
      const { device, ...result } = await service.resetPassword(deps(), request.body, meta(request));
      // Every session of the account ended, including this browser's if it had one; the browser
      // that proved the mailbox becomes a known device.
      reply.clearSessionCookies();
      setDeviceCookie(reply, device, app.config.publicUrl);
      return result;
    },
  );

  r.post(
    '/api/auth/reauthenticate',
    {
      onRequest: app.requireUser,
      schema: { body: ReauthenticateBody, response: { 200: ReauthenticateResponse } },
    },
    async (request) =>
      service.reauthenticate(
        deps(),
        request.auth!.user.id,
        request.auth!.sessionId,
        request.body.password,
        meta(request),
      ),
  );

  r.post(
    '/api/auth/change-password',
    { onRequest: app.requireUser, schema: { body: ChangePasswordBody, response: { 200: OkResponse } } },
    async (request, reply) => {
      const { device } = await service.changePassword(
        deps(),
        request.auth!.user.id,
        request.auth!.sessionId,
        request.body,
        meta(request),
      );
      setDeviceCookie(reply, device, app.config.publicUrl);
      return { ok: true as const };
    },
  );
};

export default auth;
