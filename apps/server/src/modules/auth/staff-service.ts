import type { StaffRole } from '@shop/shared/admin';
import type { StaffRow } from '@shop/shared/admin-members';
import type { DbOrTx } from '../../db/client.ts';
import { ConflictError, NotFoundError } from '../../lib/errors.ts';
import { issueActionCode } from './action-codes.ts';
import { revokeUserSessions } from './session-service.ts';
import { recordAuditBy } from '../../plugins/audit.ts';
import type { StaffActor } from '../../plugins/staff-guard.ts';
import * as repo from './staff-repo.ts';

/** Owners who can still sign in, other than `exceptId` (a shop always keeps one); locks their rows. */
export function otherActiveOwners(db: DbOrTx, exceptId: string): Promise<number> {
  return repo.otherActiveOwners(db, exceptId);
}

/** How long an invited staff member's set-password link works. */
export const SET_PASSWORD_TTL_MS = 72 * 60 * 60 * 1000;

export interface StaffInvite {
  uid: string;
  email: string;
  displayName: string;
  role: StaffRole;
  created: boolean;
  setPasswordUrl: string;
  expiresAt: string;
}

/**
 * Refuses a role change that would leave the shop without an owner who can sign in, or that the
 * actor makes to their own account (an owner cannot lock themselves out by mistake).
 */
export async function assertRoleChangeAllowed(
  db: DbOrTx,
  actor: StaffActor | null,
  target: { id: string; role: string },
  nextRole: StaffRole | 'customer',
): Promise<void> {
  if (target.role === nextRole) return;
  if (actor?.id && actor.id === target.id)
    throw new ConflictError('不能變更自己的角色，請由另一位店主處理。', 'own-role');
  if (target.role === 'owner' && (await repo.otherActiveOwners(db, target.id)) === 0) {
    throw new ConflictError('這是唯一的店主帳號，請先指定另一位店主，再變更這個帳號的角色。', 'last-owner');
  }
}

/**
 * Invites an address to the console with a role. Nothing is granted here: the address (a new
 * account without a password, or the account that already has it) gets a one-time link (72 hours,
 * mailed by the caller), and the role comes only when the mailbox's owner accepts it
 * (acceptStaffInvite), which also sets a new password and ends every earlier session. So whoever
 * registered the address first gains nothing. The last owner cannot be demoted and nobody changes
 * their own role, checked here and again on acceptance.
 */
export async function inviteStaff(
  db: DbOrTx,
  publicUrl: string,
  input: { email: string; role: StaffRole; displayName?: string | undefined },
  now = new Date(),
  actor: StaffActor | null = null,
): Promise<StaffInvite & { previousRole: string | null }> {
  const email = input.email.trim().toLowerCase();
  const existing = await repo.lockAccountByEmail(db, email);
  let account = existing;
  if (existing) {
    await assertRoleChangeAllowed(db, actor, existing, input.role);
  } else {
    account = await repo.insertAccount(db, email, input.displayName ?? email.split('@')[0]!.slice(0, 30));
  }
  const code = await issueActionCode(
    db,
    { id: account!.id, email },
    'staff-invite',
    SET_PASSWORD_TTL_MS,
    now,
    { role: input.role },
  );
  return {
    uid: account!.id,
    email,
    displayName: account!.displayName,
    role: input.role,
    created: !existing,
    previousRole: existing?.role ?? null,
    setPasswordUrl: `${publicUrl}/resetPassword?code=${encodeURIComponent(code)}`,
    expiresAt: new Date(now.getTime() + SET_PASSWORD_TTL_MS).toISOString(),
  };
}

/**
 * Grants an invite's role, inside the transaction that consumes the invite and sets the password
 * (auth's resetPassword). The address is verified by the acceptance itself, a disabled account is
 * enabled, and the change is audited with the invitee as the actor.
 */
export async function acceptStaffInvite(
  tx: DbOrTx,
  invite: { userId: string; email: string; role: StaffRole | null; ip: string | null },
  now: Date,
): Promise<void> {
  if (!invite.role) throw new Error('staff invite without a role');
  const target = await repo.lockAccount(tx, invite.userId);
  if (!target || target.email !== invite.email)
    throw new ConflictError('這個邀請已經失效，請店主重新邀請。', 'invalid-action-code');
  await assertRoleChangeAllowed(tx, null, target, invite.role);
  await repo.grantInvitedRole(tx, target.id, invite.role, now);
  await recordAuditBy(tx, { id: target.id, email: target.email, role: invite.role }, invite.ip, {
    action: 'staff.accept',
    entity: 'user',
    entityId: target.id,
    before: { email: target.email, role: target.role },
    after: { email: target.email, role: invite.role },
  });
}

const ROLE_ORDER: Readonly<Record<StaffRole, number>> = { owner: 0, staff: 1, viewer: 2 };

/**
 * The console accounts and the addresses invited to it, owners first, with when each last signed
 * in. An invite not yet accepted is listed with the invited role and `pendingInvite`.
 */
export async function listStaff(db: DbOrTx, now = new Date()): Promise<StaffRow[]> {
  const invites = new Map((await repo.pendingInvites(db, now)).map((i) => [i.userId, i]));
  const rows = await repo.staffAccounts(db, [...invites.keys()]);
  return rows
    .map((r) => {
      const invite = invites.get(r.id);
      const pendingInvite = invite?.role
        ? { role: invite.role, expiresAt: invite.expiresAt.toISOString() }
        : null;
      return {
        id: r.id,
        email: r.email,
        displayName: r.displayName,
        role: (pendingInvite && r.role === 'customer' ? pendingInvite.role : r.role) as StaffRole,
        pendingInvite,
        disabledAt: r.disabledAt?.toISOString() ?? null,
        passwordSet: Boolean(r.passwordSet),
        lastSignInAt: r.lastSignInAt ? new Date(r.lastSignInAt).toISOString() : null,
        createdAt: r.createdAt.toISOString(),
      };
    })
    .sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || b.createdAt.localeCompare(a.createdAt));
}

async function findStaff(db: DbOrTx, userId: string) {
  const target = await repo.lockStaffAccount(db, userId);
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
export async function changeStaffRole(
  db: DbOrTx,
  actor: StaffActor,
  userId: string,
  role: StaffRole,
  now = new Date(),
): Promise<StaffChange> {
  const target = await findStaff(db, userId);
  await assertRoleChangeAllowed(db, actor, target, role);
  if (target.role !== role) await repo.setRole(db, target.id, role, now);
  return {
    id: target.id,
    email: target.email,
    before: { role: target.role },
    after: { role },
    revokedSessions: 0,
  };
}

/**
 * Takes the console away from an account: it becomes a customer again and every session ends. Its
 * pending invites end too, so a link already mailed cannot bring the role back; an address that
 * was only invited just loses the invite (its own sessions as a shopper stay).
 */
export async function revokeStaff(
  db: DbOrTx,
  actor: StaffActor,
  userId: string,
  now = new Date(),
): Promise<StaffChange & { invitedRole: StaffRole | null }> {
  const target = await repo.lockAccount(db, userId);
  const [invite] = target ? await repo.pendingInvites(db, now, target.id) : [];
  if (!target || (target.role === 'customer' && !invite)) throw new NotFoundError('找不到這個管理員帳號。');
  await assertRoleChangeAllowed(db, actor, target, 'customer');
  await repo.endInvites(db, target.id, now);
  let revokedSessions = 0;
  if (target.role !== 'customer') {
    await repo.setRole(db, target.id, 'customer', now);
    revokedSessions = await revokeUserSessions(db, target.id, now);
  }
  return {
    id: target.id,
    email: target.email,
    before: { role: target.role },
    after: { role: 'customer' },
    revokedSessions,
    invitedRole: invite?.role ?? null,
  };
}
