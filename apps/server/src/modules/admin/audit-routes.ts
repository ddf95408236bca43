import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, count, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { AuditEntry, PagingQuery, pageOf } from '@shop/shared/admin';
import { auditLog } from '../../db/schema.ts';

const AuditQuery = PagingQuery.extend({
  entity: z.string().max(40, { message: '資料類型格式不正確', abort: true }).regex(/^[a-z-]{1,40}$/, '資料類型格式不正確').optional(),
  entityId: z.string().max(100).optional(),
  actor: z.string().max(254).optional(),
  from: z.iso.date({ message: '開始日期格式不正確' }).optional(),
  to: z.iso.date({ message: '結束日期格式不正確' }).optional(),
}).strict();

/** GET /api/admin/audit: the owner browses every console write, newest first. */
const auditRoutes: FastifyPluginAsync = async (app) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/admin/audit',
    { config: { permission: 'audit.read' }, schema: { querystring: AuditQuery, response: { 200: pageOf(AuditEntry) } } },
    async (request) => {
      const q = request.query;
      const where: SQL[] = [];
      if (q.entity) where.push(eq(auditLog.entity, q.entity));
      if (q.entityId) where.push(eq(auditLog.entityId, q.entityId));
      if (q.actor) where.push(eq(auditLog.actorEmail, q.actor.trim().toLowerCase()));
      if (q.from) where.push(gte(auditLog.at, new Date(`${q.from}T00:00:00+08:00`)));
      if (q.to) where.push(lt(auditLog.at, new Date(new Date(`${q.to}T00:00:00+08:00`).getTime() + 86_400_000)));
      const filter = where.length ? and(...where) : undefined;
      const [rows, [total]] = await Promise.all([
        app.db.select().from(auditLog).where(filter).orderBy(desc(auditLog.id)).limit(q.pageSize).offset((q.page - 1) * q.pageSize),
        app.db.select({ n: count() }).from(auditLog).where(filter),
      ]);
      const n = Number(total?.n ?? 0);
      return {
        items: rows.map((r) => ({ id: String(r.id), at: r.at.toISOString(), actorEmail: r.actorEmail, actorRole: r.actorRole, action: r.action, entity: r.entity, entityId: r.entityId, before: r.before, after: r.after })),
        page: q.page,
        pageSize: q.pageSize,
        total: n,
        totalPages: Math.max(1, Math.ceil(n / q.pageSize)),
      };
    },
  );
};

export default auditRoutes;
