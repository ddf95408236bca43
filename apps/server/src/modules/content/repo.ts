import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { contentItems, storageObjects } from '../../db/schema.ts';

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
export async function listByKinds(
  db: DbOrTx,
  kinds: string[],
  options: ReadOptions = {},
): Promise<ContentRow[]> {
  return db
    .select()
    .from(contentItems)
    .where(and(sql`${contentItems.kind} in ${kinds}`, visible(options)))
    .orderBy(asc(contentItems.sortOrder), asc(contentItems.slug));
}

export async function findOne(
  db: DbOrTx,
  kind: string,
  slug: string,
  options: ReadOptions = {},
): Promise<ContentRow | null> {
  const [row] = await db
    .select()
    .from(contentItems)
    .where(and(eq(contentItems.kind, kind), eq(contentItems.slug, slug), visible(options)))
    .limit(1);
  return row ?? null;
}

export async function upsert(
  db: DbOrTx,
  values: { kind: string; slug: string; data: Record<string, unknown>; sortOrder: number },
): Promise<void> {
  await db
    .insert(contentItems)
    .values(values)
    .onConflictDoUpdate({
      target: [contentItems.kind, contentItems.slug],
      set: { data: values.data, sortOrder: values.sortOrder, updatedAt: sql`now()` },
    });
}

// ── console ───────────────────────────────────────────────────────────────────────────────────

/** One item whatever its visibility; `lock` holds its row for the change that follows. */
export async function findItem(
  db: DbOrTx,
  kind: string,
  slug: string,
  lock = false,
): Promise<ContentRow | null> {
  const query = db
    .select()
    .from(contentItems)
    .where(and(eq(contentItems.kind, kind), eq(contentItems.slug, slug)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

/** Every item of a kind, shown or hidden, in site order; `lock` holds their rows. */
export async function itemsOfKind(db: DbOrTx, kind: string, lock = false): Promise<ContentRow[]> {
  const query = db
    .select()
    .from(contentItems)
    .where(eq(contentItems.kind, kind))
    .orderBy(asc(contentItems.sortOrder), asc(contentItems.slug));
  return lock ? query.for('update') : query;
}

/** Every item's kind, slug, visibility, draft state and last change (the console's overview). */
export async function itemSummaries(db: DbOrTx) {
  return db
    .select({
      kind: contentItems.kind,
      slug: contentItems.slug,
      published: contentItems.published,
      hasDraft: sql<boolean>`${contentItems.draftData} is not null`,
      updatedAt: contentItems.updatedAt,
    })
    .from(contentItems)
    .orderBy(asc(contentItems.sortOrder), asc(contentItems.slug));
}

/** Changes an item's documents, visibility or place; its `updated_at` becomes now. */
export async function updateItem(
  db: DbOrTx,
  id: string,
  values: Partial<Pick<ContentRow, 'data' | 'draftData' | 'published' | 'sortOrder'>>,
): Promise<void> {
  await db
    .update(contentItems)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(contentItems.id, id));
}

export async function maxSortOrder(db: DbOrTx, kind: string): Promise<number | null> {
  const [last] = await db
    .select({ max: sql<number | null>`max(${contentItems.sortOrder})` })
    .from(contentItems)
    .where(eq(contentItems.kind, kind));
  return last?.max ?? null;
}

export async function insertItem(db: DbOrTx, values: typeof contentItems.$inferInsert): Promise<void> {
  await db.insert(contentItems).values(values);
}

export async function deleteItem(db: DbOrTx, id: string): Promise<void> {
  await db.delete(contentItems).where(eq(contentItems.id, id));
}

// ── the files documents point at ──────────────────────────────────────────────────────────────

/** Stored files in any of the buckets with any of the names (a download list's sizes and types). */
export async function storedFiles(db: DbOrTx, buckets: string[], names: string[]) {
  return db
    .select()
    .from(storageObjects)
    .where(and(inArray(storageObjects.name, names), inArray(storageObjects.bucket, buckets)));
}

export async function storedFileExists(db: DbOrTx, bucket: string, name: string): Promise<boolean> {
  const [row] = await db
    .select({ name: storageObjects.name })
    .from(storageObjects)
    .where(and(eq(storageObjects.bucket, bucket), eq(storageObjects.name, name)))
    .limit(1);
  return Boolean(row);
}
