import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { contentItems } from '../../db/schema.ts';

export type ContentRow = typeof contentItems.$inferSelect;

export interface ReadOptions {
  /**
   * Preview for the console: hidden items are included too (a new item starts hidden, and its
   * editor previews it before showing it). Which document is read is the service's choice.
   */
  readonly preview?: boolean;
}

const visible = (options: ReadOptions) => (options.preview ? undefined : eq(contentItems.published, true));

export async function listByKind(db: DbOrTx, kind: string, options: ReadOptions = {}): Promise<ContentRow[]> {
  return db
    .select()
    .from(contentItems)
    .where(and(eq(contentItems.kind, kind), visible(options)))
    .orderBy(asc(contentItems.sortOrder), asc(contentItems.slug));
}

/** Several kinds in one query (a page that shows masters and media, say). */
export async function listByKinds(db: DbOrTx, kinds: string[], options: ReadOptions = {}): Promise<ContentRow[]> {
  return db
    .select()
    .from(contentItems)
    .where(and(sql`${contentItems.kind} in ${kinds}`, visible(options)))
    .orderBy(asc(contentItems.sortOrder), asc(contentItems.slug));
}

export async function findOne(db: DbOrTx, kind: string, slug: string, options: ReadOptions = {}): Promise<ContentRow | null> {
  const [row] = await db
    .select()
    .from(contentItems)
    .where(and(eq(contentItems.kind, kind), eq(contentItems.slug, slug), visible(options)))
    .limit(1);
  return row ?? null;
}

export async function upsert(db: DbOrTx, values: { kind: string; slug: string; data: Record<string, unknown>; sortOrder: number }): Promise<void> {
  await db
    .insert(contentItems)
    .values(values)
    .onConflictDoUpdate({ target: [contentItems.kind, contentItems.slug], set: { data: values.data, sortOrder: values.sortOrder, updatedAt: sql`now()` } });
}
