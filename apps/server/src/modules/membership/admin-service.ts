import { isStaffRole, type PageOf } from '@shop/shared/admin';
import type { MemberDetail, MemberListQuery, MemberOrderRow, MemberRow } from '@shop/shared/admin-members';
import type { TierAdminView, UpdateTiersBody } from '@shop/shared/admin-coupons';
import { pageResult, pageWindow } from '@shop/shared/paging';
import type { DbOrTx } from '../../db/client.ts';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../lib/errors.ts';
import type { StaffActor } from '../../plugins/staff-guard.ts';
import { revokeUserSessions } from '../auth/session-service.ts';
import { otherActiveOwners } from '../auth/staff-service.ts';
import { listAddresses } from './profile.ts';
import * as repo from './repo.ts';
import { membership } from './service.ts';
import { readTogether } from '../../db/reads.ts';

/** One page of members for the console's table: search over name, e-mail and phone; tier and status filters. */
export async function listMembers(
  db: DbOrTx,
  q: MemberListQuery,
  now = new Date(),
): Promise<PageOf<MemberRow>> {
  const text = q.q?.trim();
  const digits = text?.replace(/[\s-]/g, '');
  const window = pageWindow(q.page, q.pageSize);
  const { items, total } = await repo.memberPage(
    db,
    { text, digits, tier: q.tier, status: q.status },
    window,
    new Date(now.getTime() - repo.SPEND_WINDOW_MS),
  );
  const rows = items.map((r) => ({
    ...r,
    tierName: r.tierName ?? r.tierCode,
    spend: Number(r.spend),
    orderCount: Number(r.orderCount),
    joinedAt: r.joinedAt.toISOString(),
    disabledAt: r.disabledAt?.toISOString() ?? null,
  }));
  return pageResult(rows, q.page, q.pageSize, total);
}

/** Everything the console shows about one member. */
export async function memberDetail(db: DbOrTx, memberId: string, now = new Date()): Promise<MemberDetail> {
  const user = await repo.findUser(db, memberId);
  if (!user) throw new NotFoundError('找不到這位會員。');
  const [m, addresses, recent, orderCount, lastDisable] = await readTogether(db, [
    () => membership(db, memberId, now),
    () => listAddresses(db, memberId),
    () => repo.recentOrdersOf(db, memberId, 10),
    () => repo.orderCountOf(db, memberId),
    async () => (user.disabledAt ? repo.lastDisableAudit(db, memberId) : null),
  ]);
  const reason = (lastDisable as { reason?: unknown } | null | undefined)?.reason;
  return {
    profile: {
      id: user.id,
      name: user.displayName,
      email: user.email,
      emailVerified: user.emailVerifiedAt !== null,
      phone: user.phone,
      birthday: user.birthday,
      role: user.role,
      joinedAt: user.createdAt.toISOString(),
      disabledAt: user.disabledAt?.toISOString() ?? null,
      disabledReason: typeof reason === 'string' ? reason : null,
    },
    membership: { tiers: m.tiers, current: m.current, next: m.next, spend: m.spend, toNext: m.toNext },
    addresses,
    orders: recent.map((o): MemberOrderRow => ({
      ...o,
      itemCount: Number(o.itemCount),
      createdAt: o.createdAt.toISOString(),
    })),
    orderCount,
    coupons: m.coupons,
  };
}

export interface MemberStatusChange {
  readonly before: { disabledAt: string | null; role: string };
  readonly after: { disabledAt: string | null; role: string };
  readonly revokedSessions: number;
}

/**
 * Disables or enables an account. Disabling ends every session of it at once. Nobody changes
 * their own account here; only the owner may disable or enable console accounts (staff handle
 * customers only); the last owner who can sign in stays enabled.
 */
export async function setMemberDisabled(
  tx: DbOrTx,
  actor: StaffActor,
  memberId: string,
  disable: boolean,
  now = new Date(),
): Promise<MemberStatusChange> {
  const target = await repo.lockAccount(tx, memberId);
  if (!target) throw new NotFoundError('找不到這位會員。');
  if (actor.id === target.id)
    throw new ConflictError(disable ? '不能停用自己的帳號。' : '不能變更自己帳號的狀態。', 'own-account');
  if (isStaffRole(target.role) && actor.role !== 'owner')
    throw new ForbiddenError('管理後台帳號只能由店主停用或啟用。');
  if (disable && target.disabledAt) throw new ConflictError('這個帳號已經停用了。', 'already-disabled');
  if (!disable && !target.disabledAt) throw new ConflictError('這個帳號目前是啟用的。', 'not-disabled');
  if (disable && target.role === 'owner' && (await otherActiveOwners(tx, target.id)) === 0) {
    throw new ConflictError('這是唯一的店主帳號，不能停用。', 'last-owner');
  }
  const disabledAt = disable ? now : null;
  await repo.setDisabledAt(tx, target.id, disabledAt, now);
  const revokedSessions = disable ? await revokeUserSessions(tx, target.id, now) : 0;
  return {
    before: { disabledAt: target.disabledAt?.toISOString() ?? null, role: target.role },
    after: { disabledAt: disabledAt?.toISOString() ?? null, role: target.role },
    revokedSessions,
  };
}

// ── tiers ───────────────────────────────────────────────────────────────────────────────────────

export async function listTiers(db: DbOrTx): Promise<TierAdminView[]> {
  const tiers = await repo.tiersBySortOrder(db);
  const counts = await repo.membersPerTier(
    db,
    tiers.map((t) => t.code),
  );
  return tiers.map((t) => ({
    code: t.code,
    name: t.name,
    threshold: t.threshold,
    discountPercent: t.discountPercent,
    freeShippingOver: t.freeShippingOver,
    sortOrder: t.sortOrder,
    memberCount: counts.get(t.code) ?? 0,
  }));
}

const tierSnapshot = (t: TierAdminView) => ({
  code: t.code,
  name: t.name,
  threshold: t.threshold,
  discountPercent: t.discountPercent,
  freeShippingOver: t.freeShippingOver,
  sortOrder: t.sortOrder,
});

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
    throw new BadRequestError('會員等級不能新增或刪除，只能修改現有的等級。', {
      tiers: '會員等級不能新增或刪除，只能修改現有的等級。',
    });
  }
  for (const [i, t] of body.tiers.entries()) {
    await repo.updateTier(
      db,
      t.code,
      {
        name: t.name,
        threshold: t.threshold,
        discountPercent: t.discountPercent,
        freeShippingOver: t.freeShippingOver,
        sortOrder: i + 1,
      },
      now,
    );
  }
  const after = await listTiers(db);
  return { before: before.map(tierSnapshot), after: after.map(tierSnapshot), tiers: after };
}
