import type { FastifyInstance, FastifyRequest } from 'fastify';
import { can, isStaffRole, type Permission, type StaffRole } from '@shop/shared/admin';
import { ForbiddenError, UnauthenticatedError } from '../lib/errors.ts';
import { isLocalCli } from '../lib/this-machine.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api/admin route with the permission it needs (for the role-matrix test and docs). */
    adminRoutes: AdminRouteEntry[];
  }
  interface FastifyContextConfig {
    /** Every /api/admin route names the permission it needs (checked on the server, always). */
    permission?: Permission;
  }
  interface FastifyRequest {
    /** The staff member behind an admin request (or the local command line), once the guard passed. */
    staff: StaffActor | null;
  }
}

export interface StaffActor {
  readonly id: string | null;
  readonly email: string;
  readonly role: StaffRole;
}

/**
 * Guards an encapsulated scope of admin routes: anonymous callers get 401, shoppers 403, staff
 * whose role lacks the route's permission 403. The local command line (with the token the server
 * writes to DATA_DIR) acts as the owner. A route registered without a permission stops the
 * server from starting, so no admin route is ever left open by mistake.
 */
export interface AdminRouteEntry {
  readonly method: string;
  readonly url: string;
  readonly permission: Permission;
}

export function installAdminGuard(app: FastifyInstance, cliToken: string, registry: AdminRouteEntry[]): void {
  app.decorateRequest('staff', null);
  app.addHook('onRoute', (route) => {
    const permission = route.config?.permission;
    if (!permission)
      throw new Error(`admin route ${String(route.method)} ${route.url} declares no permission`);
    for (const method of [route.method].flat())
      if (method !== 'HEAD') registry.push({ method, url: route.url, permission });
  });
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (isLocalCli(request, cliToken)) {
      request.staff = { id: null, email: 'command-line', role: 'owner' };
    } else {
      if (!request.auth) throw new UnauthenticatedError('請先以管理員帳號登入。');
      const role = request.auth.user.role;
      if (!isStaffRole(role)) throw new ForbiddenError('這個帳號沒有管理後台的權限。');
      request.staff = { id: request.auth.user.id, email: request.auth.user.email, role };
    }
    const permission = request.routeOptions.config.permission;
    if (!permission || !can(request.staff.role, permission))
      throw new ForbiddenError('您的角色沒有權限進行這項操作。');
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
}
