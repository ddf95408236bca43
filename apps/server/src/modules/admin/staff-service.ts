import { and, desc, eq, inArray, max, sql } from 'drizzle-orm';
import { STAFF_ROLES, type StaffRole } from '@shop/shared/admin';
import type { StaffRow } from '@shop/shared/admin-members';
import type { DbOrTx } from '../../db/client.ts';
import { sessions, users } from '../../db/schema.ts';
import { ConflictError, NotFoundError } from '../../lib/errors.ts';
import { issueActionCode } from '../auth/service.ts';
import { findUserById } from '../auth/repo.ts';
import { revokeUserSessions } from '../auth/session-repo.ts';
import type { StaffActor } from './guard.ts';
import { otherActiveOwners } from './members-service.ts';

/** How long an invited staff member's set-password link works. */
export const SET_PASSWORD_TTL_MS = 72 * 60 * 60 * 1000;

export interface StaffInvite {
  uid: string;
  email: string;
  role: StaffRole;
  created: boolean;
  setPasswordUrl: string;
  expiresAt: string;
}

/**
 * Refuses a role change that would leave the shop without an owner who can sign in, or that the
 * actor makes to their own account (an owner cannot lock themselves out by mistake).
 */
export async function assertRoleChangeAllowed(db: DbOrTx, actor: StaffActor | null, target: { id: string; role: string }, nextRole: StaffRole | 'customer'): Promise<void> {
  if (target.role === nextRole) return;
  if (actor?.id && actor.id === target.id) throw new ConflictError('不能變更自己的角色，請由另一位店主處理。', 'own-role');
  if (target.role === 'owner' && (await otherActiveOwners(db, target.id)) === 0) {
    throw new ConflictError('這是唯一的店主帳號，請先指定另一位店主，再變更這個帳號的角色。', 'last-owner');
  }
}

/**
 * Makes an account a console account with the given role (creating it when the address is new) and
 * issues a one-time link to set its password. Other sessions of the account keep working. With an
 * actor, the last owner cannot be demoted and nobody changes their own role.
 */
export async function inviteStaff(
  db: DbOrTx,
  publicUrl: string,
  input: { email: string; role: StaffRole; displayName?: string | undefined },
  now = new Date(),
  actor: StaffActor | null = null,
): Promise<StaffInvite & { previousRole: string | null }> {
  const email = input.email.trim().toLowerCase();
  const [existing] = await db.select({ id: users.id, role: users.role }).from(users).where(eq(users.email, email)).limit(1).for('update');
  let id = existing?.id;
  if (existing) {
    await assertRoleChangeAllowed(db, actor, existing, input.role);
    await db.update(users).set({ role: input.role, disabledAt: null, updatedAt: now }).where(eq(users.id, existing.id));
  } else {
    const [row] = await db
      .insert(users)
      .values({ email, displayName: input.displayName ?? email.split('@')[0]!.slice(0, 30), emailVerifiedAt: now, role: input.role })
      .returning({ id: users.id });
    id = row!.id;
  }
  const user = await findUserById(db, id!);
  if (!user) throw new Error('staff account vanished');
  const code = await issueActionCode({ db, now: () => now }, user, 'reset-password', SET_PASSWORD_TTL_MS);
  return {
    uid: id!,
    email,
    role: input.role,
    created: !existing,
    previousRole: existing?.role ?? null,
    setPasswordUrl: `${publicUrl}/resetPassword?code=${code}`,
    expiresAt: new Date(now.getTime() + SET_PASSWORD_TTL_MS).toISOString(),
  };
}

/** The console accounts, owners first, with when each last signed in. */
export async function listStaff(db: DbOrTx): Promise<StaffRow[]> {
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      displayName: users.displayName,
      role: users.role,
      disabledAt: users.disabledAt,
      passwordSet: sql<boolean>`${users.passwordHash} is not null`,
      createdAt: users.createdAt,
      lastSignInAt: max(sessions.createdAt),
    })
    .from(users)
    .leftJoin(sessions, eq(sessions.userId, users.id))
    .where(inArray(users.role, [...STAFF_ROLES]))
    .groupBy(users.id)
    .orderBy(sql`case ${users.role} when 'owner' then 0 when 'staff' then 1 else 2 end`, desc(users.createdAt));
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    displayName: r.displayName,
    role: r.role as StaffRole,
    disabledAt: r.disabledAt?.toISOString() ?? null,
    passwordSet: Boolean(r.passwordSet),
    lastSignInAt: r.lastSignInAt ? new Date(r.lastSignInAt).toISOString() : null,
    createdAt: r.createdAt.toISOString(),
  }));
}

async function findStaff(db: DbOrTx, userId: string) {
  const [target] = await db.select({ id: users.id, email: users.email, role: users.role }).from(users).where(and(eq(users.id, userId), inArray(users.role, [...STAFF_ROLES]))).limit(1).for('update');
  if (!target) throw new NotFoundError('找不到這個管理員帳號。');
  return target;
}

export interface StaffChange {
  readonly id: string;
  readonly email: string;
  readonly before: { role: string };
  readonly after: { role: string };
  readonly revokedSessions: number;
}

/** Gives a console account another console role. */
export async function changeStaffRole(db: DbOrTx, actor: StaffActor, userId: string, role: StaffRole, now = new Date()): Promise<StaffChange> {
  const target = await findStaff(db, userId);
  await assertRoleChangeAllowed(db, actor, target, role);
  if (target.role !== role) await db.update(users).set({ role, updatedAt: now }).where(eq(users.id, target.id));
  return { id: target.id, email: target.email, before: { role: target.role }, after: { role }, revokedSessions: 0 };
}

/** Takes the console away from an account: it becomes a customer again and every session ends. */
export async function revokeStaff(db: DbOrTx, actor: StaffActor, userId: string, now = new Date()): Promise<StaffChange> {
  const target = await findStaff(db, userId);
  await assertRoleChangeAllowed(db, actor, target, 'customer');
  await db.update(users).set({ role: 'customer', updatedAt: now }).where(eq(users.id, target.id));
  const revokedSessions = await revokeUserSessions(db, target.id, now);
  return { id: target.id, email: target.email, before: { role: target.role }, after: { role: 'customer' }, revokedSessions };
}
