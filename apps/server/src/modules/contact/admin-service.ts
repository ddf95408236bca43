import type { PageOf } from '@shop/shared/admin';
import type { AdminMessage, AdminMessageRow, MessageListQuery } from '@shop/shared/admin-settings';
import { pageResult, pageWindow } from '@shop/shared/paging';
import type { DbOrTx } from '../../db/client.ts';
import { NoDataError, NotFoundError } from '../../lib/errors.ts';
import * as repo from './repo.ts';

const EXCERPT = 60;

const excerpt = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT ? `${flat.slice(0, EXCERPT)}…` : flat;
};

const toRow = (m: repo.MessageRow): AdminMessageRow => ({
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
  const title = (await repo.jobData(db, slug))?.title;
  return typeof title === 'string' ? title : null;
}

async function detail(db: DbOrTx, m: repo.MessageRow): Promise<AdminMessage> {
  const { excerpt: _excerpt, ...row } = toRow(m);
  const replies = (await repo.repliesOf(db, m.id)).map((r) => ({
    body: r.body,
    at: r.createdAt.toISOString(),
    by: r.actorEmail,
  }));
  return { ...row, phone: m.phone, message: m.message, jobTitle: await jobTitle(db, m.jobSlug), replies };
}

async function mustFind(db: DbOrTx, referenceNo: string): Promise<repo.MessageRow> {
  const m = await repo.findMessage(db, referenceNo);
  if (!m) throw new NotFoundError(`找不到客服來信 ${referenceNo}。`);
  return m;
}

/** One page of messages: handled/unhandled, subject and text filters; newest or unhandled first. */
export async function listMessages(db: DbOrTx, q: MessageListQuery): Promise<PageOf<AdminMessageRow>> {
  const { items, total } = await repo.messagePage(
    db,
    {
      handled: q.handled,
      subject: q.subject,
      text: q.q || undefined,
      unhandledFirst: q.sort === 'unhandled-first',
    },
    pageWindow(q.page, q.pageSize),
  );
  return pageResult(items.map(toRow), q.page, q.pageSize, total);
}

export async function messageDetail(db: DbOrTx, referenceNo: string): Promise<AdminMessage> {
  return detail(db, await mustFind(db, referenceNo));
}

export interface HandledChange {
  readonly message: AdminMessage;
  /** null when the message already was as asked (nothing changed, nothing to audit). */
  readonly change: {
    before: { handled: boolean; handledAt: string | null };
    after: { handled: boolean; handledAt: string | null };
  } | null;
}

/** Marks a message handled or not. Marking it the way it already is changes nothing (and keeps the first handled time). */
export async function setMessageHandled(
  tx: DbOrTx,
  referenceNo: string,
  handled: boolean,
  now = new Date(),
): Promise<HandledChange> {
  const before = await mustFind(tx, referenceNo);
  if ((before.handledAt !== null) === handled) return { message: await detail(tx, before), change: null };
  const after = await repo.setHandledAt(tx, before.id, handled ? now : null);
  if (!after) throw new NoDataError(`客服來信 ${referenceNo} 在處理時已被刪除，請重新整理後再試。`);
  return {
    message: await detail(tx, after),
    change: {
      before: { handled: before.handledAt !== null, handledAt: before.handledAt?.toISOString() ?? null },
      after: { handled: after.handledAt !== null, handledAt: after.handledAt?.toISOString() ?? null },
    },
  };
}

/**
 * Keeps a staff reply with its message and marks the message handled (if it was not); the caller
 * mails the reply to the sender in the same transaction. Answers the message as it now is and the
 * sender's details for that mail.
 */
export async function replyToMessage(
  tx: DbOrTx,
  referenceNo: string,
  body: string,
  actor: { id: string | null; email: string | null },
  now = new Date(),
): Promise<{ message: AdminMessage; original: repo.MessageRow }> {
  const original = await mustFind(tx, referenceNo);
  await repo.insertReply(tx, {
    messageId: original.id,
    body,
    actorId: actor.id,
    actorEmail: actor.email,
    createdAt: now,
  });
  const current = original.handledAt ? original : await repo.setHandledAt(tx, original.id, now);
  if (!current) throw new NoDataError(`客服來信 ${referenceNo} 在處理時已被刪除，請重新整理後再試。`);
  return { message: await detail(tx, current), original };
}
