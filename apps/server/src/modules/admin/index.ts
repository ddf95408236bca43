import type { FastifyPluginAsync } from 'fastify';
import { installAdminGuard, type AdminRouteEntry } from './guard.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api/admin route with the permission it needs (for the role-matrix test and docs). */
    adminRoutes: AdminRouteEntry[];
  }
}
import auditRoutes from './audit-routes.ts';
import contentRoutes from '../content/admin-routes.ts';
import couponRoutes from '../discounts/admin-routes.ts';
import dashboardRoutes from './dashboard.ts';
import meRoutes from './me.ts';
import memberRoutes from '../membership/admin-routes.ts';
import messageRoutes from '../contact/admin-routes.ts';
import orderRoutes from './orders.ts';
import productRoutes from './products.ts';
import redirectRoutes from '../redirects/admin-routes.ts';
import settingsRoutes from '../site/admin-routes.ts';
import staffRoutes from './staff.ts';

/**
 * The operations console's API under /api/admin: every route names its permission, the guard
 * checks the caller's role on the server, and every write leaves an audit row.
 */
const admin: FastifyPluginAsync<{ cliToken: string; registry: AdminRouteEntry[] }> = async (app, options) => {
  installAdminGuard(app, options.cliToken, options.registry);
  await app.register(meRoutes);
  await app.register(dashboardRoutes);
  await app.register(productRoutes);
  await app.register(orderRoutes);
  await app.register(memberRoutes);
  await app.register(couponRoutes);
  await app.register(contentRoutes);
  await app.register(messageRoutes);
  await app.register(redirectRoutes);
  await app.register(settingsRoutes);
  await app.register(staffRoutes);
  await app.register(auditRoutes);
};

export default admin;
