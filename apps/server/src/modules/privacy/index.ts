import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DeleteAccountBody, EXPORT_FILE_PREFIX } from '@shop/shared/member-data';
import { OkResponse } from '@shop/shared/auth';
import { taipeiDay } from '@shop/shared/taipei-time';
import { assertRecentLogin } from '../auth/service.ts';
import { deleteMemberAccount, memberDataExport } from './service.ts';

/**
 * A member's own data: the export and deleting the account. Both need the password confirmed in
 * this session within the last 5 minutes (POST /api/auth/reauthenticate), as a password change does.
 */
const privacy: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', app.requireUser);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/me/data-export', async (request, reply) => {
    const now = new Date();
    await assertRecentLogin(app.db, request.auth!.sessionId, now);
    const data = await memberDataExport(app.db, request.auth!.user.id, now);
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header(
        'content-disposition',
        `attachment; filename="${EXPORT_FILE_PREFIX}-${taipeiDay(now, '')}.json"`,
      )
      .send(JSON.stringify(data, null, 2));
  });

  r.post(
    '/api/me/delete-account',
    { schema: { body: DeleteAccountBody, response: { 200: OkResponse } } },
    async (request, reply) => {
      const now = new Date();
      const userId = request.auth!.user.id;
      await assertRecentLogin(app.db, request.auth!.sessionId, now);
      await deleteMemberAccount({ db: app.db, mailer: app.mailer, ip: request.ip }, userId, now);
      await app.sessionsEnded(userId);
      reply.clearSessionCookies();
      return { ok: true as const };
    },
  );
};

export default privacy;
