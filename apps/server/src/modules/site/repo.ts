import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { siteSettings } from '../../db/schema.ts';

/** A site setting's stored value and when it was last saved; null while none was. */
export async function readSetting(
  db: DbOrTx,
  key: string,
): Promise<{ value: unknown; updatedAt: Date } | null> {
  const [row] = await db
    .select({ value: siteSettings.value, updatedAt: siteSettings.updatedAt })
    .from(siteSettings)
    .where(eq(siteSettings.key, key))
    .limit(1);
  return row ?? null;
}

/** Writes or replaces a site setting. */
export async function writeSetting(db: DbOrTx, key: string, value: Record<string, unknown>): Promise<void> {
  await db
    .insert(siteSettings)
    .values({ key, value })
    .onConflictDoUpdate({ target: siteSettings.key, set: { value, updatedAt: sql`now()` } });
}
