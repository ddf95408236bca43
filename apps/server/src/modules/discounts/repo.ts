import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lte,
  ne,
  or,
  type SQL,
} from 'drizzle-orm';
import type { CouponListQuery } from '@shop/shared/admin-coupons';
import type { PageWindow } from '@shop/shared/paging';
import type { DbOrTx } from '../../db/client.ts';
import { containsPattern } from '../../db/like.ts';
import { categories, couponRedemptions, coupons, membershipTiers, orders, users } from '../../db/schema.ts';
import { readTogether } from '../../db/reads.ts';

export type CouponRecord = typeof coupons.$inferSelect;
export type CouponValues = Omit<typeof coupons.$inferInsert, 'id'>;

export interface CouponFilter {
  readonly text?: string | undefined;
  readonly status?: CouponListQuery['status'];
  readonly validity?: CouponListQuery['validity'];
  readonly scope?: CouponListQuery['scope'];
}

function couponWhere(f: CouponFilter, now: Date): SQL | undefined {
  const where: SQL[] = [];
  if (f.text)
    where.push(
      or(ilike(coupons.code, containsPattern(f.text)), ilike(coupons.name, containsPattern(f.text)))!,
    );
  if (f.status) where.push(eq(coupons.status, f.status));
  if (f.validity === 'now') where.push(lte(coupons.startsAt, now), gt(coupons.endsAt, now));
  if (f.validity === 'upcoming') where.push(gt(coupons.startsAt, now));
  if (f.validity === 'expired') where.push(lte(coupons.endsAt, now));
  if (f.scope === 'shared') where.push(isNull(coupons.ownerId));
  if (f.scope === 'personal') where.push(isNotNull(coupons.ownerId));
  return where.length ? and(...where) : undefined;
}

/** One page of coupons with their owner's e-mail (personal coupons), latest end first. */
export async function couponPage(db: DbOrTx, f: CouponFilter, window: PageWindow, now: Date) {
  const filter = couponWhere(f, now);
  const [items, [total]] = await readTogether(db, [
    () =>
      db
        .select({ coupon: coupons, ownerEmail: users.email })
        .from(coupons)
        .leftJoin(users, eq(users.id, coupons.ownerId))
        .where(filter)
        .orderBy(desc(coupons.endsAt), asc(coupons.code))
        .limit(window.limit)
        .offset(window.offset),
    () => db.select({ n: count() }).from(coupons).where(filter),
  ]);
  return { items, total: Number(total?.n ?? 0) };
}

export async function findCouponById(
  db: DbOrTx,
  id: string,
  forUpdate = false,
): Promise<CouponRecord | null> {
  const query = db.select().from(coupons).where(eq(coupons.id, id)).limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

export async function emailOf(db: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.email ?? null;
}

/** A coupon's latest uses: order, member, amount, time. */
export async function latestRedemptions(db: DbOrTx, couponId: string, limit: number) {
  return db
    .select({
      orderNo: orders.orderNo,
      memberId: users.id,
      memberName: users.displayName,
      memberEmail: users.email,
      amount: couponRedemptions.amount,
      at: couponRedemptions.createdAt,
    })
    .from(couponRedemptions)
    .innerJoin(orders, eq(orders.id, couponRedemptions.orderId))
    .innerJoin(users, eq(users.id, couponRedemptions.userId))
    .where(eq(couponRedemptions.couponId, couponId))
    .orderBy(desc(couponRedemptions.createdAt))
    .limit(limit);
}

/** True when another coupon (not `exceptId`) has the code. */
export async function codeTaken(db: DbOrTx, code: string, exceptId: string | null): Promise<boolean> {
  const [taken] = await db
    .select({ id: coupons.id })
    .from(coupons)
    .where(exceptId ? and(eq(coupons.code, code), ne(coupons.id, exceptId)) : eq(coupons.code, code))
    .limit(1);
  return Boolean(taken);
}

/** How many of the codes name a tier. */
export async function knownTierCount(db: DbOrTx, codes: string[]): Promise<number> {
  return (
    await db
      .select({ code: membershipTiers.code })
      .from(membershipTiers)
      .where(inArray(membershipTiers.code, codes))
  ).length;
}

/** How many of the ids name a category. */
export async function knownCategoryCount(db: DbOrTx, ids: string[]): Promise<number> {
  return (await db.select({ id: categories.id }).from(categories).where(inArray(categories.id, ids))).length;
}

export async function insertCoupon(db: DbOrTx, values: CouponValues): Promise<CouponRecord> {
  const [row] = await db.insert(coupons).values(values).returning();
  return row!;
}

export async function updateCouponRow(
  db: DbOrTx,
  id: string,
  values: Partial<CouponValues>,
): Promise<CouponRecord> {
  const [row] = await db.update(coupons).set(values).where(eq(coupons.id, id)).returning();
  return row!;
}

/** The tiers (by sort order) and every category the coupon form offers. */
export async function couponFormOptions(db: DbOrTx) {
  const [tiers, cats] = await readTogether(db, [
    () =>
      db
        .select({ code: membershipTiers.code, name: membershipTiers.name })
        .from(membershipTiers)
        .orderBy(asc(membershipTiers.sortOrder)),
    () =>
      db
        .select({
          id: categories.id,
          name: categories.name,
          parentId: categories.parentId,
          sortOrder: categories.sortOrder,
        })
        .from(categories),
  ]);
  return { tiers, categories: cats };
}
