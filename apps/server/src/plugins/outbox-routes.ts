import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import {
  OutboxIdParams,
  OutboxListQuery,
  OutboxListResponse,
  OutboxRow,
  type OutboxStatus,
} from '@shop/shared/admin-outbox';
import { pageResult, pageWindow } from '@shop/shared/paging';
import { rows } from '../db/rows.ts';
import type { DbOrTx } from '../db/client.ts';
import { ConflictError, NotFoundError } from '../lib/errors.ts';
import { readOutboxHold, releaseOutboxHold } from './outbox.ts';
import { recordAudit } from './audit.ts';

const PAGE_SIZE = 20;

interface Raw {
  id: number | string;
  kind: string;
  summary: string;
  status: OutboxStatus;
  attempts: number;
  last_error: string | null;
  created_at: Date | string;
  next_attempt_at: Date | string;
  sent_at: Date | string | null;
  total: number | string;
}

const iso = (d: Date | string) => new Date(d).toISOString();
const toRow = (r: Raw): OutboxRow => ({
  id: Number(r.id),
  kind: r.kind,
  summary: r.summary,
  status: r.status,
  attempts: r.attempts,
  lastError: r.last_error,
  createdAt: iso(r.created_at),
  nextAttemptAt: r.status === 'pending' ? iso(r.next_attempt_at) : null,
  sentAt: r.sent_at ? iso(r.sent_at) : null,
});

async function listOutbox(db: DbOrTx, query: OutboxListQuery) {
  const { limit, offset } = pageWindow(query.page, PAGE_SIZE);
  const where =
    query.status === 'attention' ? sql`status in ('pending', 'failed')` : sql`status = ${query.status}`;
  // Failed first (they wait for staff), then the oldest waiting; sent ones newest first.
  const order =
    query.status === 'sent' ? sql`sent_at desc, id desc` : sql`(status = 'failed') desc, created_at, id`;
  const found = rows<Raw>(
    await db.execute(sql`select id, kind, summary, status, attempts, last_error, created_at, next_attempt_at, sent_at, count(*) over () as total
      from outbox_messages where ${where} order by ${order} limit ${limit} offset ${offset}`),
  );
  const [counts] = rows<{ pending: number | string; failed: number | string }>(
    await db.execute(
      sql`select count(*) filter (where status = 'pending') as pending, count(*) filter (where status = 'failed') as failed from outbox_messages where status <> 'sent'`,
    ),
  );
  const total = found[0] ? Number(found[0].total) : 0;
  return {
    ...pageResult(found.map(toRow), query.page, PAGE_SIZE, total),
    counts: { pending: Number(counts?.pending ?? 0), failed: Number(counts?.failed ?? 0) },
  };
}

async function pendingCount(db: DbOrTx): Promise<number> {
  const [counts] = rows<{ pending: number | string }>(
    await db.execute(sql`select count(*) as pending from outbox_messages where status = 'pending'`),
  );
  return Number(counts?.pending ?? 0);
}

/**
 * The console's window on the outbox (outbox.ts): what waits or failed, with its error, and "send
 * again", which makes a failed or waiting message due now. A sent one is never sent again from
 * here: the change it followed already happened once. The console registers it inside its guarded
 * scope.
 */
const outboxRoutes: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/admin/outbox',
    {
      config: { permission: 'outbox.read' },
      schema: { querystring: OutboxListQuery, response: { 200: OutboxListResponse } },
    },
    async (request) => listOutbox(app.db, request.query),
  );

  r.post(
    '/api/admin/outbox/:id/retry',
    {
      config: { permission: 'outbox.write' },
      schema: { params: OutboxIdParams, response: { 200: OutboxRow } },
    },
    async (request) => {
      const row = await app.db.transaction(async (tx) => {
        const [found] = rows<Raw>(
          await tx.execute(
            sql`select id, kind, summary, status, attempts, last_error, created_at, next_attempt_at, sent_at, 1 as total from outbox_messages where id = ${request.params.id} for update`,
          ),
        );
        if (!found) throw new NotFoundError('找不到這則寄送紀錄。');
        if (found.status === 'sent') throw new ConflictError('這則已經送出，不會再寄一次。', 'already-sent');
        const [updated] = rows<Raw>(
          await tx.execute(sql`update outbox_messages set status = 'pending', next_attempt_at = now(), retried_at = now()
          where id = ${found.id} returning id, kind, summary, status, attempts, last_error, created_at, next_attempt_at, sent_at, 1 as total`),
        );
        await recordAudit(tx, request, {
          action: 'outbox.retry',
          entity: 'outbox',
          entityId: String(found.id),
          before: { status: found.status, attempts: found.attempts },
          after: { status: 'pending' },
        });
        return toRow(updated!);
      });
      app.outbox.kick();
      return row;
    },
  );

  // A restored shop's outbox is held (plugins/outbox.ts, OUTBOX_HOLD_KEY): what waits is shown
  // here, and the owner releases it once the live shop it was restored from no longer sends.
  r.get('/api/admin/outbox/hold', { config: { permission: 'outbox.read' } }, async () => {
    const hold = await readOutboxHold(app.db);
    return {
      held: hold !== null,
      since: hold?.since ?? null,
      reason: hold?.reason ?? null,
      pending: await pendingCount(app.db),
    };
  });

  // settings.write: the owner's alone (staff and viewers may not let a restored shop send).
  r.post('/api/admin/outbox/release', { config: { permission: 'settings.write' } }, async (request) => {
    const released = await app.db.transaction(async (tx) => {
      const hold = await releaseOutboxHold(tx);
      if (!hold) throw new ConflictError('寄送並未暫停。', 'not-held');
      const pending = await pendingCount(tx);
      await recordAudit(tx, request, {
        action: 'outbox.release',
        entity: 'outbox',
        entityId: null,
        before: { held: true, ...hold },
        after: { held: false, pending },
      });
      return { held: false, since: null, reason: null, pending };
    });
    request.log.warn(
      { pending: released.pending, by: request.staff?.email },
      'outbox released: held messages are sent now',
    );
    app.outbox.kick();
    return released;
  });
};

export default outboxRoutes;
