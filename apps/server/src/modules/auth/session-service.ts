import { hash, randomBytes } from 'node:crypto';
import type { DbOrTx } from '../../db/client.ts';
import { isStaffRole, STAFF_IDLE_MS } from '@shop/shared/admin';
import * as repo from './session-repo.ts';
import type { AuthContext } from './auth-context.ts';
import type { SessionCache } from './session-cache.ts';

export type { AuthContext, AuthUser } from './auth-context.ts';

/** 30-day sliding expiry: each use (at most hourly) pushes the end out again. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const TOUCH_EVERY_MS = 60 * 60 * 1000;
/** Staff sessions are touched more often, so their 12-hour idle limit is measured closely. */
const STAFF_TOUCH_EVERY_MS = 5 * 60 * 1000;

/** 256 bits from the OS, URL-safe; only its SHA-256 is ever stored. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/**
 * Starts a session for a user and returns the raw token for the cookie.
 * The caller rotates by revoking any previous session first.
 */
export async function createSession(
  db: DbOrTx,
  userId: string,
  meta: { userAgent: string | null; ip: string | null },
  now = new Date(),
): Promise<{ token: string; expiresAt: Date; sessionId: string }> {
  const token = newSessionToken();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  const row = await repo.insertSession(db, {
    userId,
    tokenHash: hashToken(token),
    expiresAt,
    userAgent: meta.userAgent?.slice(0, 512) ?? null,
    ip: meta.ip,
  });
  return { token, expiresAt, sessionId: row.id };
}

/**
 * Resolves a cookie token to a signed-in user, or null when the token is unknown, revoked,
 * expired, or its account is disabled, or, for staff, idle for more than 12 hours. Slides the
 * expiry at most once an hour (every 5 minutes for staff).
 */
export async function resolveSession(
  db: DbOrTx,
  token: string,
  now = new Date(),
  cache?: SessionCache,
): Promise<AuthContext | null> {
  if (token.length < 32 || token.length > 128) return null;
  const tokenHash = hashToken(token);
  const hit = cache?.get(tokenHash);
  // From memory while nothing would be written: not expired, not idle past staff's limit, and not
  // yet due for the sliding expiry's move (those take the database path below).
  if (
    hit &&
    hit.auth.expiresAt > now &&
    now.getTime() - hit.lastSeenAt.getTime() <= (hit.staff ? STAFF_TOUCH_EVERY_MS : TOUCH_EVERY_MS)
  )
    return hit.auth;
  const since = cache?.generation ?? 0;
  const found = await repo.findLiveSession(db, tokenHash, now);
  if (!found || found.user.disabledAt) return null;
  const idleMs = now.getTime() - found.session.lastSeenAt.getTime();
  const staff = isStaffRole(found.user.role);
  // Staff sessions end after 12 hours without use (the console holds every customer's data).
  if (staff && idleMs > STAFF_IDLE_MS) {
    await repo.revokeSession(db, found.session.id, now);
    return null;
  }
  let expiresAt = found.session.expiresAt;
  let lastSeenAt = found.session.lastSeenAt;
  if (idleMs > (staff ? STAFF_TOUCH_EVERY_MS : TOUCH_EVERY_MS)) {
    expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    lastSeenAt = now;
    await repo.touchSession(db, found.session.id, now, expiresAt);
  }
  const auth: AuthContext = {
    sessionId: found.session.id,
    expiresAt,
    user: {
      id: found.user.id,
      email: found.user.email,
      displayName: found.user.displayName,
      emailVerified: found.user.emailVerifiedAt !== null,
      role: found.user.role,
    },
  };
  cache?.set(tokenHash, { auth, lastSeenAt, staff }, since);
  return auth;
}

export async function endSession(db: DbOrTx, sessionId: string, now = new Date()): Promise<void> {
  await repo.revokeSession(db, sessionId, now);
}

export { revokeUserSessions } from './session-repo.ts';
