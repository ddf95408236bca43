import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { rows } from '../../db/rows.ts';
import { addresses, categories, couponRedemptions, coupons, membershipTiers, products, users } from '../../db/schema.ts';

export type TierRow = typeof membershipTiers.$inferSelect;
export type CouponRow = typeof coupons.$inferSelect;
export type AddressRow = typeof addresses.$inferSelect;

export async function tiers(db: DbOrTx): Promise<TierRow[]> {
  return db.select().from(membershipTiers).orderBy(asc(membershipTiers.threshold), asc(membershipTiers.sortOrder));
}

/**
 * Paid spending of the last 12 months: card and ATM orders count once paid; cash on delivery
 * counts once delivered. Cancelled, expired and refunded orders never count.
 */
export async function spendOf(db: DbOrTx, userId: string, now: Date): Promise<number> {
  const since = new Date(now.getTime() - 365 * 86_400_000);
  const result = rows<{ spend: number }>(
    await db.execute(sql`
      select coalesce(sum(total), 0)::int as spend from orders
      where user_id = ${userId}
        and ((payment_method <> 'cod' and status in ('paid', 'processing', 'shipped', 'delivered', 'completed') and paid_at >= ${since})
          or (payment_method = 'cod' and status in ('delivered', 'completed') and updated_at >= ${since}))`),
  );
  return result[0]?.spend ?? 0;
}

export async function userTier(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({ tierCode: users.tierCode, birthday: users.birthday, email: users.email, displayName: users.displayName, createdAt: users.createdAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}

export async function setTier(db: DbOrTx, userId: string, tierCode: string): Promise<boolean> {
  const result = await db
    .update(users)
    .set({ tierCode, updatedAt: sql`now()` })
    .where(and(eq(users.id, userId), sql`${users.tierCode} <> ${tierCode}`))
    .returning({ id: users.id });
  return result.length > 0;
}

export async function findCoupon(db: DbOrTx, code: string, opts: { forUpdate?: boolean } = {}): Promise<CouponRow | null> {
  const query = db.select().from(coupons).where(eq(coupons.code, code)).limit(1);
  const [row] = opts.forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

export async function memberUses(db: DbOrTx, couponId: string, userId: string): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(couponRedemptions).where(and(eq(couponRedemptions.couponId, couponId), eq(couponRedemptions.userId, userId)));
  return row?.n ?? 0;
}

/** Counts one use, only while the total limit allows it (concurrent checkouts: one wins). */
export async function takeCouponUse(db: DbOrTx, couponId: string): Promise<boolean> {
  const result = await db
    .update(coupons)
    .set({ usedCount: sql`${coupons.usedCount} + 1`, updatedAt: sql`now()` })
    .where(and(eq(coupons.id, couponId), sql`(${coupons.totalLimit} is null or ${coupons.usedCount} < ${coupons.totalLimit})`))
    .returning({ id: coupons.id });
  return result.length > 0;
}

export async function insertRedemption(db: DbOrTx, values: typeof couponRedemptions.$inferInsert): Promise<void> {
  await db.insert(couponRedemptions).values(values);
}

/** An unpaid order that is cancelled or expires gives its coupon uses back. */
export async function releaseRedemptions(db: DbOrTx, orderId: string): Promise<void> {
  const released = await db.delete(couponRedemptions).where(eq(couponRedemptions.orderId, orderId)).returning({ couponId: couponRedemptions.couponId });
  for (const r of released) {
    await db.update(coupons).set({ usedCount: sql`greatest(${coupons.usedCount} - 1, 0)` }).where(eq(coupons.id, r.couponId));
  }
}

/** Coupons a member sees under "my coupons": listed ones and their own. */
export async function couponsFor(db: DbOrTx, userId: string): Promise<Array<CouponRow & { uses: number }>> {
  const result = await db
    // Qualified by hand: in a one-table select drizzle writes columns without their table name,
    // and the subquery's bare "id" would then mean coupon_redemptions.id.
    .select({ coupon: coupons, uses: sql<number>`(select count(*)::int from coupon_redemptions r where r.coupon_id = "coupons"."id" and r.user_id = ${userId})` })
    .from(coupons)
    .where(and(eq(coupons.status, 'active'), or(eq(coupons.listed, true), eq(coupons.ownerId, userId))))
    .orderBy(desc(coupons.endsAt));
  return result.map((r) => ({ ...r.coupon, uses: Number(r.uses) }));
}

/** Category ids of products, with their parents, for category-limited coupons. */
export async function productCategories(db: DbOrTx, productIds: string[]): Promise<Map<string, string[]>> {
  if (productIds.length === 0) return new Map();
  const result = await db
    .select({ productId: products.id, categoryId: categories.id, parentId: categories.parentId })
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .where(inArray(products.id, productIds));
  return new Map(result.map((r) => [r.productId, [r.categoryId, ...(r.parentId ? [r.parentId] : [])]]));
}

export async function categoryNames(db: DbOrTx, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  return (await db.select({ name: categories.name }).from(categories).where(inArray(categories.id, ids))).map((r) => r.name);
}

export async function hasPersonalCoupon(db: DbOrTx, userId: string, code: string): Promise<boolean> {
  const [row] = await db.select({ id: coupons.id }).from(coupons).where(and(eq(coupons.ownerId, userId), eq(coupons.code, code))).limit(1);
  return Boolean(row);
}

/**
 * Inserts a coupon unless one like it exists: same code, or (birthday coupons) the same member and
 * year under the `coupons_birthday_once` index. True when this call made it.
 */
export async function insertCouponOnce(db: DbOrTx, values: typeof coupons.$inferInsert): Promise<boolean> {
  const made = await db.insert(coupons).values(values).onConflictDoNothing().returning({ id: coupons.id });
  return made.length > 0;
}

/** Members whose birthday falls in a month (1–12). */
export async function membersBornIn(db: DbOrTx, month: number) {
  return db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`extract(month from ${users.birthday}) = ${month}`, isNull(users.disabledAt)));
}

// ── addresses ─────────────────────────────────────────────────────────────────────────────────

export async function addressesOf(db: DbOrTx, userId: string): Promise<AddressRow[]> {
  return db.select().from(addresses).where(eq(addresses.userId, userId)).orderBy(desc(addresses.isDefault), asc(addresses.createdAt));
}

export async function clearDefault(db: DbOrTx, userId: string): Promise<void> {
  await db.update(addresses).set({ isDefault: false }).where(and(eq(addresses.userId, userId), eq(addresses.isDefault, true)));
}

export async function insertAddress(db: DbOrTx, values: typeof addresses.$inferInsert): Promise<AddressRow> {
  const [row] = await db.insert(addresses).values(values).returning();
  if (!row) throw new Error('address insert returned nothing');
  return row;
}

export async function updateAddress(db: DbOrTx, userId: string, id: string, values: Partial<typeof addresses.$inferInsert>): Promise<AddressRow | null> {
  const [row] = await db
    .update(addresses)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
    .returning();
  return row ?? null;
}

export async function deleteAddress(db: DbOrTx, userId: string, id: string): Promise<AddressRow | null> {
  const [row] = await db.delete(addresses).where(and(eq(addresses.id, id), eq(addresses.userId, userId))).returning();
  return row ?? null;
}

export async function countAddresses(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(addresses).where(eq(addresses.userId, userId));
  return row?.n ?? 0;
}
