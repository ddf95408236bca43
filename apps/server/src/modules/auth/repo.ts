import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { actionCodes, sessions, socialSignIns, userIdentities, users } from '../../db/schema.ts';

export type UserRow = typeof users.$inferSelect;
export type ActionKind = (typeof actionCodes.$inferSelect)['kind'];
export type ActionCodeRow = typeof actionCodes.$inferSelect;
type StaffInviteRole = NonNullable<ActionCodeRow['role']>;

export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row ?? null;
}

export async function findUserById(db: DbOrTx, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/** Inserts a user; returns null when the e-mail is taken (the unique index decides, race-free). */
export async function insertUser(
  db: DbOrTx,
  /** A member who signs up through LINE or Google has no password (null) until they set one. */
  values: { email: string; displayName: string; passwordHash: string | null; emailVerifiedAt?: Date | null },
): Promise<UserRow | null> {
  const [row] = await db
    .insert(users)
    .values(values)
    .onConflictDoNothing({ target: users.email })
    .returning();
  return row ?? null;
}

export async function setPassword(
  db: DbOrTx,
  userId: string,
  passwordHash: string,
  now: Date,
): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash, passwordChangedAt: now, updatedAt: now })
    .where(eq(users.id, userId));
}

export async function markEmailVerified(
  db: DbOrTx,
  userId: string,
  email: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ emailVerifiedAt: now, updatedAt: now })
    .where(and(eq(users.id, userId), eq(users.email, email)))
    .returning({ id: users.id });
  return rows.length > 0;
}

export async function insertActionCode(
  db: DbOrTx,
  values: {
    userId: string;
    kind: ActionKind;
    codeHash: string;
    email: string;
    role: StaffInviteRole | null;
    expiresAt: Date;
  },
): Promise<void> {
  await db.insert(actionCodes).values(values);
}

/**
 * Ends every unused code of an account, whatever its kind: after a credential change no link
 * mailed before it (a reset, an e-mail change someone else started, an invite) may still work.
 */
export async function endActionCodes(db: DbOrTx, userId: string, now: Date): Promise<void> {
  await db
    .update(actionCodes)
    .set({ usedAt: now })
    .where(and(eq(actionCodes.userId, userId), isNull(actionCodes.usedAt)));
}

/** Marks a user's unused codes of a kind as used, so only the newest link works. */
export async function supersedeActionCodes(
  db: DbOrTx,
  userId: string,
  kind: ActionKind,
  now: Date,
): Promise<void> {
  await db
    .update(actionCodes)
    .set({ usedAt: now })
    .where(and(eq(actionCodes.userId, userId), eq(actionCodes.kind, kind), isNull(actionCodes.usedAt)));
}

export async function findActionCode(db: DbOrTx, codeHash: string): Promise<ActionCodeRow | null> {
  const [row] = await db.select().from(actionCodes).where(eq(actionCodes.codeHash, codeHash)).limit(1);
  return row ?? null;
}

/** Uses a code once: true only for the caller that flipped it (concurrent uses get false). */
export async function consumeActionCode(db: DbOrTx, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(actionCodes)
    .set({ usedAt: now })
    .where(and(eq(actionCodes.id, id), isNull(actionCodes.usedAt)))
    .returning({ id: actionCodes.id });
  return rows.length > 0;
}

export async function latestActionCodeAt(db: DbOrTx, userId: string, kind: ActionKind): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<Date | string>`max(${actionCodes.createdAt})` })
    .from(actionCodes)
    .where(and(eq(actionCodes.userId, userId), eq(actionCodes.kind, kind)));
  return row?.at ? new Date(row.at) : null;
}

export async function setReauthenticated(db: DbOrTx, sessionId: string, at: Date | null): Promise<void> {
  await db.update(sessions).set({ reauthenticatedAt: at }).where(eq(sessions.id, sessionId));
}

export async function getReauthenticatedAt(db: DbOrTx, sessionId: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: sessions.reauthenticatedAt })
    .from(sessions)
    .where(eq(sessions.id, sessionId))
    .limit(1);
  return row?.at ?? null;
}

export async function changeEmail(db: DbOrTx, userId: string, email: string, now: Date): Promise<void> {
  await db.update(users).set({ email, emailVerifiedAt: now, updatedAt: now }).where(eq(users.id, userId));
}

export async function pendingActionEmail(
  db: DbOrTx,
  userId: string,
  kind: ActionKind,
  now: Date,
): Promise<string | null> {
  const [row] = await db
    .select({ email: actionCodes.email })
    .from(actionCodes)
    .where(
      and(
        eq(actionCodes.userId, userId),
        eq(actionCodes.kind, kind),
        isNull(actionCodes.usedAt),
        gt(actionCodes.expiresAt, now),
      ),
    )
    .orderBy(desc(actionCodes.createdAt))
    .limit(1);
  return row?.email ?? null;
}

/** A member's sign-ins as kept (the member's data export): when, from where, and whether still live. */
export async function sessionsOf(db: DbOrTx, userId: string) {
  return db
    .select({
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      revokedAt: sessions.revokedAt,
      userAgent: sessions.userAgent,
      ip: sessions.ip,
    })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.createdAt));
}

/**
 * Deletes a member's account in place (docs/product-rules.md#a-members-own-data): the row stays, so
 * the orders and invoices that point to it stay whole, but nothing in it names or reaches the person.
 * Staff accounts are left alone (the console has its own way). Its sessions and links go with it.
 */
export async function anonymiseMember(db: DbOrTx, userId: string, now: Date): Promise<boolean> {
  const changed = await db
    .update(users)
    .set({
      email: sql`'deleted-' || ${users.id} || '@deleted.invalid'`,
      displayName: '已刪除的會員',
      phone: null,
      birthday: null,
      passwordHash: null,
      emailVerifiedAt: null,
      disabledAt: now,
      updatedAt: now,
    })
    .where(and(eq(users.id, userId), eq(users.role, 'customer')))
    .returning({ id: users.id });
  if (changed.length === 0) return false;
  await db.delete(sessions).where(eq(sessions.userId, userId));
  await db.delete(actionCodes).where(eq(actionCodes.userId, userId));
  // A LINE or Google login must not lead back into the emptied account; it may start a new one.
  await db.delete(userIdentities).where(eq(userIdentities.userId, userId));
  await db.delete(socialSignIns).where(eq(socialSignIns.userId, userId));
  return true;
}
