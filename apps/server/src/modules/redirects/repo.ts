import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { redirects } from '../../db/schema.ts';

export async function findRedirect(db: DbOrTx, path: string) {
  const [row] = await db
    .select({ target: redirects.target, permanent: redirects.permanent })
    .from(redirects)
    .where(eq(redirects.path, path))
    .limit(1);
  return row ?? null;
}

export async function upsertRedirect(db: DbOrTx, values: { path: string; target: string; permanent: boolean }) {
  await db
    .insert(redirects)
    .values(values)
    .onConflictDoUpdate({
      target: redirects.path,
      set: { target: values.target, permanent: values.permanent, updatedAt: sql`now()` },
    });
}

export async function deleteRedirect(db: DbOrTx, path: string) {
  await db.delete(redirects).where(eq(redirects.path, path));
}
