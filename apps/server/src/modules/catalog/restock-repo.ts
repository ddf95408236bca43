import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { rows } from '../../db/rows.ts';
import { productVariants, products, restockRequests } from '../../db/schema.ts';

/** A variant as a 貨到通知 request needs it: on sale or not, and its stock. */
export async function variantForRequest(db: DbOrTx, variantId: string) {
  const [row] = await db
    .select({
      stock: productVariants.stock,
      archived: productVariants.archived,
      status: products.status,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(eq(productVariants.id, variantId));
  return row ?? null;
}

/** Starts waiting, or waits again after an earlier notice; waiting twice is waiting once. */
export async function upsertRequest(db: DbOrTx, userId: string, variantId: string): Promise<void> {
  await db
    .insert(restockRequests)
    .values({ userId, variantId })
    .onConflictDoUpdate({
      target: [restockRequests.userId, restockRequests.variantId],
      set: { createdAt: sql`now()`, notifiedAt: null },
      setWhere: sql`${restockRequests.notifiedAt} is not null`,
    });
}

export async function deleteRequest(db: DbOrTx, userId: string, variantId: string): Promise<void> {
  await db
    .delete(restockRequests)
    .where(and(eq(restockRequests.userId, userId), eq(restockRequests.variantId, variantId)));
}

/** How many requests a member has waiting. */
export async function waitingCountFor(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(restockRequests)
    .where(and(eq(restockRequests.userId, userId), isNull(restockRequests.notifiedAt)));
  return row?.n ?? 0;
}

export async function waitingVariantIds(db: DbOrTx, userId: string): Promise<string[]> {
  const found = await db
    .select({ variantId: restockRequests.variantId })
    .from(restockRequests)
    .where(and(eq(restockRequests.userId, userId), isNull(restockRequests.notifiedAt)));
  return found.map((r) => r.variantId);
}

/** Waiting members per variant, for the console. */
export async function waitingPerVariant(
  db: DbOrTx,
  variantIds: readonly string[],
): Promise<Map<string, number>> {
  if (variantIds.length === 0) return new Map();
  const found = await db
    .select({ variantId: restockRequests.variantId, n: count() })
    .from(restockRequests)
    .where(and(inArray(restockRequests.variantId, [...variantIds]), isNull(restockRequests.notifiedAt)))
    .groupBy(restockRequests.variantId);
  return new Map(found.map((r) => [r.variantId, r.n]));
}

export interface ClaimedNotice {
  user_id: string;
  email: string;
  display_name: string;
  requested_at: string;
  product_name: string;
  product_slug: string;
  options: Record<string, string>;
}

/**
 * Marks every waiting request of a variant as notified and answers them, in one statement: in the
 * transaction that brings the stock back, so two such transactions (two instances, or stock
 * changed twice in a second) claim each request once; the second waits for the first's row locks
 * and then finds nothing left waiting.
 */
export async function claimWaiting(db: DbOrTx, variantId: string): Promise<ClaimedNotice[]> {
  return rows<ClaimedNotice>(
    await db.execute(sql`
      update restock_requests r set notified_at = now()
      from users u, product_variants v, products p
      where r.variant_id = ${variantId} and r.notified_at is null and u.id = r.user_id
        and u.disabled_at is null and v.id = r.variant_id and not v.archived
        and p.id = v.product_id and p.status = 'active'
      returning r.user_id, u.email, u.display_name, r.created_at::text as requested_at,
                p.name as product_name, p.slug as product_slug, v.options`),
  );
}

/** Every request of a member, waiting or notified (the data export), oldest first. */
export async function requestsOf(db: DbOrTx, userId: string) {
  return db
    .select({
      sku: productVariants.sku,
      productName: products.name,
      requestedAt: restockRequests.createdAt,
      notifiedAt: restockRequests.notifiedAt,
    })
    .from(restockRequests)
    .innerJoin(productVariants, eq(productVariants.id, restockRequests.variantId))
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(eq(restockRequests.userId, userId))
    .orderBy(restockRequests.createdAt);
}

export async function deleteAllOf(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(restockRequests).where(eq(restockRequests.userId, userId));
}
