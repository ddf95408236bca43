import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { rows } from '../../db/rows.ts';
import { wishlistItems } from '../../db/schema.ts';

/** A member's kept products, newest first. */
export async function listFor(db: DbOrTx, userId: string) {
  return db
    .select({ productId: wishlistItems.productId, createdAt: wishlistItems.createdAt })
    .from(wishlistItems)
    .where(eq(wishlistItems.userId, userId))
    .orderBy(desc(wishlistItems.createdAt), asc(wishlistItems.productId));
}

/**
 * Keeps a product unless the list is full, in one statement. True when it is on the list now.
 * Two taps at the same moment could each see room for one more: the limit bounds a list's size
 * roughly, which is all it is for.
 */
export async function add(db: DbOrTx, userId: string, productId: string, max: number): Promise<boolean> {
  const result = await db.execute(sql`
    insert into ${wishlistItems} (user_id, product_id)
    select ${userId}, ${productId}
    where (select count(*) from ${wishlistItems} where user_id = ${userId}) < ${max}
       or exists (select 1 from ${wishlistItems} where user_id = ${userId} and product_id = ${productId})
    on conflict do nothing
    returning 1`);
  if (rows(result).length > 0) return true;
  const [kept] = await db
    .select({ one: sql<number>`1` })
    .from(wishlistItems)
    .where(and(eq(wishlistItems.userId, userId), eq(wishlistItems.productId, productId)));
  return kept !== undefined;
}

export async function remove(db: DbOrTx, userId: string, productId: string): Promise<void> {
  await db
    .delete(wishlistItems)
    .where(and(eq(wishlistItems.userId, userId), eq(wishlistItems.productId, productId)));
}

export async function removeAll(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(wishlistItems).where(eq(wishlistItems.userId, userId));
}
