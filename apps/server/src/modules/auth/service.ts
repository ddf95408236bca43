import {
  AUTH_ERROR_MESSAGES,
  reauthLockedMessage,
  signInLockedMessage,
  type AuthErrorCode,
} from '@shop/shared/auth-errors';
import { passwordProblem } from '@shop/shared/password-policy';
import type {
  ActionCodeInfo,
  ChangePasswordBody,
  LoginBody,
  RegisterBody,
  ResetPasswordBody,
} from '@shop/shared/auth';
import { RESEND_COOLDOWN_SECONDS } from '@shop/shared/auth';
import type { Db, Tx } from '../../db/client.ts';
import { AppError, BadRequestError, TooManyRequestsError } from '../../lib/errors.ts';
import type { MailMessage, Mailer } from '../../plugins/mail.ts';
import {
  enforceLimit,
  takeAttempt,
  type Limit,
  type LimitCheck,
  type RateLimiter,
} from '../../plugins/rate-limiter.ts';
import * as repo from './repo.ts';
import { acceptStaffInvite } from './staff-service.ts';
import { hashCode, issueActionCode } from './action-codes.ts';
import { knownDeviceId, markDevice } from './known-device.ts';
import { emailChangedMail, passwordChangedMail, resetPasswordMail, verificationMail } from './mails.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { createSession, endSession, revokeUserSessions, type AuthUser } from './session-service.ts';
import { setMarketingConsent } from '../membership/consent.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Abuse limits. Password checks (sign-in, re-authentication, e-mail change) are counted before the
 * password is compared: from an unknown browser per account and per client address, from a browser
 * the account signed in from before per that browser only (see checkPassword).
 */
export const LIMITS = {
  loginFailuresPerAccount: { max: 5, windowMs: 15 * MINUTE },
  loginFailuresPerIp: { max: 50, windowMs: 15 * MINUTE },
  loginFailuresPerDevice: { max: 5, windowMs: 15 * MINUTE },
  // Mobile carriers, offices and schools put many people behind one address (carrier-grade NAT):
  // a few hundred sign-ups an hour, of which up to 60 in any 10 minutes (a class or a promotion
  // signing up together), never more (docs/decisions/018-sign-up-limits-options-maintenance.md).
  registerPerIp: { max: 300, windowMs: HOUR },
  registerBurstPerIp: { max: 60, windowMs: 10 * MINUTE },
  registerPerEmail: { max: 3, windowMs: HOUR },
  forgotPerIp: { max: 10, windowMs: HOUR },
  forgotPerEmail: { max: 5, windowMs: HOUR },
  resendPerIp: { max: 10, windowMs: HOUR },
} as const satisfies Record<string, Limit>;

export const VERIFY_EMAIL_TTL_MS = 24 * HOUR;
export const RESET_PASSWORD_TTL_MS = HOUR;
export const REAUTH_WINDOW_MS = 5 * MINUTE;

export interface AuthDeps {
  readonly db: Db;
  readonly limiter: RateLimiter;
  readonly mailer: Mailer;
  readonly publicUrl: string;
  readonly now?: () => Date;
  /** Told after sessions of a member ended (committed), so their live-update streams close. */
  readonly sessionsEnded?: (userId: string) => Promise<void>;
}

export interface RequestMeta {
  readonly ip: string;
  readonly userAgent: string | null;
  /** The browser's known-device cookie, if it sent one (known-device.ts). */
  readonly device?: string | undefined;
}

export function authError(
  code: Exclude<AuthErrorCode, 'network-request-failed'>,
  fields?: Record<string, string>,
): AppError {
  const status: Record<typeof code, number> = {
    'wrong-password': 400,
    'invalid-email': 400,
    'email-already-in-use': 409,
    'user-not-found': 404,
    'too-many-requests': 429,
    'expired-action-code': 400,
    'invalid-action-code': 400,
    'user-disabled': 403,
    'requires-recent-login': 403,
  };
  return new AppError(status[code], code, AUTH_ERROR_MESSAGES[code], fields);
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();
const clock = (deps: Pick<AuthDeps, 'now'>) => (deps.now ? deps.now() : new Date());

export function toAuthUser(row: repo.UserRow): AuthUser {
  return {
    id: row.id,
    email: row.email,
    displayName: row.displayName,
    emailVerified: row.emailVerifiedAt !== null,
    role: row.role,
  };
}

/** An action code and the mail that carries it commit together; the mail then leaves through the outbox. */
async function mailActionCode(
  deps: AuthDeps,
  issue: (tx: Tx) => Promise<string>,
  mail: (code: string) => MailMessage,
): Promise<void> {
  await deps.db.transaction(async (tx) => deps.mailer.enqueue(tx, mail(await issue(tx))));
  deps.mailer.flush();
}

/** Mails a verification link for the account's address (a new member's, or a resend). */
export async function sendVerification(deps: AuthDeps, user: repo.UserRow): Promise<void> {
  await mailActionCode(
    deps,
    (tx) => issueActionCode(tx, user, 'verify-email', VERIFY_EMAIL_TTL_MS, clock(deps)),
    (code) =>
      verificationMail(
        user.email,
        user.displayName,
        `${deps.publicUrl}/emailVerification?code=${encodeURIComponent(code)}`,
      ),
  );
}

/**
 * What one sign-up takes: the address's burst and hourly allowances and the e-mail's own. A refused
 * sign-up gives back what it took, and says how long to wait (takeAttempt).
 */
export function registerChecks(ip: string, email: string): LimitCheck[] {
  return [
    { key: `register:ip-burst:${ip}`, limit: LIMITS.registerBurstPerIp },
    { key: `register:ip:${ip}`, limit: LIMITS.registerPerIp },
    { key: `register:email:${email}`, limit: LIMITS.registerPerEmail },
  ];
}

/** Creates an account, mails a verification link and signs the new member in. */
export async function register(deps: AuthDeps, body: RegisterBody, meta: RequestMeta) {
  const email = normalizeEmail(body.email);
  await takeAttempt(deps.limiter, registerChecks(meta.ip, email));
  const user = await repo.insertUser(deps.db, {
    email,
    displayName: body.displayName,
    passwordHash: await hashPassword(body.password),
  });
  if (!user) throw authError('email-already-in-use', { email: AUTH_ERROR_MESSAGES['email-already-in-use'] });
  if (body.marketingMail === true) await setMarketingConsent(deps.db, user.id, true, 'sign-up');
  await sendVerification(deps, user);
  const session = await createSession(
    deps.db,
    user.id,
    { userAgent: meta.userAgent, ip: meta.ip },
    clock(deps),
  );
  return { user: toAuthUser(user), session, device: markDevice(user, meta.device) };
}

/**
 * Compares a password under the sign-in limits. One attempt is taken from each limit BEFORE the
 * hash is compared, atomically (memory and Redis alike), so no burst gets more checks than the
 * limit. A browser this account signed in from before (a valid known-device mark) counts against
 * its own limit only, so a stranger failing on purpose cannot lock the owner out; anyone else
 * counts per account and per client address. A success gives the address its attempt back and
 * clears the account's (or the browser's) count.
 */
async function checkPassword(
  deps: AuthDeps,
  user: repo.UserRow | null,
  email: string,
  password: string,
  meta: RequestMeta,
  lockedMessage = signInLockedMessage,
): Promise<boolean> {
  const deviceId = knownDeviceId(user, meta.device);
  const ipKey = `login-fail:ip:${meta.ip}`;
  const ownKey = deviceId && user ? `login-fail:device:${user.id}:${deviceId}` : `login-fail:acct:${email}`;
  const checks: LimitCheck[] = deviceId
    ? [{ key: ownKey, limit: LIMITS.loginFailuresPerDevice }]
    : [
        { key: ipKey, limit: LIMITS.loginFailuresPerIp },
        { key: ownKey, limit: LIMITS.loginFailuresPerAccount },
      ];
  await takeAttempt(deps.limiter, checks, lockedMessage);
  const ok = await verifyPassword(user?.passwordHash ?? null, password);
  if (ok) {
    await deps.limiter.reset(ownKey);
    if (!deviceId) await deps.limiter.undo(ipKey);
  }
  return ok;
}

/**
 * Checks an account's password under the sign-in limits (checkPassword), for a step that must prove
 * the account before something is linked to it. Throws `wrong-password` beside the field.
 */
export async function proveAccountPassword(
  deps: AuthDeps,
  user: repo.UserRow,
  password: string,
  meta: RequestMeta,
): Promise<void> {
  if (!(await checkPassword(deps, user, user.email, password, meta)))
    throw authError('wrong-password', { password: '密碼不正確，請再試一次。' });
}

/**
 * Signs in. An unknown address and a wrong password get the same answer and take the same time;
 * failures are limited per account and per address, and a new session replaces the old one.
 */
export async function login(
  deps: AuthDeps,
  body: LoginBody,
  meta: RequestMeta,
  currentSessionId: string | null,
) {
  const email = normalizeEmail(body.email);
  const user = await repo.findUserByEmail(deps.db, email);
  if (!(await checkPassword(deps, user, email, body.password, meta)) || !user)
    throw authError('wrong-password');
  if (user.disabledAt) throw authError('user-disabled');
  if (currentSessionId) await endSession(deps.db, currentSessionId, clock(deps));
  const session = await createSession(
    deps.db,
    user.id,
    { userAgent: meta.userAgent, ip: meta.ip },
    clock(deps),
  );
  return { user: toAuthUser(user), session, device: markDevice(user, meta.device) };
}

export async function logout(deps: AuthDeps, sessionId: string): Promise<void> {
  await endSession(deps.db, sessionId, clock(deps));
}

/** Finds a usable action code or throws the spec's code for why it is not usable. */
async function usableCode(deps: AuthDeps, code: string, kind: repo.ActionKind | readonly repo.ActionKind[]) {
  const kinds: readonly repo.ActionKind[] = typeof kind === 'string' ? [kind] : kind;
  const row = await repo.findActionCode(deps.db, hashCode(code));
  if (!row || !kinds.includes(row.kind) || row.usedAt) throw authError('invalid-action-code');
  if (row.expiresAt.getTime() <= clock(deps).getTime()) throw authError('expired-action-code');
  const user = row.userId ? await repo.findUserById(deps.db, row.userId) : null;
  if (!user) throw authError('user-not-found');
  // An invite may bring a disabled account back (accepting it enables the account).
  if (user.disabledAt && row.kind !== 'staff-invite') throw authError('user-disabled');
  // A link mailed to an address the account no longer has is dead (only an e-mail change's link
  // goes to another address: the new one).
  if (row.kind !== 'change-email' && row.email !== user.email) throw authError('invalid-action-code');
  return { row, user };
}

/** The reset page's link also carries staff invites: both set the account's password. */
const SETS_PASSWORD: readonly repo.ActionKind[] = ['reset-password', 'staff-invite'];

/** Tells the reset page whether a link still works, for which address, and whether it is an invite. */
export async function checkActionCode(
  deps: AuthDeps,
  code: string,
  kind: 'reset-password' | 'verify-email',
): Promise<ActionCodeInfo> {
  const { row } = await usableCode(deps, code, kind === 'reset-password' ? SETS_PASSWORD : kind);
  return row.kind === 'staff-invite' && row.role
    ? { email: row.email, invite: { role: row.role } }
    : { email: row.email };
}

export async function verifyEmail(
  deps: AuthDeps,
  code: string,
  currentSession: { id: string; userId: string } | null = null,
) {
  const done = await alreadyVerified(deps, code);
  if (done) return done;
  const { row, user } = await usableCode(deps, code, ['verify-email', 'change-email']);
  if (row.kind === 'change-email')
    return confirmEmailChange(deps, row, user, currentSession?.userId === user.id ? currentSession.id : null);
  if (!(await repo.consumeActionCode(deps.db, row.id, clock(deps)))) throw authError('invalid-action-code');
  // A code for an address the account no longer has verifies nothing.
  if (!(await repo.markEmailVerified(deps.db, user.id, row.email, clock(deps))))
    throw authError('invalid-action-code');
  // The account changed: what instances keep about its sessions is dropped.
  await deps.sessionsEnded?.(user.id);
  return { email: row.email, user: toAuthUser({ ...user, emailVerifiedAt: clock(deps) }) };
}

/**
 * A used verification link opened again (a second click, the mail app's preview) whose address the
 * account still has, verified: said as done rather than as a dead link. Nothing changes.
 */
async function alreadyVerified(deps: AuthDeps, code: string) {
  const row = await repo.findActionCode(deps.db, hashCode(code));
  if (!row?.usedAt || !row.userId || (row.kind !== 'verify-email' && row.kind !== 'change-email'))
    return null;
  const user = await repo.findUserById(deps.db, row.userId);
  if (!user || user.disabledAt || user.email !== row.email || !user.emailVerifiedAt) return null;
  return { email: row.email, user: toAuthUser(user), alreadyVerified: true as const };
}

/**
 * A member asks to change their e-mail: the current password is checked, and a link goes to the
 * new address. The address changes only when that link is opened.
 */
export async function requestEmailChange(
  deps: AuthDeps,
  userId: string,
  newEmail: string,
  password: string,
  meta: RequestMeta,
): Promise<{ pendingEmail: string }> {
  const user = await repo.findUserById(deps.db, userId);
  if (!user) throw authError('user-not-found');
  if (!(await checkPassword(deps, user, user.email, password, meta, reauthLockedMessage)))
    throw authError('wrong-password', { password: '目前的密碼不正確。' });
  const email = normalizeEmail(newEmail);
  if (email === user.email)
    throw new BadRequestError('這就是您目前的電子郵件。', { newEmail: '這就是您目前的電子郵件。' });
  if (await repo.findUserByEmail(deps.db, email))
    throw authError('email-already-in-use', { newEmail: AUTH_ERROR_MESSAGES['email-already-in-use'] });
  await enforceLimit(deps.limiter, `change-email:user:${userId}`, LIMITS.forgotPerEmail);
  await mailActionCode(
    deps,
    (tx) => issueActionCode(tx, user, 'change-email', VERIFY_EMAIL_TTL_MS, clock(deps), { to: email }),
    (code) =>
      verificationMail(
        email,
        user.displayName,
        `${deps.publicUrl}/emailVerification?code=${encodeURIComponent(code)}`,
      ),
  );
  return { pendingEmail: email };
}

/**
 * Moves the account to the confirmed address. A credential change: every other link of the
 * account dies (reset links sent to the old address included) and every other session ends.
 */
async function confirmEmailChange(
  deps: AuthDeps,
  row: repo.ActionCodeRow,
  user: repo.UserRow,
  currentSessionId: string | null,
) {
  const now = clock(deps);
  const oldEmail = user.email;
  await deps.db.transaction(async (tx) => {
    if (!(await repo.consumeActionCode(tx, row.id, now))) throw authError('invalid-action-code');
    if (await repo.findUserByEmail(tx, row.email)) throw authError('email-already-in-use');
    await repo.changeEmail(tx, user.id, row.email, now);
    await repo.endActionCodes(tx, user.id, now);
    await revokeUserSessions(tx, user.id, now, currentSessionId ?? undefined);
    await deps.mailer.enqueue(tx, emailChangedMail(oldEmail, user.displayName, row.email, now));
  });
  deps.mailer.flush();
  await deps.sessionsEnded?.(user.id);
  return { email: row.email, user: toAuthUser({ ...user, email: row.email, emailVerifiedAt: now }) };
}

/** The address a pending change would move to, if any. */
export async function pendingEmailChange(deps: Pick<AuthDeps, 'db'>, userId: string): Promise<string | null> {
  return repo.pendingActionEmail(deps.db, userId, 'change-email', new Date());
}

/** Mails a new verification link, at most once a minute. */
export async function resendVerification(deps: AuthDeps, userId: string, meta: RequestMeta) {
  const user = await repo.findUserById(deps.db, userId);
  if (!user) throw authError('user-not-found');
  if (user.emailVerifiedAt) return { sent: false, alreadyVerified: true, retryAfterSeconds: 0 };
  const last = await repo.latestActionCodeAt(deps.db, user.id, 'verify-email');
  const waitMs = last ? last.getTime() + RESEND_COOLDOWN_SECONDS * 1000 - clock(deps).getTime() : 0;
  if (waitMs > 0)
    throw new TooManyRequestsError(waitMs / 1000, `請於 ${Math.ceil(waitMs / 1000)} 秒後再重新寄送。`);
  await enforceLimit(deps.limiter, `resend:ip:${meta.ip}`, LIMITS.resendPerIp);
  await sendVerification(deps, user);
  return { sent: true, alreadyVerified: false, retryAfterSeconds: RESEND_COOLDOWN_SECONDS };
}

/**
 * Always answers the same way, whether or not the address has an account (docs/product-rules.md#error-codes).
 * The mail leaves through the outbox, so no SMTP round trip shows in how long the answer takes.
 */
export async function forgotPassword(deps: AuthDeps, rawEmail: string, meta: RequestMeta): Promise<void> {
  const email = normalizeEmail(rawEmail);
  await enforceLimit(deps.limiter, `forgot:ip:${meta.ip}`, LIMITS.forgotPerIp);
  await enforceLimit(deps.limiter, `forgot:email:${email}`, LIMITS.forgotPerEmail);
  const user = await repo.findUserByEmail(deps.db, email);
  if (!user || user.disabledAt) return;
  await mailActionCode(
    deps,
    (tx) => issueActionCode(tx, user, 'reset-password', RESET_PASSWORD_TTL_MS, clock(deps)),
    (code) =>
      resetPasswordMail(
        user.email,
        user.displayName,
        `${deps.publicUrl}/resetPassword?code=${encodeURIComponent(code)}`,
      ),
  );
}

/**
 * Sets a new password from a mailed link (a reset, or a staff invite being accepted): every session
 * and every other link of the account end, the sign-in lock lifts, and this browser becomes a
 * known device, so its owner gets in even while a stranger keeps failing. An invite's role is
 * granted here, in the same transaction, and nowhere else.
 */
export async function resetPassword(
  deps: AuthDeps,
  body: ResetPasswordBody,
  meta: RequestMeta,
): Promise<{ email: string; device: string | null }> {
  const { row, user } = await usableCode(deps, body.code, SETS_PASSWORD);
  // Read before the password changes: this browser's mark is for the old one.
  const deviceId = knownDeviceId(user, meta.device);
  const problem = passwordProblem(body.password, user.email);
  if (problem) throw new BadRequestError(problem, { password: problem });
  const passwordHash = await hashPassword(body.password);
  const now = clock(deps);
  await deps.db.transaction(async (tx) => {
    if (!(await repo.consumeActionCode(tx, row.id, now))) throw authError('invalid-action-code');
    await repo.setPassword(tx, user.id, passwordHash, now);
    await revokeUserSessions(tx, user.id, now);
    await repo.endActionCodes(tx, user.id, now);
    if (row.kind === 'staff-invite')
      await acceptStaffInvite(tx, { userId: user.id, email: row.email, role: row.role, ip: meta.ip }, now);
    await deps.mailer.enqueue(
      tx,
      passwordChangedMail(user.email, user.displayName, now, `${deps.publicUrl}/login`),
    );
  });
  deps.mailer.flush();
  await deps.sessionsEnded?.(user.id);
  await deps.limiter.reset(`login-fail:acct:${user.email}`);
  // The browser keeps its device id with the new mark: its own failures are forgiven too, or a
  // member locked by their own typos would still be locked after the reset that promised otherwise.
  if (deviceId) await deps.limiter.reset(`login-fail:device:${user.id}:${deviceId}`);
  return { email: user.email, device: markDevice({ id: user.id, passwordHash }, meta.device) };
}

/** Confirms the current password; opens a 5-minute window for a password change in this session. */
export async function reauthenticate(
  deps: AuthDeps,
  userId: string,
  sessionId: string,
  password: string,
  meta: RequestMeta,
) {
  const user = await repo.findUserById(deps.db, userId);
  if (!user) throw authError('user-not-found');
  // A member who came through LINE or Google has no password to confirm: say how to get one.
  if (!user.passwordHash) {
    const hint =
      '您的帳號是用 LINE 或 Google 登入，還沒有設定密碼。請先登出，用「忘記密碼」設定密碼後再操作。';
    throw new BadRequestError(hint, { password: hint }, 'no-password');
  }
  if (!(await checkPassword(deps, user, user.email, password, meta, reauthLockedMessage)))
    throw authError('wrong-password', { password: '目前的密碼不正確。' });
  const now = clock(deps);
  await repo.setReauthenticated(deps.db, sessionId, now);
  return { reauthenticatedUntil: new Date(now.getTime() + REAUTH_WINDOW_MS).toISOString() };
}

/** Refuses unless this session confirmed the password within the last 5 minutes (reauthenticate). */
export async function assertRecentLogin(db: Db, sessionId: string, now: Date): Promise<void> {
  const at = await repo.getReauthenticatedAt(db, sessionId);
  if (!at || now.getTime() - at.getTime() > REAUTH_WINDOW_MS) throw authError('requires-recent-login');
}

/**
 * Changes the password inside the re-auth window; other sessions and every outstanding link end,
 * this session stays, and this browser stays a known device (its mark is renewed for the new hash).
 */
export async function changePassword(
  deps: AuthDeps,
  userId: string,
  sessionId: string,
  body: ChangePasswordBody,
  meta: RequestMeta,
): Promise<{ device: string | null }> {
  const now = clock(deps);
  await assertRecentLogin(deps.db, sessionId, now);
  const user = await repo.findUserById(deps.db, userId);
  if (!user) throw authError('user-not-found');
  const problem = passwordProblem(body.password, user.email);
  if (problem) throw new BadRequestError(problem, { password: problem });
  if (await verifyPassword(user.passwordHash, body.password)) {
    throw new BadRequestError('新密碼不能與目前的密碼相同。', { password: '新密碼不能與目前的密碼相同。' });
  }
  const passwordHash = await hashPassword(body.password);
  await deps.db.transaction(async (tx) => {
    await repo.setPassword(tx, user.id, passwordHash, now);
    await revokeUserSessions(tx, user.id, now, sessionId);
    await repo.setReauthenticated(tx, sessionId, null);
    await repo.endActionCodes(tx, user.id, now);
    await deps.mailer.enqueue(
      tx,
      passwordChangedMail(user.email, user.displayName, now, `${deps.publicUrl}/login`),
    );
  });
  deps.mailer.flush();
  await deps.sessionsEnded?.(user.id);
  return { device: markDevice({ id: user.id, passwordHash }, meta.device) };
}
