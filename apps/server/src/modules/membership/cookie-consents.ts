import type { CookieConsentBody } from '@shop/shared/storefront';
import type { DbOrTx } from '../../db/client.ts';
import { insertCookieConsents, listCookieConsents } from './cookie-consents-repo.ts';

/**
 * Records a signed-in member's cookie choice, one row per optional category (decision 042). The
 * browser's stored choice decides what loads; this is the shop's record of what was agreed and when.
 */
export async function recordCookieConsent(
  db: DbOrTx,
  userId: string,
  body: CookieConsentBody,
): Promise<void> {
  await insertCookieConsents(db, userId, [
    { kind: 'analytics', granted: body.analytics, source: body.source, version: body.version },
    { kind: 'marketing', granted: body.marketing, source: body.source, version: body.version },
  ]);
}

/** A member's recorded cookie choices, oldest first (their data export). */
export async function cookieConsentsForExport(db: DbOrTx, userId: string) {
  return (await listCookieConsents(db, userId)).map((c) => ({ ...c, at: c.at.toISOString() })).reverse();
}
