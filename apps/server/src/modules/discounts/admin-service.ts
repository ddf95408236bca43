import type { PageOf } from '@shop/shared/admin';
import {
  couponState,
  type CouponBody,
  type CouponDetail,
  type CouponOptions,
  type CouponListQuery,
  type CouponRow,
} from '@shop/shared/admin-coupons';
import { pageResult, pageWindow } from '@shop/shared/paging';
import type { DbOrTx } from '../../db/client.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../lib/errors.ts';
import * as repo from './repo.ts';
import type { CouponRecord } from './repo.ts';

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
export async function listCoupons(
  db: DbOrTx,
  q: CouponListQuery,
  now = new Date(),
): Promise<PageOf<CouponRow>> {
  const filter = { text: q.q?.trim(), status: q.status, validity: q.validity, scope: q.scope };
  const { items, total } = await repo.couponPage(db, filter, pageWindow(q.page, q.pageSize), now);
  return pageResult(
    items.map((r) => toRow(r.coupon, r.ownerEmail, now)),
    q.page,
    q.pageSize,
    total,
  );
}

async function findCoupon(db: DbOrTx, id: string, forUpdate = false): Promise<CouponRecord> {
  const row = await repo.findCouponById(db, id, forUpdate);
  if (!row) throw new NotFoundError('找不到這張優惠券。');
  return row;
}

/** A coupon with its latest 20 uses (order, member, amount, time). */
export async function couponDetail(db: DbOrTx, id: string, now = new Date()): Promise<CouponDetail> {
  const c = await findCoupon(db, id);
  const [ownerEmail, redemptions] = await Promise.all([
    c.ownerId ? repo.emailOf(db, c.ownerId) : Promise.resolve(null),
    repo.latestRedemptions(db, id, 20),
  ]);
  return {
    ...toRow(c, ownerEmail, now),
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
  const taken = await repo.codeTaken(db, body.code, existing?.id ?? null);
  if (taken) fields.code = '這個優惠碼已經有了，請換一個';
  if (body.tierCodes.length > 0) {
    if ((await repo.knownTierCount(db, body.tierCodes)) !== body.tierCodes.length)
      fields.tierCodes = '有會員等級不存在，請重新選擇';
  }
  if (body.categoryIds.length > 0) {
    if ((await repo.knownCategoryCount(db, body.categoryIds)) !== new Set(body.categoryIds).size)
      fields.categoryIds = '有商品分類不存在，請重新選擇';
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
    return await repo.insertCoupon(db, values(body));
  } catch (error) {
    if (isUniqueViolation(error))
      throw new BadRequestError('這個優惠碼已經有了，請換一個', { code: '這個優惠碼已經有了，請換一個' });
    throw error;
  }
}

export async function updateCoupon(
  db: DbOrTx,
  id: string,
  body: CouponBody,
  now = new Date(),
): Promise<{ before: CouponRecord; after: CouponRecord }> {
  const before = await findCoupon(db, id, true);
  await checkCouponBody(db, body, before);
  try {
    const after = await repo.updateCouponRow(db, id, { ...values(body), updatedAt: now });
    return { before, after };
  } catch (error) {
    if (isUniqueViolation(error))
      throw new BadRequestError('這個優惠碼已經有了，請換一個', { code: '這個優惠碼已經有了，請換一個' });
    throw error;
  }
}

/** Pauses or resumes a coupon: checkout refuses a paused code at once. */
export async function setCouponStatus(
  db: DbOrTx,
  id: string,
  status: 'active' | 'paused',
  now = new Date(),
): Promise<{ before: CouponRecord; after: CouponRecord }> {
  const before = await findCoupon(db, id, true);
  if (before.status === status)
    throw new ConflictError(
      status === 'paused' ? '這張優惠券已經暫停了。' : '這張優惠券已經在使用中。',
      status === 'paused' ? 'already-paused' : 'already-active',
    );
  const after = await repo.updateCouponRow(db, id, { status, updatedAt: now });
  return { before, after };
}

/** The tiers and categories the coupon form offers (categories as 「茶葉／烏龍茶」 under their parent). */
export async function couponOptions(db: DbOrTx): Promise<CouponOptions> {
  const { tiers, categories: cats } = await repo.couponFormOptions(db);
  const byId = new Map(cats.map((c) => [c.id, c]));
  const top = cats.filter((c) => !c.parentId).sort((a, b) => a.sortOrder - b.sortOrder);
  const out: CouponOptions['categories'] = [];
  for (const t of top) {
    out.push({ id: t.id, name: t.name, parentName: null });
    for (const c of cats.filter((x) => x.parentId === t.id).sort((a, b) => a.sortOrder - b.sortOrder))
      out.push({ id: c.id, name: c.name, parentName: byId.get(t.id)!.name });
  }
  return { tiers, categories: out };
}
