import type { FastifyRequest } from 'fastify';
import { and, count, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { PagingQuery, type AuditEntry, type PageOf } from '@shop/shared/admin';
import { pageResult, pageWindow, type PageWindow } from '@shop/shared/paging';
import type { DbOrTx } from '../db/client.ts';
import { readTogether } from '../db/reads.ts';
import { auditLog } from '../db/schema.ts';
import type { StaffActor } from './staff-guard.ts';

/**
 * The audit trail: every console write leaves a row (who, what, before and after), recorded in the
 * transaction that makes the change, and the owner browses them (audit-routes.ts). Infrastructure
 * every domain's console routes use, so it lives here and not in a domain.
 */

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
  await recordAuditBy(db, request.staff, request.ip, entry);
}

/**
 * Records one write made outside the console's guarded scope, by the actor named here (a staff
 * invite accepted by the invitee, from the password page).
 */
export async function recordAuditBy(
  db: DbOrTx,
  actor: StaffActor | null,
  ip: string | null,
  entry: AuditInput,
): Promise<void> {
  await db.insert(auditLog).values({
    actorId: actor?.id ?? null,
    actorEmail: actor?.email ?? null,
    actorRole: actor?.role ?? null,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId ?? null,
    before: entry.before === undefined ? null : (entry.before as object),
    after: entry.after === undefined ? null : (entry.after as object),
    ip,
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
  const { items, total } = await auditPage(
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

/** One page of audit rows, newest first (`before` is exclusive). */
async function auditPage(
  db: DbOrTx,
  f: {
    entity?: string | undefined;
    entityId?: string | undefined;
    actorEmail?: string | undefined;
    from?: Date | undefined;
    before?: Date | undefined;
  },
  window: PageWindow,
) {
  const where: SQL[] = [];
  if (f.entity) where.push(eq(auditLog.entity, f.entity));
  if (f.entityId) where.push(eq(auditLog.entityId, f.entityId));
  if (f.actorEmail) where.push(eq(auditLog.actorEmail, f.actorEmail));
  if (f.from) where.push(gte(auditLog.at, f.from));
  if (f.before) where.push(lt(auditLog.at, f.before));
  const filter = where.length ? and(...where) : undefined;
  const [items, [total]] = await readTogether(db, [
    () =>
      db
        .select()
        .from(auditLog)
        .where(filter)
        .orderBy(desc(auditLog.id))
        .limit(window.limit)
        .offset(window.offset),
    () => db.select({ n: count() }).from(auditLog).where(filter),
  ]);
  return { items, total: Number(total?.n ?? 0) };
}
