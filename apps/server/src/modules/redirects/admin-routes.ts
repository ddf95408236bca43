import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { pageOf } from '@shop/shared/admin';
import {
  AdminRedirect,
  RedirectBody,
  RedirectListQuery,
  RedirectPathQuery,
} from '@shop/shared/admin-settings';
import { recordAudit } from '../../plugins/audit.ts';
import { createRedirect, listRedirects, removeRedirect, updateRedirect } from './admin-service.ts';
import { redirectsChanged } from './service.ts';

/**
 * Console API for redirects (old addresses, mostly renamed or retired products): list and search,
 * add, change the target, delete. Paths are stored in the lookup's normal form.
 */
const redirectsRoutes: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // A write that committed: kept pages that looked a path up may be wrong now.
  app.addHook('onResponse', async (request, reply) => {
    if (request.method !== 'GET' && reply.statusCode < 400) redirectsChanged();
  });

  r.get(
    '/api/admin/redirects',
    {
      config: { permission: 'redirects.read' },
      schema: { querystring: RedirectListQuery, response: { 200: pageOf(AdminRedirect) } },
    },
    async (request) => listRedirects(app.db, request.query),
  );

  r.post(
    '/api/admin/redirects',
    {
      config: { permission: 'redirects.write' },
      schema: { body: RedirectBody, response: { 200: AdminRedirect } },
    },
    async (request) =>
      app.db.transaction(async (tx) => {
        const change = await createRedirect(
          tx,
          request.body.path,
          request.body.target,
          request.body.permanent,
        );
        await recordAudit(tx, request, {
          action: 'redirect.create',
          entity: 'redirect',
          entityId: change.path,
          after: change.after,
        });
        return change.view!;
      }),
  );

  r.put(
    '/api/admin/redirects',
    {
      config: { permission: 'redirects.write' },
      schema: { body: RedirectBody, response: { 200: AdminRedirect } },
    },
    async (request) =>
      app.db.transaction(async (tx) => {
        const change = await updateRedirect(
          tx,
          request.body.path,
          request.body.target,
          request.body.permanent,
        );
        await recordAudit(tx, request, {
          action: 'redirect.update',
          entity: 'redirect',
          entityId: change.path,
          before: change.before,
          after: change.after,
        });
        return change.view!;
      }),
  );

  r.delete(
    '/api/admin/redirects',
    { config: { permission: 'redirects.write' }, schema: { querystring: RedirectPathQuery } },
    async (request, reply) => {
      await app.db.transaction(async (tx) => {
        const change = await removeRedirect(tx, request.query.path);
        await recordAudit(tx, request, {
          action: 'redirect.delete',
          entity: 'redirect',
          entityId: change.path,
          before: change.before,
        });
      });
      return reply.code(204).send();
    },
  );
};

export default redirectsRoutes;
