import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { rows } from '../../db/rows.ts';

export type ConsentKind = 'marketing-mail';
export type ConsentSource = 'sign-up' | 'settings' | 'unsubscribe' | 'account-deleted';

/** The member's newest consent row of a kind (their current choice), or null when they never gave one. */
export async function latestConsent(
  db: DbOrTx,
  userId: string,
  kind: ConsentKind,
): Promise<{ granted: boolean; at: Date; source: ConsentSource } | null> {
  const [row] = rows<{ granted: boolean; at: Date | string; source: ConsentSource }>(
    await db.execute(sql`
      select granted, at, source from marketing_consents
      where user_id = ${userId}::uuid and kind = ${kind}
      order by id desc limit 1`),
  );
  return row ? { granted: row.granted, at: new Date(row.at), source: row.source } : null;
}

/**
 * Records a choice, in one statement and only when it differs from the member's current one (no
 * row counts as no): a repeated click or a second unsubscribe adds nothing. True when a row was written.
 */
export async function recordConsentChange(
  db: DbOrTx,
  userId: string,
  kind: ConsentKind,
  granted: boolean,
  source: ConsentSource,
): Promise<boolean> {
  const written = rows(
    await db.execute(sql`
      insert into marketing_consents (user_id, kind, granted, source)
      select ${userId}::uuid, ${kind}, ${granted}, ${source}
      where exists (select 1 from users where id = ${userId}::uuid)
        and coalesce(
          (select granted from marketing_consents where user_id = ${userId}::uuid and kind = ${kind} order by id desc limit 1),
          false
        ) <> ${granted}
      returning id`),
  );
  return written.length > 0;
}

/** Of these members, those whose current choice of a kind is yes. */
export async function grantedAmong(
  db: DbOrTx,
  userIds: readonly string[],
  kind: ConsentKind,
): Promise<string[]> {
  if (userIds.length === 0) return [];
  const found = rows<{ user_id: string; granted: boolean }>(
    await db.execute(sql`
      select distinct on (user_id) user_id, granted from marketing_consents
      where kind = ${kind} and user_id in (${sql.join(
        userIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
      order by user_id, id desc`),
  );
  return found.filter((r) => r.granted).map((r) => r.user_id);
}

/** Every consent row of a member, oldest first (their data export). */
export async function consentHistory(db: DbOrTx, userId: string) {
  return rows<{ kind: ConsentKind; granted: boolean; at: Date | string; source: ConsentSource }>(
    await db.execute(sql`
      select kind, granted, at, source from marketing_consents
      where user_id = ${userId}::uuid order by id`),
  ).map((r) => ({ ...r, at: new Date(r.at).toISOString() }));
}
