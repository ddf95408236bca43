import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AdminMe, PERMISSIONS, can } from '@shop/shared/admin';
import { UnauthenticatedError } from '../../lib/errors.ts';

/** GET /api/admin/me: who is signed in to the console, their role and what it may do. */
const me: FastifyPluginAsync = async (app) => {
  app.withTypeProvider<ZodTypeProvider>().get('/api/admin/me', { config: { permission: 'dashboard.read' }, schema: { response: { 200: AdminMe } } }, async (request) => {
    const staff = request.staff!;
    const user = request.auth?.user;
    if (!user) throw new UnauthenticatedError('請先以管理員帳號登入。');
    return { uid: user.id, email: user.email, displayName: user.displayName, role: staff.role, permissions: PERMISSIONS.filter((p) => can(staff.role, p)) };
  });
};

export default me;
