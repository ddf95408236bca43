import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { contentItems } from '../../db/schema.ts';

export type ContentRow = typeof contentItems.$inferSelect;

export async function listByKind(db: DbOrTx, kind: string): Promise<ContentRow[]> {
  return db.select().from(contentItems).where(and(eq(contentItems.kind, kind), eq(contentItems.published, true))).orderBy(asc(contentItems.sortOrder), asc(contentItems.slug));
}

/** Several kinds in one query (a page that shows masters and media, say). */
export async function listByKinds(db: DbOrTx, kinds: string[]): Promise<ContentRow[]> {
  return db
    .select()
    .from(contentItems)
    .where(and(sql`${contentItems.kind} in ${kinds}`, eq(contentItems.published, true)))
    .orderBy(asc(contentItems.sortOrder), asc(contentItems.slug));
}

export async function findOne(db: DbOrTx, kind: string, slug: string): Promise<ContentRow | null> {
  const [row] = await db.select().from(contentItems).where(and(eq(contentItems.kind, kind), eq(contentItems.slug, slug), eq(contentItems.published, true))).limit(1);
  return row ?? null;
}

export async function upsert(db: DbOrTx, values: { kind: string; slug: string; data: Record<string, unknown>; sortOrder: number }): Promise<void> {
  await db
    .insert(contentItems)
    .values(values)
    .onConflictDoUpdate({ target: [contentItems.kind, contentItems.slug], set: { data: values.data, sortOrder: values.sortOrder, updatedAt: sql`now()` } });
}
