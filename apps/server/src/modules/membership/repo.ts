import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { PageWindow } from '@shop/shared/paging';
import type { DbOrTx } from '../../db/client.ts';
import { containsPattern } from '../../db/like.ts';
import { tierSpendSql } from '../../db/money-rules.ts';
import { rows } from '../../db/rows.ts';
import {
  addresses,
  auditLog,
  categories,
  couponRedemptions,
  coupons,
  membershipTiers,
  orders,
  products,
  users,
} from '../../db/schema.ts';
import { readTogether } from '../../db/reads.ts';

export type TierRow = typeof membershipTiers.$inferSelect;
export type CouponRow = typeof coupons.$inferSelect;
export type AddressRow = typeof addresses.$inferSelect;

/** The tier table's order for pricing and tier decisions: by spending threshold, then the owner's order. */
const byThreshold = () => [asc(membershipTiers.threshold), asc(membershipTiers.sortOrder)];

export async function tiers(db: DbOrTx): Promise<TierRow[]> {
  return db
    .select()
    .from(membershipTiers)
    .orderBy(...byThreshold());
}

/** The 12 months the spending rule looks back over. */
export const SPEND_WINDOW_MS = 365 * 86_400_000;

/** Spend that counts for a tier, over the last 12 months (db/money-rules.ts). */
export async function spendOf(db: DbOrTx, userId: string, now: Date): Promise<number> {
  const since = new Date(now.getTime() - SPEND_WINDOW_MS);
  const result = rows<{ spend: number }>(
    await db.execute(sql`select ${tierSpendSql(sql`${userId}`, since)} as spend`),
  );
  return result[0]?.spend ?? 0;
}

export async function userTier(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({
      tierCode: users.tierCode,
      birthday: users.birthday,
      email: users.email,
      displayName: users.displayName,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}

/**
 * The tier table (in `tiers`' order) and the member's tier code, in one statement: a checkout's
 * quote needs both, on every quote and in every order's transaction.
 */
export async function tiersForMember(
  db: DbOrTx,
  userId: string,
): Promise<{ all: TierRow[]; memberTierCode: string | null }> {
  const found = await db
    .select({
      tier: membershipTiers,
      memberTierCode: sql<
        string | null
      >`(select ${users.tierCode} from ${users} where ${users.id} = ${userId})`,
    })
    .from(membershipTiers)
    .orderBy(...byThreshold());
  return { all: found.map((r) => r.tier), memberTierCode: found[0]?.memberTierCode ?? null };
}

export async function setTier(db: DbOrTx, userId: string, tierCode: string): Promise<boolean> {
  const result = await db
    .update(users)
    .set({ tierCode, updatedAt: sql`now()` })
    .where(and(eq(users.id, userId), sql`${users.tierCode} <> ${tierCode}`))
    .returning({ id: users.id });
  return result.length > 0;
}

export async function findCoupon(
  db: DbOrTx,
  code: string,
  opts: { forUpdate?: boolean } = {},
): Promise<CouponRow | null> {
  const query = db.select().from(coupons).where(eq(coupons.code, code)).limit(1);
  const [row] = opts.forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

export async function memberUses(db: DbOrTx, couponId: string, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(couponRedemptions)
    .where(and(eq(couponRedemptions.couponId, couponId), eq(couponRedemptions.userId, userId)));
  return row?.n ?? 0;
}

/** Counts one use, only while the total limit allows it (concurrent checkouts: one wins). */
export async function takeCouponUse(db: DbOrTx, couponId: string): Promise<boolean> {
  const result = await db
    .update(coupons)
    .set({ usedCount: sql`${coupons.usedCount} + 1`, updatedAt: sql`now()` })
    .where(
      and(
        eq(coupons.id, couponId),
        sql`(${coupons.totalLimit} is null or ${coupons.usedCount} < ${coupons.totalLimit})`,
      ),
    )
    .returning({ id: coupons.id });
  return result.length > 0;
}

export async function insertRedemption(
  db: DbOrTx,
  values: typeof couponRedemptions.$inferInsert,
): Promise<void> {
  await db.insert(couponRedemptions).values(values);
}

/** An unpaid order that is cancelled or expires gives its coupon uses back. */
export async function releaseRedemptions(db: DbOrTx, orderId: string): Promise<void> {
  const released = await db
    .delete(couponRedemptions)
    .where(eq(couponRedemptions.orderId, orderId))
    .returning({ couponId: couponRedemptions.couponId });
  for (const r of released) {
    await db
      .update(coupons)
      .set({ usedCount: sql`greatest(${coupons.usedCount} - 1, 0)` })
      .where(eq(coupons.id, r.couponId));
  }
}

/** Coupons a member sees under "my coupons": listed ones and their own. */
export async function couponsFor(db: DbOrTx, userId: string): Promise<Array<CouponRow & { uses: number }>> {
  const result = await db
    // Qualified by hand: in a one-table select drizzle writes columns without their table name,
    // and the subquery's bare "id" would then mean coupon_redemptions.id.
    .select({
      coupon: coupons,
      uses: sql<number>`(select count(*)::int from coupon_redemptions r where r.coupon_id = "coupons"."id" and r.user_id = ${userId})`,
    })
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
  return (await db.select({ name: categories.name }).from(categories).where(inArray(categories.id, ids))).map(
    (r) => r.name,
  );
}

export async function hasPersonalCoupon(db: DbOrTx, userId: string, code: string): Promise<boolean> {
  const [row] = await db
    .select({ id: coupons.id })
    .from(coupons)
    .where(and(eq(coupons.ownerId, userId), eq(coupons.code, code)))
    .limit(1);
  return Boolean(row);
}

/**
 * Inserts a coupon unless one like it exists: same code, or (birthday coupons) the same member and
 * year under the `coupons_birthday_once` index. True when this call made it.
 */
/** Whether the member already holds the birthday coupon of a (Taipei) year. */
export async function hasBirthdayCoupon(db: DbOrTx, userId: string, year: number): Promise<boolean> {
  const found = await db
    .select({ id: coupons.id })
    .from(coupons)
    .where(and(eq(coupons.ownerId, userId), eq(coupons.birthdayYear, year)))
    .limit(1);
  return found.length > 0;
}

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
  return db
    .select()
    .from(addresses)
    .where(eq(addresses.userId, userId))
    .orderBy(desc(addresses.isDefault), asc(addresses.createdAt));
}

export async function clearDefault(db: DbOrTx, userId: string): Promise<void> {
  await db
    .update(addresses)
    .set({ isDefault: false })
    .where(and(eq(addresses.userId, userId), eq(addresses.isDefault, true)));
}

export async function insertAddress(db: DbOrTx, values: typeof addresses.$inferInsert): Promise<AddressRow> {
  const [row] = await db.insert(addresses).values(values).returning();
  if (!row) throw new Error('address insert returned nothing');
  return row;
}

export async function updateAddress(
  db: DbOrTx,
  userId: string,
  id: string,
  values: Partial<typeof addresses.$inferInsert>,
): Promise<AddressRow | null> {
  const [row] = await db
    .update(addresses)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
    .returning();
  return row ?? null;
}

export async function deleteAddress(db: DbOrTx, userId: string, id: string): Promise<AddressRow | null> {
  const [row] = await db
    .delete(addresses)
    .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
    .returning();
  return row ?? null;
}

export async function countAddresses(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(addresses)
    .where(eq(addresses.userId, userId));
  return row?.n ?? 0;
}

// ── console: members and tiers ────────────────────────────────────────────────────────────────

export interface MemberFilter {
  /** Matched anywhere in the name or e-mail (wildcards literal). */
  readonly text?: string | undefined;
  /** The text without spaces and dashes, matched anywhere in the phone number. */
  readonly digits?: string | undefined;
  readonly tier?: string | undefined;
  readonly status?: 'active' | 'disabled' | undefined;
}

function memberWhere(f: MemberFilter): SQL | undefined {
  const where: SQL[] = [];
  if (f.text) {
    const ors = [
      ilike(users.displayName, containsPattern(f.text)),
      ilike(users.email, containsPattern(f.text)),
    ];
    if (f.digits) ors.push(ilike(users.phone, containsPattern(f.digits)));
    where.push(or(...ors)!);
  }
  if (f.tier) where.push(eq(users.tierCode, f.tier));
  if (f.status === 'active') where.push(isNull(users.disabledAt));
  if (f.status === 'disabled') where.push(isNotNull(users.disabledAt));
  return where.length ? and(...where) : undefined;
}

/** One page of members, newest first, with their tier's name, 12-month spending and order count. */
export async function memberPage(db: DbOrTx, f: MemberFilter, window: PageWindow, spendSince: Date) {
  const filter = memberWhere(f);
  const [items, [total]] = await readTogether(db, [
    () =>
      db
        .select({
          id: users.id,
          name: users.displayName,
          email: users.email,
          phone: users.phone,
          role: users.role,
          tierCode: users.tierCode,
          tierName: membershipTiers.name,
          // Qualified by hand: drizzle writes bare column names in some selects, and a bare "id"
          // in the subquery would mean the order's.
          spend: tierSpendSql(sql`"users"."id"`, spendSince),
          orderCount: sql<number>`(select count(*)::int from orders o where o.user_id = "users"."id")`,
          joinedAt: users.createdAt,
          disabledAt: users.disabledAt,
        })
        .from(users)
        .leftJoin(membershipTiers, eq(membershipTiers.code, users.tierCode))
        .where(filter)
        .orderBy(desc(users.createdAt), asc(users.id))
        .limit(window.limit)
        .offset(window.offset),
    () => db.select({ n: count() }).from(users).where(filter),
  ]);
  return { items, total: Number(total?.n ?? 0) };
}

export async function findUser(db: DbOrTx, id: string) {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return user ?? null;
}

/** The account's birthday row: null when there is no such account, `birthday` null when not set. */
export async function findBirthday(db: DbOrTx, id: string): Promise<{ birthday: string | null } | null> {
  const [user] = await db.select({ birthday: users.birthday }).from(users).where(eq(users.id, id)).limit(1);
  return user ?? null;
}

export async function updateProfile(
  db: DbOrTx,
  id: string,
  values: { displayName: string; phone: string | null; birthday: string | null },
): Promise<void> {
  await db
    .update(users)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(users.id, id));
}

/** A member's latest orders with their item counts. */
export async function recentOrdersOf(db: DbOrTx, userId: string, limit: number) {
  return db
    .select({
      orderNo: orders.orderNo,
      status: orders.status,
      paymentMethod: orders.paymentMethod,
      total: orders.total,
      createdAt: orders.createdAt,
      itemCount: sql<number>`(select coalesce(sum(i.quantity), 0)::int from order_items i where i.order_id = "orders"."id")`,
    })
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt))
    .limit(limit);
}

export async function orderCountOf(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(orders).where(eq(orders.userId, userId));
  return Number(row?.n ?? 0);
}

/** What the latest `member.disable` audit row of a member recorded after the change. */
export async function lastDisableAudit(db: DbOrTx, userId: string): Promise<unknown> {
  const [row] = await db
    .select({ after: auditLog.after })
    .from(auditLog)
    .where(and(eq(auditLog.action, 'member.disable'), eq(auditLog.entityId, userId)))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row?.after ?? null;
}

/** An account's role and state, its row locked for the change that follows. */
export async function lockAccount(tx: DbOrTx, id: string) {
  const [row] = await tx
    .select({ id: users.id, role: users.role, disabledAt: users.disabledAt })
    .from(users)
    .where(eq(users.id, id))
    .limit(1)
    .for('update');
  return row ?? null;
}

export async function setDisabledAt(
  tx: DbOrTx,
  id: string,
  disabledAt: Date | null,
  now: Date,
): Promise<void> {
  await tx.update(users).set({ disabledAt, updatedAt: now }).where(eq(users.id, id));
}

/** Members of each tier. */
export async function membersPerTier(db: DbOrTx, codes: string[]): Promise<Map<string, number>> {
  if (codes.length === 0) return new Map();
  const found = await db
    .select({ code: users.tierCode, n: count() })
    .from(users)
    .where(inArray(users.tierCode, codes))
    .groupBy(users.tierCode);
  return new Map(found.map((r) => [r.code, Number(r.n)]));
}

/** The tiers in the console's order (sort order, then threshold). */
export async function tiersBySortOrder(db: DbOrTx): Promise<TierRow[]> {
  return db
    .select()
    .from(membershipTiers)
    .orderBy(asc(membershipTiers.sortOrder), asc(membershipTiers.threshold));
}

export async function updateTier(
  db: DbOrTx,
  code: string,
  values: {
    name: string;
    threshold: number;
    discountPercent: number;
    freeShippingOver: number | null;
    sortOrder: number;
  },
  now: Date,
): Promise<void> {
  await db
    .update(membershipTiers)
    .set({ ...values, updatedAt: now })
    .where(eq(membershipTiers.code, code));
}

/** Every saved address of a member goes (a deleted account). */
export async function deleteAddressesOf(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(addresses).where(eq(addresses.userId, userId));
}
