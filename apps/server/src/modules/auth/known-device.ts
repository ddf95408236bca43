import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * A browser an account has signed in from before. A stranger who fails on purpose locks the
 * account for every unknown client, but not for these: each keeps a failure limit of its own.
 * See docs/decisions/006-security-hardening.md.
 *
 * The HttpOnly cookie reads `v1.<device id>.<mark>[.<mark>…]`: one random id per browser and, for
 * each account signed in there (up to 5, newest first), an HMAC of the account and the id keyed
 * with the account's current password hash. Nothing is stored on the server; nobody without the
 * hash can make a mark; and every mark of an account dies with its password (a reset or change).
 */
export const DEVICE_COOKIE = 'known_device';
/** Browsers cap cookie lifetimes at 400 days; a device signing in again renews it. */
export const DEVICE_COOKIE_MAX_AGE_S = 180 * 24 * 60 * 60;

const MAX_ACCOUNTS = 5;
const TOKEN = /^[A-Za-z0-9_-]{22}$/;

interface Account {
  readonly id: string;
  readonly passwordHash: string | null;
}

function parse(value: string | undefined): { deviceId: string; marks: string[] } | null {
  if (!value || value.length > 200) return null;
  const [version, deviceId, ...marks] = value.split('.');
  if (
    version !== 'v1' ||
    !deviceId ||
    !TOKEN.test(deviceId) ||
    marks.length > MAX_ACCOUNTS ||
    !marks.every((m) => TOKEN.test(m))
  )
    return null;
  return { deviceId, marks };
}

function mark(passwordHash: string, userId: string, deviceId: string): string {
  return createHmac('sha256', passwordHash)
    .update(`known-device:v1:${userId}:${deviceId}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url');
}

/** The browser's device id when its cookie carries a mark for this account and its current password; else null. */
export function knownDeviceId(account: Account | null, cookie: string | undefined): string | null {
  const parsed = parse(cookie);
  if (!parsed || !account?.passwordHash) return null;
  const expected = Buffer.from(mark(account.passwordHash, account.id, parsed.deviceId));
  return parsed.marks.some((m) => timingSafeEqual(Buffer.from(m), expected)) ? parsed.deviceId : null;
}

/**
 * The cookie after the account proved its password (or its mailbox, by a reset) in this browser:
 * this account's mark first, the marks of other accounts on the same browser kept.
 */
export function markDevice(account: Account, cookie: string | undefined): string | null {
  if (!account.passwordHash) return null;
  const parsed = parse(cookie);
  const deviceId = parsed?.deviceId ?? randomBytes(16).toString('base64url');
  const own = mark(account.passwordHash, account.id, deviceId);
  const marks = [own, ...(parsed?.marks ?? []).filter((m) => m !== own)].slice(0, MAX_ACCOUNTS);
  return ['v1', deviceId, ...marks].join('.');
}
