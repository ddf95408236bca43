import type { FastifyPluginAsync } from 'fastify';
import { installAdminGuard, type AdminRouteEntry } from '../../plugins/staff-guard.ts';
import contentRoutes from '../content/admin-routes.ts';
import couponRoutes from '../discounts/admin-routes.ts';
import dashboardRoutes from '../dashboard/admin-routes.ts';
import memberRoutes from '../membership/admin-routes.ts';
import messageRoutes from '../contact/admin-routes.ts';
import orderRoutes from '../orders/admin-routes.ts';
import returnRoutes from '../orders/returns-admin-routes.ts';
import logisticsRoutes from '../logistics/admin-routes.ts';
import productRoutes from '../catalog/admin-routes.ts';
import redirectRoutes from '../redirects/admin-routes.ts';
import settingsRoutes from '../site/admin-routes.ts';
import staffRoutes from '../auth/admin-routes.ts';
import outboxRoutes from '../../plugins/outbox-routes.ts';
import auditRoutes from '../../plugins/audit-routes.ts';

/**
 * The operations console's API under /api/admin, assembled here and nowhere else: the staff guard
 * (plugins/staff-guard.ts) over every domain's console routes. Every route names its permission,
 * the guard checks the caller's role on the server, and every write leaves an audit row
 * (plugins/audit.ts). No domain imports this module.
 */
const admin: FastifyPluginAsync<{ cliToken: string; registry: AdminRouteEntry[] }> = async (app, options) => {
  installAdminGuard(app, options.cliToken, options.registry);
  await app.register(dashboardRoutes);
  await app.register(productRoutes);
  await app.register(orderRoutes);
  await app.register(returnRoutes);
  await app.register(logisticsRoutes);
  await app.register(memberRoutes);
  await app.register(couponRoutes);
  await app.register(contentRoutes);
  await app.register(messageRoutes);
  await app.register(redirectRoutes);
  await app.register(settingsRoutes);
  await app.register(staffRoutes);
  await app.register(outboxRoutes);
  await app.register(auditRoutes);
};

export default admin;
