import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { isStaffRole } from '@shop/shared/admin';
import type { MemberDetail, MemberListQuery, MemberOrderRow, MemberRow } from '@shop/shared/admin-members';
import type { PageOf } from '@shop/shared/admin';
import type { DbOrTx } from '../../db/client.ts';
import { auditLog, membershipTiers, orders, users } from '../../db/schema.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '../../lib/errors.ts';
import { revokeUserSessions } from '../auth/session-repo.ts';
import { listAddresses } from '../membership/profile.ts';
import { membership } from '../membership/service.ts';
import type { StaffActor } from './guard.ts';

const YEAR_MS = 365 * 86_400_000;

/** `%text%` for ILIKE with the wildcards of the text itself taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Paid spending of the last 12 months of the row's user, as one SQL expression: the same rule as
 * membership/repo.ts spendOf (card and ATM once paid, cash on delivery once delivered). Qualified
 * by hand: drizzle writes bare column names in some selects, and a bare "id" here would mean the
 * order's.
 */
function spendSql(since: Date) {
  return sql<number>`coalesce((select sum(o.total) from orders o where o.user_id = "users"."id"
    and ((o.payment_method <> 'cod' and o.status in ('paid', 'processing', 'shipped', 'delivered', 'completed') and o.paid_at >= ${since})
      or (o.payment_method = 'cod' and o.status in ('delivered', 'completed') and o.updated_at >= ${since}))), 0)::int`;
}

/** One page of members for the console's table: search over name, e-mail and phone; tier and status filters. */
export async function listMembers(db: DbOrTx, q: MemberListQuery, now = new Date()): Promise<PageOf<MemberRow>> {
  const where: SQL[] = [];
  const text = q.q?.trim();
  if (text) {
    const digits = text.replace(/[\s-]/g, '');
    const ors = [ilike(users.displayName, containsPattern(text)), ilike(users.email, containsPattern(text))];
    if (digits) ors.push(ilike(users.phone, containsPattern(digits)));
    where.push(or(...ors)!);
  }
  if (q.tier) where.push(eq(users.tierCode, q.tier));
  if (q.status === 'active') where.push(isNull(users.disabledAt));
  if (q.status === 'disabled') where.push(isNotNull(users.disabledAt));
  const filter = where.length ? and(...where) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: users.id,
        name: users.displayName,
        email: users.email,
        phone: users.phone,
        role: users.role,
        tierCode: users.tierCode,
        tierName: membershipTiers.name,
        spend: spendSql(new Date(now.getTime() - YEAR_MS)),
        orderCount: sql<number>`(select count(*)::int from orders o where o.user_id = "users"."id")`,
        joinedAt: users.createdAt,
        disabledAt: users.disabledAt,
      })
      .from(users)
      .leftJoin(membershipTiers, eq(membershipTiers.code, users.tierCode))
      .where(filter)
      .orderBy(desc(users.createdAt), asc(users.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ n: count() }).from(users).where(filter),
  ]);
  const n = Number(total?.n ?? 0);
  return {
    items: rows.map((r) => ({
      ...r,
      tierName: r.tierName ?? r.tierCode,
      spend: Number(r.spend),
      orderCount: Number(r.orderCount),
      joinedAt: r.joinedAt.toISOString(),
      disabledAt: r.disabledAt?.toISOString() ?? null,
    })),
    page: q.page,
    pageSize: q.pageSize,
    total: n,
    totalPages: Math.max(1, Math.ceil(n / q.pageSize)),
  };
}

/** Everything the console shows about one member. */
export async function memberDetail(db: DbOrTx, memberId: string, now = new Date()): Promise<MemberDetail> {
  const [user] = await db.select().from(users).where(eq(users.id, memberId)).limit(1);
  if (!user) throw new NotFoundError('找不到這位會員。');
  const [m, addresses, recent, [orderTotal], [lastDisable]] = await Promise.all([
    membership(db, memberId, now),
    listAddresses(db, memberId),
    db
      .select({
        orderNo: orders.orderNo,
        status: orders.status,
        paymentMethod: orders.paymentMethod,
        total: orders.total,
        createdAt: orders.createdAt,
        itemCount: sql<number>`(select coalesce(sum(i.quantity), 0)::int from order_items i where i.order_id = "orders"."id")`,
      })
      .from(orders)
      .where(eq(orders.userId, memberId))
      .orderBy(desc(orders.createdAt))
      .limit(10),
    db.select({ n: count() }).from(orders).where(eq(orders.userId, memberId)),
    user.disabledAt
      ? db
          .select({ after: auditLog.after })
          .from(auditLog)
          .where(and(eq(auditLog.action, 'member.disable'), eq(auditLog.entityId, memberId)))
          .orderBy(desc(auditLog.id))
          .limit(1)
      : Promise.resolve([]),
  ]);
  const reason = (lastDisable?.after as { reason?: unknown } | null | undefined)?.reason;
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
    orders: recent.map((o): MemberOrderRow => ({ ...o, itemCount: Number(o.itemCount), createdAt: o.createdAt.toISOString() })),
    orderCount: Number(orderTotal?.n ?? 0),
    coupons: m.coupons,
  };
}

/** Owners who can still sign in, other than `exceptId` (a shop always keeps one). */
export async function otherActiveOwners(db: DbOrTx, exceptId: string): Promise<number> {
  // Locks the owners' rows: two owners demoting each other at once cannot both succeed.
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'owner'), isNull(users.disabledAt), ne(users.id, exceptId)))
    .for('update');
  return rows.length;
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
export async function setMemberDisabled(tx: DbOrTx, actor: StaffActor, memberId: string, disable: boolean, now = new Date()): Promise<MemberStatusChange> {
  const [target] = await tx.select({ id: users.id, role: users.role, disabledAt: users.disabledAt }).from(users).where(eq(users.id, memberId)).limit(1).for('update');
  if (!target) throw new NotFoundError('找不到這位會員。');
  if (actor.id === target.id) throw new ConflictError(disable ? '不能停用自己的帳號。' : '不能變更自己帳號的狀態。', 'own-account');
  if (isStaffRole(target.role) && actor.role !== 'owner') throw new ForbiddenError('管理後台帳號只能由店主停用或啟用。');
  if (disable && target.disabledAt) throw new ConflictError('這個帳號已經停用了。', 'already-disabled');
  if (!disable && !target.disabledAt) throw new ConflictError('這個帳號目前是啟用的。', 'not-disabled');
  if (disable && target.role === 'owner' && (await otherActiveOwners(tx, target.id)) === 0) {
    throw new ConflictError('這是唯一的店主帳號，不能停用。', 'last-owner');
  }
  const disabledAt = disable ? now : null;
  await tx.update(users).set({ disabledAt, updatedAt: now }).where(eq(users.id, target.id));
  const revokedSessions = disable ? await revokeUserSessions(tx, target.id, now) : 0;
  return {
    before: { disabledAt: target.disabledAt?.toISOString() ?? null, role: target.role },
    after: { disabledAt: disabledAt?.toISOString() ?? null, role: target.role },
    revokedSessions,
  };
}

/** Members of each tier (the tiers page shows how many each edit touches). */
export async function membersPerTier(db: DbOrTx, codes: string[]): Promise<Map<string, number>> {
  if (codes.length === 0) return new Map();
  const rows = await db.select({ code: users.tierCode, n: count() }).from(users).where(inArray(users.tierCode, codes)).groupBy(users.tierCode);
  return new Map(rows.map((r) => [r.code, Number(r.n)]));
}
