import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { PagingQuery, type AuditEntry, type PageOf } from '@shop/shared/admin';
import { pageResult, pageWindow } from '@shop/shared/paging';
import type { DbOrTx } from '../../db/client.ts';
import * as repo from './repo.ts';

export interface AuditInput {
  /** e.g. `product.update`, `order.ship`, `content.publish`. */
  readonly action: string;
  readonly entity: string;
  readonly entityId?: string | null;
  readonly before?: unknown;
  readonly after?: unknown;
}

/**
 * Records one console write. Call it inside the same transaction as the change, so the trail and
 * the data never disagree.
 */
export async function recordAudit(db: DbOrTx, request: FastifyRequest, entry: AuditInput): Promise<void> {
  const staff = request.staff;
  await repo.insertAudit(db, {
    actorId: staff?.id ?? null,
    actorEmail: staff?.email ?? null,
    actorRole: staff?.role ?? null,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId ?? null,
    before: entry.before === undefined ? null : (entry.before as object),
    after: entry.after === undefined ? null : (entry.after as object),
    ip: request.ip,
  });
}

/** The audit browser's filters; `from` and `to` are Taipei calendar days, both included. */
export const AuditQuery = PagingQuery.extend({
  entity: z
    .string()
    .max(40, { message: '資料類型格式不正確', abort: true })
    .regex(/^[a-z-]{1,40}$/, '資料類型格式不正確')
    .optional(),
  entityId: z.string().max(100).optional(),
  actor: z.string().max(254).optional(),
  from: z.iso.date({ message: '開始日期格式不正確' }).optional(),
  to: z.iso.date({ message: '結束日期格式不正確' }).optional(),
}).strict();
export type AuditQuery = z.infer<typeof AuditQuery>;

/** The owner browses every console write, newest first. */
export async function listAudit(db: DbOrTx, q: AuditQuery): Promise<PageOf<AuditEntry>> {
  const { items, total } = await repo.auditPage(
    db,
    {
      entity: q.entity,
      entityId: q.entityId,
      actorEmail: q.actor ? q.actor.trim().toLowerCase() : undefined,
      from: q.from ? new Date(`${q.from}T00:00:00+08:00`) : undefined,
      before: q.to ? new Date(new Date(`${q.to}T00:00:00+08:00`).getTime() + 86_400_000) : undefined,
    },
    pageWindow(q.page, q.pageSize),
  );
  const entries = items.map((r) => ({
    id: String(r.id),
    at: r.at.toISOString(),
    actorEmail: r.actorEmail,
    actorRole: r.actorRole,
    action: r.action,
    entity: r.entity,
    entityId: r.entityId,
    before: r.before,
    after: r.after,
  }));
  return pageResult(entries, q.page, q.pageSize, total);
}
