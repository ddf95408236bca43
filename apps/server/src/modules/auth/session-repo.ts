import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { sessions, users } from '../../db/schema.ts';

export interface SessionRow {
  readonly id: string;
  readonly userId: string;
  readonly expiresAt: Date;
  readonly lastSeenAt: Date;
}

export interface SessionUserRow {
  readonly id: string;
  readonly email: string;
  readonly displayName: string;
  readonly emailVerifiedAt: Date | null;
  readonly disabledAt: Date | null;
  readonly role: string;
}

export async function insertSession(
  db: DbOrTx,
  values: { userId: string; tokenHash: string; expiresAt: Date; userAgent: string | null; ip: string | null },
): Promise<SessionRow> {
  const [row] = await db.insert(sessions).values(values).returning({
    id: sessions.id,
    userId: sessions.userId,
    expiresAt: sessions.expiresAt,
    lastSeenAt: sessions.lastSeenAt,
  });
  if (!row) throw new Error('session insert returned nothing');
  return row;
}

/** A live session and its user, by token hash; one query. */
export async function findLiveSession(
  db: DbOrTx,
  tokenHash: string,
  now: Date,
): Promise<{ session: SessionRow; user: SessionUserRow } | null> {
  const [row] = await db
    .select({
      session: {
        id: sessions.id,
        userId: sessions.userId,
        expiresAt: sessions.expiresAt,
        lastSeenAt: sessions.lastSeenAt,
      },
      user: {
        id: users.id,
        email: users.email,
        displayName: users.displayName,
        emailVerifiedAt: users.emailVerifiedAt,
        disabledAt: users.disabledAt,
        role: users.role,
      },
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .limit(1);
  return row ?? null;
}

export async function touchSession(db: DbOrTx, id: string, now: Date, expiresAt: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: now, expiresAt }).where(eq(sessions.id, id));
}

export async function revokeSession(db: DbOrTx, id: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
}

/** Revokes every live session of a user, optionally sparing one (the one in use). */
export async function revokeUserSessions(
  db: DbOrTx,
  userId: string,
  now: Date,
  exceptId?: string,
): Promise<number> {
  const result = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        exceptId ? sql`${sessions.id} <> ${exceptId}` : undefined,
      ),
    )
    .returning({ id: sessions.id });
  return result.length;
}
