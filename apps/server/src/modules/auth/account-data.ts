import type { DbOrTx } from '../../db/client.ts';
import * as repo from './repo.ts';
import { identitiesOf } from './social-repo.ts';

/** The account's own part of a member's data export: who they are and where they signed in. */
export async function accountForExport(db: DbOrTx, userId: string) {
  const user = await repo.findUserById(db, userId);
  if (!user) return null;
  const signIns = await repo.sessionsOf(db, userId);
  const identities = await identitiesOf(db, userId);
  return {
    profile: {
      email: user.email,
      displayName: user.displayName,
      phone: user.phone,
      birthday: user.birthday,
      tier: user.tierCode,
      emailVerifiedAt: user.emailVerifiedAt?.toISOString() ?? null,
      createdAt: user.createdAt.toISOString(),
    },
    linkedSignIns: identities.map((i) => ({
      provider: i.provider,
      email: i.email,
      linkedAt: i.linkedAt.toISOString(),
    })),
    signIns: signIns.map((s) => ({
      at: s.createdAt.toISOString(),
      lastSeenAt: s.lastSeenAt.toISOString(),
      endedAt: (s.revokedAt ?? (s.expiresAt < new Date() ? s.expiresAt : null))?.toISOString() ?? null,
      device: s.userAgent,
      ip: s.ip,
    })),
  };
}

/** Who the account was, read before it is forgotten (the goodbye mail's address and name). */
export async function accountContact(db: DbOrTx, userId: string) {
  const user = await repo.findUserById(db, userId);
  return user
    ? { email: user.email, displayName: user.displayName, role: user.role, tier: user.tierCode }
    : null;
}

/** Forgets the person behind an account, in the caller's transaction; false for a staff account. */
export function forgetAccount(db: DbOrTx, userId: string, now: Date): Promise<boolean> {
  return repo.anonymiseMember(db, userId, now);
}
