import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, count, desc, eq, ilike, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { pageOf } from '@shop/shared/admin';
import { AdminMessage, AdminMessageRow, MessageListQuery, MessageRefParams, SetMessageHandledBody } from '@shop/shared/admin-settings';
import type { DbOrTx } from '../../db/client.ts';
import { contactMessages, contentItems } from '../../db/schema.ts';
import { NoDataError, NotFoundError } from '../../lib/errors.ts';
import { recordAudit } from './audit.ts';

type MessageRow = typeof contactMessages.$inferSelect;

const EXCERPT = 60;
/** `%text%` for ILIKE, with the wildcards in the text taken literally. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const excerpt = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT ? `${flat.slice(0, EXCERPT)}…` : flat;
};

const toRow = (m: MessageRow): AdminMessageRow => ({
  referenceNo: m.referenceNo,
  name: m.name,
  email: m.email,
  subject: m.subject,
  excerpt: excerpt(m.message),
  jobSlug: m.jobSlug,
  createdAt: m.createdAt.toISOString(),
  handledAt: m.handledAt?.toISOString() ?? null,
});

async function jobTitle(db: DbOrTx, slug: string | null): Promise<string | null> {
  if (!slug) return null;
  const [job] = await db.select({ data: contentItems.data }).from(contentItems).where(and(eq(contentItems.kind, 'job'), eq(contentItems.slug, slug))).limit(1);
  const title = job?.data.title;
  return typeof title === 'string' ? title : null;
}

async function detail(db: DbOrTx, m: MessageRow): Promise<AdminMessage> {
  const { excerpt: _excerpt, ...row } = toRow(m);
  return { ...row, phone: m.phone, message: m.message, jobTitle: await jobTitle(db, m.jobSlug) };
}

async function findMessage(db: DbOrTx, referenceNo: string): Promise<MessageRow> {
  const [m] = await db.select().from(contactMessages).where(eq(contactMessages.referenceNo, referenceNo)).limit(1);
  if (!m) throw new NotFoundError(`找不到客服來信 ${referenceNo}。`);
  return m;
}

/** Console API for messages sent through /contact: browse and search, read one, mark handled. */
const messagesRoutes: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/admin/messages', { config: { permission: 'messages.read' }, schema: { querystring: MessageListQuery, response: { 200: pageOf(AdminMessageRow) } } }, async (request) => {
    const q = request.query;
    const where: SQL[] = [];
    if (q.handled === 'yes') where.push(isNotNull(contactMessages.handledAt));
    if (q.handled === 'no') where.push(isNull(contactMessages.handledAt));
    if (q.subject) where.push(eq(contactMessages.subject, q.subject));
    if (q.q) {
      const like = contains(q.q);
      where.push(or(ilike(contactMessages.name, like), ilike(contactMessages.email, like), ilike(contactMessages.referenceNo, like), ilike(contactMessages.message, like))!);
    }
    const filter = where.length ? and(...where) : undefined;
    const order = q.sort === 'unhandled-first' ? [sql`${contactMessages.handledAt} is null desc`, desc(contactMessages.createdAt), desc(contactMessages.referenceNo)] : [desc(contactMessages.createdAt), desc(contactMessages.referenceNo)];
    const [rows, [total]] = await Promise.all([
      app.db.select().from(contactMessages).where(filter).orderBy(...order).limit(q.pageSize).offset((q.page - 1) * q.pageSize),
      app.db.select({ n: count() }).from(contactMessages).where(filter),
    ]);
    const n = Number(total?.n ?? 0);
    return { items: rows.map(toRow), page: q.page, pageSize: q.pageSize, total: n, totalPages: Math.max(1, Math.ceil(n / q.pageSize)) };
  });

  r.get('/api/admin/messages/:referenceNo', { config: { permission: 'messages.read' }, schema: { params: MessageRefParams, response: { 200: AdminMessage } } }, async (request) =>
    detail(app.db, await findMessage(app.db, request.params.referenceNo)),
  );

  r.post(
    '/api/admin/messages/:referenceNo/handled',
    { config: { permission: 'messages.write' }, schema: { params: MessageRefParams, body: SetMessageHandledBody, response: { 200: AdminMessage } } },
    async (request) =>
      app.db.transaction(async (tx) => {
        const before = await findMessage(tx, request.params.referenceNo);
        // Marking it the way it already is changes nothing (and keeps the first handled time).
        if ((before.handledAt !== null) === request.body.handled) return detail(tx, before);
        const [after] = await tx
          .update(contactMessages)
          .set({ handledAt: request.body.handled ? new Date() : null })
          .where(eq(contactMessages.id, before.id))
          .returning();
        if (!after) throw new NoDataError(`客服來信 ${request.params.referenceNo} 在處理時已被刪除，請重新整理後再試。`);
        await recordAudit(tx, request, {
          action: 'message.handled',
          entity: 'message',
          entityId: after.referenceNo,
          before: { handled: before.handledAt !== null, handledAt: before.handledAt?.toISOString() ?? null },
          after: { handled: after.handledAt !== null, handledAt: after.handledAt?.toISOString() ?? null },
        });
        return detail(tx, after);
      }),
  );
};

export default messagesRoutes;
