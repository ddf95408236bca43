import { and, asc, count, desc, eq, gt, ilike, inArray, isNotNull, isNull, lte, ne, or, type SQL } from 'drizzle-orm';
import type { PageOf } from '@shop/shared/admin';
import { couponState, type CouponBody, type CouponDetail, type CouponOptions, type CouponListQuery, type CouponRow, type TierAdminView, type UpdateTiersBody } from '@shop/shared/admin-coupons';
import type { DbOrTx } from '../../db/client.ts';
import { categories, couponRedemptions, coupons, membershipTiers, orders, users } from '../../db/schema.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../lib/errors.ts';
import { containsPattern, membersPerTier } from './members-service.ts';

type CouponRecord = typeof coupons.$inferSelect;

function toRow(c: CouponRecord, ownerEmail: string | null, now: Date): CouponRow {
  return {
    id: c.id,
    code: c.code,
    name: c.name,
    kind: c.kind,
    value: c.value,
    minSpend: c.minSpend,
    startsAt: c.startsAt.toISOString(),
    endsAt: c.endsAt.toISOString(),
    totalLimit: c.totalLimit,
    perMemberLimit: c.perMemberLimit,
    usedCount: c.usedCount,
    status: c.status,
    state: couponState(c, now),
    listed: c.listed,
    tierCodes: c.tierCodes ?? [],
    ownerEmail,
  };
}

/** What the audit trail keeps of a coupon (its editable fields and state). */
export function couponSnapshot(c: CouponRecord) {
  return {
    code: c.code,
    name: c.name,
    kind: c.kind,
    value: c.value,
    minSpend: c.minSpend,
    startsAt: c.startsAt.toISOString(),
    endsAt: c.endsAt.toISOString(),
    totalLimit: c.totalLimit,
    perMemberLimit: c.perMemberLimit,
    tierCodes: c.tierCodes ?? [],
    categoryIds: c.categoryIds ?? [],
    listed: c.listed,
    status: c.status,
    usedCount: c.usedCount,
  };
}

/** One page of coupons: search by code or name; status, validity now and personal/shared filters. */
export async function listCoupons(db: DbOrTx, q: CouponListQuery, now = new Date()): Promise<PageOf<CouponRow>> {
  const where: SQL[] = [];
  const text = q.q?.trim();
  if (text) where.push(or(ilike(coupons.code, containsPattern(text)), ilike(coupons.name, containsPattern(text)))!);
  if (q.status) where.push(eq(coupons.status, q.status));
  if (q.validity === 'now') where.push(lte(coupons.startsAt, now), gt(coupons.endsAt, now));
  if (q.validity === 'upcoming') where.push(gt(coupons.startsAt, now));
  if (q.validity === 'expired') where.push(lte(coupons.endsAt, now));
  if (q.scope === 'shared') where.push(isNull(coupons.ownerId));
  if (q.scope === 'personal') where.push(isNotNull(coupons.ownerId));
  const filter = where.length ? and(...where) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select({ coupon: coupons, ownerEmail: users.email })
      .from(coupons)
      .leftJoin(users, eq(users.id, coupons.ownerId))
      .where(filter)
      .orderBy(desc(coupons.endsAt), asc(coupons.code))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ n: count() }).from(coupons).where(filter),
  ]);
  const n = Number(total?.n ?? 0);
  return {
    items: rows.map((r) => toRow(r.coupon, r.ownerEmail, now)),
    page: q.page,
    pageSize: q.pageSize,
    total: n,
    totalPages: Math.max(1, Math.ceil(n / q.pageSize)),
  };
}

async function findCoupon(db: DbOrTx, id: string, forUpdate = false): Promise<CouponRecord> {
  const query = db.select().from(coupons).where(eq(coupons.id, id)).limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  if (!row) throw new NotFoundError('找不到這張優惠券。');
  return row;
}

/** A coupon with its latest 20 uses (order, member, amount, time). */
export async function couponDetail(db: DbOrTx, id: string, now = new Date()): Promise<CouponDetail> {
  const c = await findCoupon(db, id);
  const [owner, redemptions] = await Promise.all([
    c.ownerId ? db.select({ email: users.email }).from(users).where(eq(users.id, c.ownerId)).limit(1) : Promise.resolve([]),
    db
      .select({ orderNo: orders.orderNo, memberId: users.id, memberName: users.displayName, memberEmail: users.email, amount: couponRedemptions.amount, at: couponRedemptions.createdAt })
      .from(couponRedemptions)
      .innerJoin(orders, eq(orders.id, couponRedemptions.orderId))
      .innerJoin(users, eq(users.id, couponRedemptions.userId))
      .where(eq(couponRedemptions.couponId, id))
      .orderBy(desc(couponRedemptions.createdAt))
      .limit(20),
  ]);
  return {
    ...toRow(c, owner[0]?.email ?? null, now),
    categoryIds: c.categoryIds ?? [],
    ownerId: c.ownerId,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    redemptions: redemptions.map((r) => ({ ...r, at: r.at.toISOString() })),
  };
}

/** Checks what the body's schema cannot: a free code, tiers and categories that exist, a limit not below the uses so far. */
async function checkCouponBody(db: DbOrTx, body: CouponBody, existing: CouponRecord | null): Promise<void> {
  const fields: Record<string, string> = {};
  const [taken] = await db
    .select({ id: coupons.id })
    .from(coupons)
    .where(existing ? and(eq(coupons.code, body.code), ne(coupons.id, existing.id)) : eq(coupons.code, body.code))
    .limit(1);
  if (taken) fields.code = '這個優惠碼已經有了，請換一個';
  if (body.tierCodes.length > 0) {
    const known = await db.select({ code: membershipTiers.code }).from(membershipTiers).where(inArray(membershipTiers.code, body.tierCodes));
    if (known.length !== body.tierCodes.length) fields.tierCodes = '有會員等級不存在，請重新選擇';
  }
  if (body.categoryIds.length > 0) {
    const known = await db.select({ id: categories.id }).from(categories).where(inArray(categories.id, body.categoryIds));
    if (known.length !== new Set(body.categoryIds).size) fields.categoryIds = '有商品分類不存在，請重新選擇';
  }
  if (existing && body.totalLimit !== null && body.totalLimit < existing.usedCount) {
    fields.totalLimit = `已經用了 ${existing.usedCount} 次，總使用次數不能少於 ${existing.usedCount}`;
  }
  const first = Object.values(fields)[0];
  if (first) throw new BadRequestError(first, fields);
}

function values(body: CouponBody) {
  return {
    code: body.code,
    name: body.name,
    kind: body.kind,
    value: body.value,
    minSpend: body.minSpend,
    startsAt: new Date(body.startsAt),
    endsAt: new Date(body.endsAt),
    totalLimit: body.totalLimit,
    perMemberLimit: body.perMemberLimit,
    tierCodes: body.tierCodes.length > 0 ? body.tierCodes : null,
    categoryIds: body.categoryIds.length > 0 ? [...new Set(body.categoryIds)] : null,
    listed: body.listed,
  };
}

/** True for PostgreSQL's unique_violation (a concurrent create took the code between check and insert). */
function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

export async function createCoupon(db: DbOrTx, body: CouponBody): Promise<CouponRecord> {
  await checkCouponBody(db, body, null);
  try {
    const [row] = await db.insert(coupons).values(values(body)).returning();
    return row!;
  } catch (error) {
    if (isUniqueViolation(error)) throw new BadRequestError('這個優惠碼已經有了，請換一個', { code: '這個優惠碼已經有了，請換一個' });
    throw error;
  }
}

export async function updateCoupon(db: DbOrTx, id: string, body: CouponBody, now = new Date()): Promise<{ before: CouponRecord; after: CouponRecord }> {
  const before = await findCoupon(db, id, true);
  await checkCouponBody(db, body, before);
  try {
    const [after] = await db.update(coupons).set({ ...values(body), updatedAt: now }).where(eq(coupons.id, id)).returning();
    return { before, after: after! };
  } catch (error) {
    if (isUniqueViolation(error)) throw new BadRequestError('這個優惠碼已經有了，請換一個', { code: '這個優惠碼已經有了，請換一個' });
    throw error;
  }
}

/** Pauses or resumes a coupon: checkout refuses a paused code at once. */
export async function setCouponStatus(db: DbOrTx, id: string, status: 'active' | 'paused', now = new Date()): Promise<{ before: CouponRecord; after: CouponRecord }> {
  const before = await findCoupon(db, id, true);
  if (before.status === status) throw new ConflictError(status === 'paused' ? '這張優惠券已經暫停了。' : '這張優惠券已經在使用中。', status === 'paused' ? 'already-paused' : 'already-active');
  const [after] = await db.update(coupons).set({ status, updatedAt: now }).where(eq(coupons.id, id)).returning();
  return { before, after: after! };
}

/** The tiers and categories the coupon form offers (categories as 「茶葉／烏龍茶」 under their parent). */
export async function couponOptions(db: DbOrTx): Promise<CouponOptions> {
  const [tiers, cats] = await Promise.all([
    db.select({ code: membershipTiers.code, name: membershipTiers.name }).from(membershipTiers).orderBy(asc(membershipTiers.sortOrder)),
    db.select({ id: categories.id, name: categories.name, parentId: categories.parentId, sortOrder: categories.sortOrder }).from(categories),
  ]);
  const byId = new Map(cats.map((c) => [c.id, c]));
  const top = cats.filter((c) => !c.parentId).sort((a, b) => a.sortOrder - b.sortOrder);
  const out: CouponOptions['categories'] = [];
  for (const t of top) {
    out.push({ id: t.id, name: t.name, parentName: null });
    for (const c of cats.filter((x) => x.parentId === t.id).sort((a, b) => a.sortOrder - b.sortOrder)) out.push({ id: c.id, name: c.name, parentName: byId.get(t.id)!.name });
  }
  return { tiers, categories: out };
}

// ── tiers ───────────────────────────────────────────────────────────────────────────────────────

export async function listTiers(db: DbOrTx): Promise<TierAdminView[]> {
  const rows = await db.select().from(membershipTiers).orderBy(asc(membershipTiers.sortOrder), asc(membershipTiers.threshold));
  const counts = await membersPerTier(db, rows.map((r) => r.code));
  return rows.map((t) => ({ code: t.code, name: t.name, threshold: t.threshold, discountPercent: t.discountPercent, freeShippingOver: t.freeShippingOver, sortOrder: t.sortOrder, memberCount: counts.get(t.code) ?? 0 }));
}

const tierSnapshot = (t: TierAdminView) => ({ code: t.code, name: t.name, threshold: t.threshold, discountPercent: t.discountPercent, freeShippingOver: t.freeShippingOver, sortOrder: t.sortOrder });

/**
 * Replaces every tier's name, threshold, discount and free-shipping rule at once (the order of the
 * body is the sort order). The set of tiers stays: members and coupons refer to the codes. Members
 * keep their current tier until their tier is recomputed (their next paid order): history is not
 * rewritten, but the new discount applies to their next checkout.
 */
export async function updateTiers(db: DbOrTx, body: UpdateTiersBody, now = new Date()) {
  const before = await listTiers(db);
  const known = new Set(before.map((t) => t.code));
  if (body.tiers.length !== known.size || body.tiers.some((t) => !known.has(t.code))) {
    throw new BadRequestError('會員等級不能新增或刪除，只能修改現有的等級。', { tiers: '會員等級不能新增或刪除，只能修改現有的等級。' });
  }
  for (const [i, t] of body.tiers.entries()) {
    await db
      .update(membershipTiers)
      .set({ name: t.name, threshold: t.threshold, discountPercent: t.discountPercent, freeShippingOver: t.freeShippingOver, sortOrder: i + 1, updatedAt: now })
      .where(eq(membershipTiers.code, t.code));
  }
  const after = await listTiers(db);
  return { before: before.map(tierSnapshot), after: after.map(tierSnapshot), tiers: after };
}
