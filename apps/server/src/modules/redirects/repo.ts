import { asc, count, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type { PageWindow } from '@shop/shared/paging';
import type { DbOrTx } from '../../db/client.ts';
import { containsPattern } from '../../db/like.ts';
import { products, redirects } from '../../db/schema.ts';
import { readTogether } from '../../db/reads.ts';

export async function findRedirect(db: DbOrTx, path: string) {
  const [row] = await db
    .select({ target: redirects.target, permanent: redirects.permanent })
    .from(redirects)
    .where(eq(redirects.path, path))
    .limit(1);
  return row ?? null;
}

export async function upsertRedirect(
  db: DbOrTx,
  values: { path: string; target: string; permanent: boolean },
) {
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

// ── console ───────────────────────────────────────────────────────────────────────────────────

export type RedirectRow = typeof redirects.$inferSelect;

/** A whole redirect row by its (normal-form) path. */
export async function findRow(db: DbOrTx, path: string): Promise<RedirectRow | null> {
  const [row] = await db.select().from(redirects).where(eq(redirects.path, path)).limit(1);
  return row ?? null;
}

/** One page of redirects whose path or target contains the text, latest change first. */
export async function redirectPage(db: DbOrTx, text: string | undefined, window: PageWindow) {
  const filter = text
    ? or(ilike(redirects.path, containsPattern(text)), ilike(redirects.target, containsPattern(text)))
    : undefined;
  const [items, [total]] = await readTogether(db, [
    () =>
      db
        .select()
        .from(redirects)
        .where(filter)
        .orderBy(desc(redirects.updatedAt), asc(redirects.path))
        .limit(window.limit)
        .offset(window.offset),
    () => db.select({ n: count() }).from(redirects).where(filter),
  ]);
  return { items, total: Number(total?.n ?? 0) };
}

/** Inserts a redirect unless its path has one; null when it had. */
export async function insertRow(
  db: DbOrTx,
  values: { path: string; target: string; permanent: boolean },
): Promise<RedirectRow | null> {
  const [row] = await db.insert(redirects).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

/** Changes a redirect's target; null when the path has none (any more). */
export async function updateRow(
  db: DbOrTx,
  path: string,
  values: { target: string; permanent: boolean },
  now: Date,
): Promise<RedirectRow | null> {
  const [row] = await db
    .update(redirects)
    .set({ ...values, updatedAt: now })
    .where(eq(redirects.path, path))
    .returning();
  return row ?? null;
}

/** Deletes a redirect and returns what it was; null when the path had none. */
export async function deleteRow(db: DbOrTx, path: string): Promise<RedirectRow | null> {
  const [row] = await db.delete(redirects).where(eq(redirects.path, path)).returning();
  return row ?? null;
}

/** The product whose page a /mall/ address is (a redirect must not take shoppers away from a live one). */
export async function productAtSlug(
  db: DbOrTx,
  slug: string,
): Promise<{ name: string; status: string } | null> {
  const [product] = await db
    .select({ name: products.name, status: products.status })
    .from(products)
    .where(eq(products.slug, slug))
    .limit(1);
  return product ?? null;
}
