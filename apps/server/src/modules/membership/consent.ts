import { createHmac, timingSafeEqual } from 'node:crypto';
import type { DbOrTx } from '../../db/client.ts';
import * as repo from './consent-repo.ts';
import type { ConsentSource } from './consent-repo.ts';

/**
 * Marketing-mail consent (docs/product-rules.md#reminders): off until the member says yes (the box
 * at sign-up, the switch in the member area), recorded each time it changes with when and where.
 * Unsubscribe links carry a signed token instead of a session, so a mail app can unsubscribe with
 * one POST (RFC 8058) and a member can from any browser.
 */

export interface MarketingConsent {
  readonly granted: boolean;
  /** When the current choice was made; null while the member never chose (no). */
  readonly at: string | null;
}

export async function marketingConsent(db: DbOrTx, userId: string): Promise<MarketingConsent> {
  const row = await repo.latestConsent(db, userId, 'marketing-mail');
  return { granted: row?.granted ?? false, at: row?.at.toISOString() ?? null };
}

/** Records the member's choice (only a change writes a row); answers the choice now in force. */
export async function setMarketingConsent(
  db: DbOrTx,
  userId: string,
  granted: boolean,
  source: ConsentSource,
): Promise<MarketingConsent> {
  await repo.recordConsentChange(db, userId, 'marketing-mail', granted, source);
  return marketingConsent(db, userId);
}

/** Every consent the member gave or withdrew, with when and where (the data export). */
export function consentsForExport(db: DbOrTx, userId: string) {
  return repo.consentHistory(db, userId);
}

/** Of these members, those who agreed to marketing mail (their newest choice is yes). */
export async function marketingMailMembers(db: DbOrTx, userIds: readonly string[]): Promise<Set<string>> {
  return new Set(await repo.grantedAmong(db, userIds, 'marketing-mail'));
}

// ── signed unsubscribe links ────────────────────────────────────────────────────────────────────

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TOKEN = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/;

const signature = (secret: string, userId: string) =>
  createHmac('sha256', secret).update(`unsubscribe:marketing-mail:${userId}`).digest('base64url');

/** The token of a member's unsubscribe link: their id and an HMAC-SHA256 of it under the server's secret. */
export function unsubscribeToken(secret: string, userId: string): string {
  return `${userId}.${signature(secret, userId)}`;
}

/** The member a token was made for, or null for anything not signed with our secret. */
export function memberOfUnsubscribeToken(secret: string, token: string): string | null {
  const match = TOKEN.exec(token);
  if (!match || !UUID.test(match[1]!)) return null;
  const expected = Buffer.from(signature(secret, match[1]!));
  const given = Buffer.from(match[2]!);
  return given.length === expected.length && timingSafeEqual(given, expected) ? match[1]! : null;
}

export const unsubscribeUrl = (publicUrl: string, secret: string, userId: string) =>
  `${publicUrl}/unsubscribe/${unsubscribeToken(secret, userId)}`;

/**
 * The header fields of a marketing mail (RFC 2369 and RFC 8058): the https link a mail app posts
 * `List-Unsubscribe=One-Click` to. No mailto: nobody reads that inbox for unsubscribes.
 */
export function marketingMailHeaders(
  publicUrl: string,
  secret: string,
  userId: string,
): Record<string, string> {
  return {
    'List-Unsubscribe': `<${unsubscribeUrl(publicUrl, secret, userId)}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

/**
 * Unsubscribes the member a token names (the link's POST): 'done' when they are off the list now
 * (whether or not they were on it), 'refused' for a token we did not sign, which changes nothing.
 */
export async function unsubscribeWithToken(
  db: DbOrTx,
  secret: string,
  token: string,
): Promise<'done' | 'refused'> {
  const userId = memberOfUnsubscribeToken(secret, token);
  if (!userId) return 'refused';
  await repo.recordConsentChange(db, userId, 'marketing-mail', false, 'unsubscribe');
  return 'done';
}
