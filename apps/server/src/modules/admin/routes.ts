import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AdminMe, AuditEntry, PERMISSIONS, can, pageOf } from '@shop/shared/admin';
import { Dashboard } from '@shop/shared/admin-dashboard';
import { UnauthenticatedError } from '../../lib/errors.ts';
import { AuditQuery, listAudit } from './audit.ts';
import { dashboard } from './dashboard.ts';

/**
 * The console's own pages: who is signed in (GET /api/admin/me: their role and what it may do),
 * the dashboard, and the owner's audit browser (every console write, newest first).
 */
const consoleRoutes: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/admin/me',
    { config: { permission: 'dashboard.read' }, schema: { response: { 200: AdminMe } } },
    async (request) => {
      const staff = request.staff!;
      const user = request.auth?.user;
      if (!user) throw new UnauthenticatedError('請先以管理員帳號登入。');
      return {
        uid: user.id,
        email: user.email,
        displayName: user.displayName,
        role: staff.role,
        permissions: PERMISSIONS.filter((p) => can(staff.role, p)),
      };
    },
  );

  r.get(
    '/api/admin/dashboard',
    { config: { permission: 'dashboard.read' }, schema: { response: { 200: Dashboard } } },
    async () => dashboard(app.db),
  );

  r.get(
    '/api/admin/audit',
    {
      config: { permission: 'audit.read' },
      schema: { querystring: AuditQuery, response: { 200: pageOf(AuditEntry) } },
    },
    async (request) => listAudit(app.db, request.query),
  );
};

export default consoleRoutes;
