import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AuditEntry, pageOf } from '@shop/shared/admin';
import { AuditQuery, listAudit } from './audit.ts';

/**
 * The owner's audit browser (GET /api/admin/audit): every console write, newest first. The console
 * registers it inside its guarded scope.
 */
const auditRoutes: FastifyPluginAsync = async (app) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/admin/audit',
    {
      config: { permission: 'audit.read' },
      schema: { querystring: AuditQuery, response: { 200: pageOf(AuditEntry) } },
    },
    async (request) => listAudit(app.db, request.query),
  );
};

export default auditRoutes;
