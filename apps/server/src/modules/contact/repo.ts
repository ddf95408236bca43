import { and, asc, count, desc, eq, ilike, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { MessageListQuery } from '@shop/shared/admin-settings';
import type { PageWindow } from '@shop/shared/paging';
import type { DbOrTx } from '../../db/client.ts';
import { containsPattern } from '../../db/like.ts';
import { rows } from '../../db/rows.ts';
import { contactMessages, contactReplies, contentItems } from '../../db/schema.ts';
import { readTogether } from '../../db/reads.ts';

export type MessageRow = typeof contactMessages.$inferSelect;

/** The next number of the contact messages' sequence, as text. */
export async function nextMessageNumber(db: DbOrTx): Promise<string> {
  return (
    rows<{ n: string }>(await db.execute(sql`select nextval('contact_number_seq')::text as n`))[0]?.n ?? '0'
  );
}

export async function insertMessage(db: DbOrTx, values: typeof contactMessages.$inferInsert): Promise<void> {
  await db.insert(contactMessages).values(values);
}

// ── console ───────────────────────────────────────────────────────────────────────────────────

export interface MessageFilter {
  readonly handled?: MessageListQuery['handled'];
  readonly subject?: string | undefined;
  /** Matched anywhere in the name, e-mail, reference number or message (wildcards literal). */
  readonly text?: string | undefined;
  readonly unhandledFirst: boolean;
}

/** One page of messages, newest first (optionally the unhandled ones before the rest). */
export async function messagePage(db: DbOrTx, f: MessageFilter, window: PageWindow) {
  const where: SQL[] = [];
  if (f.handled === 'yes') where.push(isNotNull(contactMessages.handledAt));
  if (f.handled === 'no') where.push(isNull(contactMessages.handledAt));
  if (f.subject) where.push(eq(contactMessages.subject, f.subject));
  if (f.text) {
    const like = containsPattern(f.text);
    where.push(
      or(
        ilike(contactMessages.name, like),
        ilike(contactMessages.email, like),
        ilike(contactMessages.referenceNo, like),
        ilike(contactMessages.message, like),
      )!,
    );
  }
  const filter = where.length ? and(...where) : undefined;
  const newest = [desc(contactMessages.createdAt), desc(contactMessages.referenceNo)];
  const order = f.unhandledFirst ? [sql`${contactMessages.handledAt} is null desc`, ...newest] : newest;
  const [items, [total]] = await readTogether(db, [
    () =>
      db
        .select()
        .from(contactMessages)
        .where(filter)
        .orderBy(...order)
        .limit(window.limit)
        .offset(window.offset),
    () => db.select({ n: count() }).from(contactMessages).where(filter),
  ]);
  return { items, total: Number(total?.n ?? 0) };
}

export async function findMessage(db: DbOrTx, referenceNo: string): Promise<MessageRow | null> {
  const [m] = await db
    .select()
    .from(contactMessages)
    .where(eq(contactMessages.referenceNo, referenceNo))
    .limit(1);
  return m ?? null;
}

/** Marks a message handled (now) or not; null when it is gone. */
export async function setHandledAt(
  db: DbOrTx,
  id: string,
  handledAt: Date | null,
): Promise<MessageRow | null> {
  const [after] = await db
    .update(contactMessages)
    .set({ handledAt })
    .where(eq(contactMessages.id, id))
    .returning();
  return after ?? null;
}

/** The published document of the job a message applies for. */
export async function jobData(db: DbOrTx, slug: string): Promise<Record<string, unknown> | null> {
  const [job] = await db
    .select({ data: contentItems.data })
    .from(contentItems)
    .where(and(eq(contentItems.kind, 'job'), eq(contentItems.slug, slug)))
    .limit(1);
  return job?.data ?? null;
}

/** A message's replies, oldest first. */
export async function repliesOf(db: DbOrTx, messageId: string) {
  return db
    .select()
    .from(contactReplies)
    .where(eq(contactReplies.messageId, messageId))
    .orderBy(asc(contactReplies.createdAt), asc(contactReplies.id));
}

export async function insertReply(db: DbOrTx, values: typeof contactReplies.$inferInsert) {
  const [row] = await db.insert(contactReplies).values(values).returning();
  return row!;
}

/** The messages sent from an address, oldest first (a member's data export). */
export async function messagesFrom(db: DbOrTx, email: string) {
  return db
    .select({
      referenceNo: contactMessages.referenceNo,
      subject: contactMessages.subject,
      message: contactMessages.message,
      createdAt: contactMessages.createdAt,
    })
    .from(contactMessages)
    .where(eq(contactMessages.email, email))
    .orderBy(asc(contactMessages.createdAt));
}

/** Takes the sender out of the messages sent from an address (a deleted account); the words stay. */
export async function anonymiseMessagesFrom(db: DbOrTx, email: string): Promise<void> {
  await db
    .update(contactMessages)
    .set({ name: '已刪除', email: 'deleted@deleted.invalid', phone: null, ip: null })
    .where(eq(contactMessages.email, email));
}
