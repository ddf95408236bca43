import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AdminMe, PERMISSIONS, can } from '@shop/shared/admin';
import { Dashboard } from '@shop/shared/admin-dashboard';
import { UnauthenticatedError } from '../../lib/errors.ts';
import { dashboard } from './dashboard.ts';

/**
 * The console's own pages: who is signed in (GET /api/admin/me: their role and what it may do),
 * and the dashboard.
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
};

export default consoleRoutes;
