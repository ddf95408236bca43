import { and, eq, like, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { storageObjects } from '../../db/schema.ts';

export type StorageObjectRow = typeof storageObjects.$inferSelect;

export async function findObject(db: DbOrTx, bucket: string, name: string): Promise<StorageObjectRow | null> {
  const [row] = await db
    .select()
    .from(storageObjects)
    .where(and(eq(storageObjects.bucket, bucket), eq(storageObjects.name, name)))
    .limit(1);
  return row ?? null;
}

export async function upsertObject(
  db: DbOrTx,
  values: typeof storageObjects.$inferInsert,
): Promise<StorageObjectRow> {
  const [row] = await db
    .insert(storageObjects)
    .values(values)
    .onConflictDoUpdate({
      target: [storageObjects.bucket, storageObjects.name],
      set: { ...values, createdAt: undefined, updatedAt: sql`now()` },
    })
    .returning();
  if (!row) throw new Error('storage upsert returned nothing');
  return row;
}

export async function deleteObject(db: DbOrTx, bucket: string, name: string): Promise<void> {
  await db
    .delete(storageObjects)
    .where(and(eq(storageObjects.bucket, bucket), eq(storageObjects.name, name)));
}

export async function bucketBytes(db: DbOrTx, bucket: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${storageObjects.size}), 0)::bigint` })
    .from(storageObjects)
    .where(eq(storageObjects.bucket, bucket));
  return Number(row?.total ?? 0);
}

/** Files of a bucket whose names start with `prefix` (LIKE's own characters in it taken literally). */
export async function countObjects(db: DbOrTx, bucket: string, prefix: string): Promise<number> {
  const pattern = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(storageObjects)
    .where(and(eq(storageObjects.bucket, bucket), like(storageObjects.name, pattern)));
  return Number(row?.n ?? 0);
}
