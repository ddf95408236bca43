import { and, eq, gt, inArray, isNull, max, or, sql } from 'drizzle-orm';
import { STAFF_ROLES, type StaffRole } from '@shop/shared/admin';
import type { DbOrTx } from '../../db/client.ts';
import { rows } from '../../db/rows.ts';
import { actionCodes, sessions, users } from '../../db/schema.ts';

// ── dashboard ─────────────────────────────────────────────────────────────────────────────────

/**
 * A sale is an order that was paid (card, ATM), or a cash-on-delivery order that is going ahead,
 * counted on the Taipei calendar day it was paid or placed. Cancelled, refunded and unpaid orders
 * are not sales.
 */
const SALE_AT = sql`coalesce(o.paid_at, case when o.payment_method = 'cod' then o.created_at end)`;
const IS_SALE = sql`o.status in ('paid', 'processing', 'shipped', 'delivered', 'completed') and ${SALE_AT} is not null`;
const TAIPEI_DAY = sql`(${SALE_AT} at time zone 'Asia/Taipei')::date`;

/** Sales and order counts per Taipei day from `fromDay` to `toDay` (YYYY-MM-DD, both included); days without sales are absent. */
export async function salesPerDay(db: DbOrTx, fromDay: string, toDay: string) {
  return rows<{ day: string; sales: number; orders: number }>(
    await db.execute(sql`
      select to_char(${TAIPEI_DAY}, 'YYYY-MM-DD') as day, coalesce(sum(o.total), 0)::int as sales, count(*)::int as orders
      from orders o
      where ${IS_SALE} and ${TAIPEI_DAY} >= ${fromDay}::date and ${TAIPEI_DAY} <= ${toDay}::date
      group by 1`),
  );
}

export async function ordersPerStatus(db: DbOrTx) {
  return rows<{ status: string; n: number }>(
    await db.execute(sql`select o.status, count(*)::int as n from orders o group by 1`),
  );
}

/** Active products' variants at or below their low-stock threshold, lowest first. */
export async function lowStockVariants(db: DbOrTx, limit: number) {
  return rows<{
    product_id: string;
    product_name: string;
    sku: string;
    options: Record<string, string>;
    stock: number;
    low_stock_threshold: number;
  }>(
    await db.execute(sql`
      select p.id as product_id, p.name as product_name, v.sku, v.options, v.stock, v.low_stock_threshold
      from product_variants v join products p on p.id = v.product_id
      where p.status = 'active' and not v.archived and v.stock <= v.low_stock_threshold
      order by v.stock asc, p.name asc
      limit ${limit}`),
  );
}

// ── staff accounts ────────────────────────────────────────────────────────────────────────────

/** An account by e-mail, locked for the invite that follows. */
export async function lockAccountByEmail(db: DbOrTx, email: string) {
  const [row] = await db
    .select({ id: users.id, role: users.role, displayName: users.displayName })
    .from(users)
    .where(eq(users.email, email))
    .limit(1)
    .for('update');
  return row ?? null;
}

/** An account by id (any role), locked. */
export async function lockAccount(db: DbOrTx, id: string) {
  const [row] = await db
    .select({ id: users.id, email: users.email, role: users.role })
    .from(users)
    .where(eq(users.id, id))
    .limit(1)
    .for('update');
  return row ?? null;
}

/** A console account by id, locked; null for customers. */
export async function lockStaffAccount(db: DbOrTx, id: string) {
  const [row] = await db
    .select({ id: users.id, email: users.email, role: users.role })
    .from(users)
    .where(and(eq(users.id, id), inArray(users.role, [...STAFF_ROLES])))
    .limit(1)
    .for('update');
  return row ?? null;
}

export async function insertAccount(db: DbOrTx, email: string, displayName: string) {
  const [row] = await db
    .insert(users)
    .values({ email, displayName })
    .returning({ id: users.id, role: users.role, displayName: users.displayName });
  return row!;
}

export async function setRole(
  db: DbOrTx,
  id: string,
  role: StaffRole | 'customer',
  now: Date,
): Promise<void> {
  await db.update(users).set({ role, updatedAt: now }).where(eq(users.id, id));
}

/** An accepted invite: the role, the address verified (by the acceptance), the account enabled. */
export async function grantInvitedRole(db: DbOrTx, id: string, role: StaffRole, now: Date): Promise<void> {
  await db
    .update(users)
    .set({
      role,
      emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now})`,
      disabledAt: null,
      updatedAt: now,
    })
    .where(eq(users.id, id));
}

/** Unused, unexpired invites still addressed to their account's current e-mail. */
export async function pendingInvites(db: DbOrTx, now: Date, userId?: string) {
  return db
    .select({
      id: actionCodes.id,
      userId: users.id,
      role: actionCodes.role,
      expiresAt: actionCodes.expiresAt,
    })
    .from(actionCodes)
    .innerJoin(users, and(eq(users.id, actionCodes.userId), eq(users.email, actionCodes.email)))
    .where(
      and(
        eq(actionCodes.kind, 'staff-invite'),
        isNull(actionCodes.usedAt),
        gt(actionCodes.expiresAt, now),
        userId ? eq(users.id, userId) : undefined,
      ),
    );
}

/** Ends an account's unused staff invites. */
export async function endInvites(db: DbOrTx, userId: string, now: Date): Promise<void> {
  await db
    .update(actionCodes)
    .set({ usedAt: now })
    .where(
      and(eq(actionCodes.userId, userId), eq(actionCodes.kind, 'staff-invite'), isNull(actionCodes.usedAt)),
    );
}

/** Console accounts and the accounts `alsoIds` names, with when each last signed in. */
export async function staffAccounts(db: DbOrTx, alsoIds: string[]) {
  const { id, email, displayName, role, disabledAt, createdAt } = users;
  return db
    .select({
      id,
      email,
      displayName,
      role,
      disabledAt,
      passwordSet: sql<boolean>`${users.passwordHash} is not null`,
      createdAt,
      lastSignInAt: max(sessions.createdAt),
    })
    .from(users)
    .leftJoin(sessions, eq(sessions.userId, users.id))
    .where(
      alsoIds.length > 0
        ? or(inArray(users.role, [...STAFF_ROLES]), inArray(users.id, alsoIds))
        : inArray(users.role, [...STAFF_ROLES]),
    )
    .groupBy(users.id);
}
