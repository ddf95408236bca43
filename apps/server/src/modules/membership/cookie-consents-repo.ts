import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { cookieConsents } from '../../db/schema.ts';

export interface CookieConsentRow {
  kind: 'analytics' | 'marketing';
  granted: boolean;
  source: 'banner' | 'settings';
  version: number;
}

/** Adds one row per category of a member's choice. */
export async function insertCookieConsents(
  db: DbOrTx,
  userId: string,
  rows: CookieConsentRow[],
): Promise<void> {
  await db.insert(cookieConsents).values(rows.map((row) => ({ ...row, userId })));
}

/** A member's recorded choices, newest first. */
export async function listCookieConsents(db: DbOrTx, userId: string) {
  return db
    .select({
      kind: cookieConsents.kind,
      granted: cookieConsents.granted,
      source: cookieConsents.source,
      version: cookieConsents.version,
      at: cookieConsents.at,
    })
    .from(cookieConsents)
    .where(eq(cookieConsents.userId, userId))
    .orderBy(desc(cookieConsents.at));
}
