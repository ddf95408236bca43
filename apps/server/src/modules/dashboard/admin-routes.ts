import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Dashboard } from '@shop/shared/admin-dashboard';
import { dashboard } from './service.ts';

/** The console's first page: the dashboard. */
const dashboardRoutes: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/admin/dashboard',
    { config: { permission: 'dashboard.read' }, schema: { response: { 200: Dashboard } } },
    async () => dashboard(app.db),
  );
};

export default dashboardRoutes;
