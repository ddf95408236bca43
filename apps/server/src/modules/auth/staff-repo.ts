import { and, eq, gt, inArray, isNull, max, ne, or, sql } from 'drizzle-orm';
import { STAFF_ROLES, type StaffRole } from '@shop/shared/admin';
import type { DbOrTx } from '../../db/client.ts';
import { actionCodes, sessions, users } from '../../db/schema.ts';

// Staff accounts: console roles on accounts, the invites that grant them, and who may still own the shop.

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

/** Owners who can still sign in, other than `exceptId`; locks their rows (two owners demoting each other at once cannot both succeed). */
export async function otherActiveOwners(db: DbOrTx, exceptId: string): Promise<number> {
  const found = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'owner'), isNull(users.disabledAt), ne(users.id, exceptId)))
    .for('update');
  return found.length;
}
