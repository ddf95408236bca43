import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { socialSignIns, userIdentities, users } from '../../db/schema.ts';

export type IdentityRow = typeof userIdentities.$inferSelect;
export type SocialTripRow = typeof socialSignIns.$inferSelect;
export type NewSocialTrip = typeof socialSignIns.$inferInsert;
type Provider = IdentityRow['provider'];

export async function findIdentity(
  db: DbOrTx,
  provider: Provider,
  subject: string,
): Promise<IdentityRow | null> {
  const [row] = await db
    .select()
    .from(userIdentities)
    .where(and(eq(userIdentities.provider, provider), eq(userIdentities.subject, subject)))
    .limit(1);
  return row ?? null;
}

export async function identitiesOf(db: DbOrTx, userId: string): Promise<IdentityRow[]> {
  return db
    .select()
    .from(userIdentities)
    .where(eq(userIdentities.userId, userId))
    .orderBy(asc(userIdentities.linkedAt));
}

/** Links an identity; null when (provider, subject) is already linked (the unique index decides, race-free). */
export async function insertIdentity(
  db: DbOrTx,
  values: { provider: Provider; subject: string; userId: string; email: string | null },
): Promise<IdentityRow | null> {
  const [row] = await db
    .insert(userIdentities)
    .values(values)
    .onConflictDoNothing({ target: [userIdentities.provider, userIdentities.subject] })
    .returning();
  return row ?? null;
}

export async function deleteIdentity(db: DbOrTx, userId: string, provider: Provider): Promise<boolean> {
  const rows = await db
    .delete(userIdentities)
    .where(and(eq(userIdentities.userId, userId), eq(userIdentities.provider, provider)))
    .returning({ id: userIdentities.id });
  return rows.length > 0;
}

/** Locks the account's row for the rest of the transaction; whether it has a password. */
export async function lockUserPassword(db: DbOrTx, userId: string): Promise<{ hasPassword: boolean } | null> {
  const [row] = await db
    .select({ hasPassword: sql<boolean>`${users.passwordHash} is not null` })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  return row ?? null;
}

export async function insertTrip(db: DbOrTx, values: NewSocialTrip): Promise<void> {
  await db.insert(socialSignIns).values(values);
}

export async function findTrip(db: DbOrTx, tokenHash: string): Promise<SocialTripRow | null> {
  const [row] = await db.select().from(socialSignIns).where(eq(socialSignIns.tokenHash, tokenHash)).limit(1);
  return row ?? null;
}

/** Takes a trip away (single use): only the caller that deleted it gets the row. */
export async function takeTrip(db: DbOrTx, id: string): Promise<SocialTripRow | null> {
  const [row] = await db.delete(socialSignIns).where(eq(socialSignIns.id, id)).returning();
  return row ?? null;
}

export async function updateTrip(
  db: DbOrTx,
  id: string,
  values: Partial<
    Pick<SocialTripRow, 'stage' | 'userId' | 'proofCodeHash' | 'proofCodeExpiresAt' | 'proofAttempts'>
  >,
): Promise<void> {
  await db.update(socialSignIns).set(values).where(eq(socialSignIns.id, id));
}

/** Counts a wrong proof code; the tries made so far. */
export async function countProofAttempt(db: DbOrTx, id: string): Promise<number> {
  const [row] = await db
    .update(socialSignIns)
    .set({ proofAttempts: sql`${socialSignIns.proofAttempts} + 1` })
    .where(eq(socialSignIns.id, id))
    .returning({ attempts: socialSignIns.proofAttempts });
  return row?.attempts ?? Number.MAX_SAFE_INTEGER;
}

export async function deleteExpiredTrips(db: DbOrTx, now: Date): Promise<void> {
  await db.delete(socialSignIns).where(lt(socialSignIns.expiresAt, now));
}
