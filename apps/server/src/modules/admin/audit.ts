import type { FastifyRequest } from 'fastify';
import type { DbOrTx } from '../../db/client.ts';
import { auditLog } from '../../db/schema.ts';

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
  await db.insert(auditLog).values({
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
