import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import * as oidc from 'openid-client';
import {
  LAST_SIGN_IN_METHOD_MESSAGE,
  SOCIAL_PAGE_PATH,
  SOCIAL_PROVIDER_NAMES,
  type SignInMethodsResponse,
  type SocialPendingResponse,
  type SocialProblem,
  type SocialProviderId,
} from '@shop/shared/social-sign-in';
import { safeReturnPath } from '@shop/shared/routes';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '../../lib/errors.ts';
import { enforceLimit, takeAttempt, type Limit } from '../../plugins/rate-limiter.ts';
import { hashCode } from './action-codes.ts';
import { linkProofCodeMail, signInMethodLinkedMail } from './mails.ts';
import { type OidcClients, ProviderDeclinedError } from './oidc-client.ts';
import * as repo from './repo.ts';
import * as socialRepo from './social-repo.ts';
import {
  authError,
  normalizeEmail,
  proveAccountPassword,
  registerChecks,
  sendVerification,
  toAuthUser,
  type AuthDeps,
  type RequestMeta,
} from './service.ts';
import { createSession, endSession, type AuthUser } from './session-service.ts';

const MINUTE = 60_000;

/** A trip to the provider may take this long (typing a password there, a second factor). */
export const TRIP_TTL_MS = 10 * MINUTE;
/** After the provider answered: giving an e-mail, or proving an existing account. */
export const PENDING_TTL_MS = 30 * MINUTE;
export const PROOF_CODE_TTL_MS = 10 * MINUTE;
export const PROOF_CODE_TRIES = 5;

export const SOCIAL_LIMITS = {
  startsPerIp: { max: 60, windowMs: 10 * MINUTE },
  proofMailsPerAccount: { max: 5, windowMs: 60 * MINUTE },
  proofMailsPerIp: { max: 20, windowMs: 60 * MINUTE },
} as const satisfies Record<string, Limit>;

export interface SocialDeps extends AuthDeps {
  readonly clients: OidcClients;
}

type Session = Awaited<ReturnType<typeof createSession>>;

/** How a step ended: signed in (a new session), linked to the signed-in member, waiting on the person, or refused. */
export type SocialOutcome =
  | {
      readonly kind: 'signed-in';
      readonly user: AuthUser;
      readonly session: Session;
      readonly redirect: string;
    }
  | { readonly kind: 'linked'; readonly userId: string; readonly redirect: string }
  | { readonly kind: 'pending'; readonly token: string; readonly redirect: string }
  | { readonly kind: 'problem'; readonly problem: SocialProblem; readonly redirect: string };

const clock = (deps: Pick<AuthDeps, 'now'>) => (deps.now ? deps.now() : new Date());
const newToken = () => randomBytes(32).toString('base64url');

function problemAt(
  intent: 'sign-in' | 'link',
  problem: SocialProblem,
  returnTo?: string | null,
): SocialOutcome {
  const params = new URLSearchParams({ social: problem });
  if (intent === 'sign-in' && returnTo) params.set('redirect', returnTo);
  return { kind: 'problem', problem, redirect: `${intent === 'link' ? '/member' : '/login'}?${params}` };
}

/**
 * Starts a trip to a provider: the PKCE verifier, `state` and `nonce` are kept with a random token
 * (its hash in the database, itself in the browser's cookie), and the provider's URL is returned.
 * `link` needs the signed-in member; `returnTo` must be a page of the shop.
 */
export async function startTrip(
  deps: SocialDeps,
  provider: SocialProviderId,
  options: { intent: 'sign-in' | 'link'; userId: string | null; returnTo: string | undefined },
  meta: RequestMeta,
): Promise<{ token: string; url: string }> {
  if (!deps.clients.offered().includes(provider)) throw new NotFoundError('本店沒有提供這個登入方式。');
  await enforceLimit(deps.limiter, `social-start:ip:${meta.ip}`, SOCIAL_LIMITS.startsPerIp);
  const now = clock(deps);
  await socialRepo.deleteExpiredTrips(deps.db, now);
  const checks = {
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    codeVerifier: oidc.randomPKCECodeVerifier(),
  };
  const url = await deps.clients.authorizationUrl(provider, checks);
  const token = newToken();
  const returnTo = options.returnTo ? safeReturnPath(options.returnTo) : null;
  await socialRepo.insertTrip(deps.db, {
    tokenHash: hashCode(token),
    provider,
    intent: options.intent,
    userId: options.intent === 'link' ? options.userId : null,
    ...checks,
    returnTo: returnTo === '/' ? null : returnTo,
    expiresAt: new Date(now.getTime() + TRIP_TTL_MS),
  });
  return { token, url: url.toString() };
}

/**
 * The provider sent the browser back. The trip is used once, whatever happens. The ID token is
 * checked (oidc-client.ts); then: a linked identity signs its account in; a signed-in member's
 * `link` trip links it (unless another account has it); a new identity whose address no account
 * has becomes a member when the provider vouches for the address, and otherwise the person is asked
 * for one; an address an account already has NEVER signs that account in: the person must prove
 * the account first (docs/product-rules.md#signing-in-with-line-or-google).
 */
export async function finishTrip(
  deps: SocialDeps,
  provider: SocialProviderId,
  token: string | undefined,
  callbackQuery: string,
  meta: RequestMeta,
  current: { sessionId: string; userId: string } | null,
  log: (message: string, error?: unknown) => void,
): Promise<SocialOutcome> {
  const now = clock(deps);
  const found = token ? await socialRepo.findTrip(deps.db, hashCode(token)) : null;
  const trip = found && found.stage === 'authorizing' ? await socialRepo.takeTrip(deps.db, found.id) : null;
  if (!trip || trip.provider !== provider || trip.expiresAt <= now) {
    const intent = new URLSearchParams(callbackQuery).get('error') ? 'sign-in' : (found?.intent ?? 'sign-in');
    return problemAt(intent, 'expired');
  }
  let identity;
  try {
    identity = await deps.clients.exchange(provider, callbackQuery, trip);
  } catch (error) {
    if (error instanceof ProviderDeclinedError && error.error === 'access_denied')
      return problemAt(trip.intent, 'cancelled', trip.returnTo);
    log(`sign-in through ${provider} refused: the provider's answer failed a check`, error);
    return problemAt(trip.intent, 'failed', trip.returnTo);
  }
  const linked = await socialRepo.findIdentity(deps.db, provider, identity.subject);

  if (trip.intent === 'link') {
    // The member who started the link must still be the one signed in on this browser.
    if (!trip.userId || current?.userId !== trip.userId) return problemAt('link', 'expired');
    if (linked && linked.userId !== trip.userId) return problemAt('link', 'linked-elsewhere');
    if (!linked) await linkIdentity(deps, trip.userId, provider, identity.subject, identity.email);
    return { kind: 'linked', userId: trip.userId, redirect: '/member?social=linked' };
  }

  if (linked) {
    const user = await repo.findUserById(deps.db, linked.userId);
    if (!user) return problemAt('sign-in', 'expired', trip.returnTo);
    if (user.disabledAt) return problemAt('sign-in', 'disabled', trip.returnTo);
    return signIn(deps, user, trip.returnTo, meta, current);
  }

  const pending = {
    provider,
    intent: 'sign-in' as const,
    state: trip.state,
    nonce: trip.nonce,
    codeVerifier: trip.codeVerifier,
    returnTo: trip.returnTo,
    subject: identity.subject,
    displayName: identity.displayName,
    email: identity.email,
    emailVerified: identity.emailVerified,
    expiresAt: new Date(now.getTime() + PENDING_TTL_MS),
  };
  const owner = identity.email ? await repo.findUserByEmail(deps.db, identity.email) : null;
  if (owner) return savePending(deps, { ...pending, stage: 'needs-proof', userId: owner.id });
  if (identity.email && identity.emailVerified) {
    const user = await createMember(deps, trip.provider, identity, identity.email, true, meta);
    if (user) return signIn(deps, user, trip.returnTo, meta, current);
    // The address was taken a moment ago: that account must be proved like any other.
    const taken = await repo.findUserByEmail(deps.db, identity.email);
    if (taken) return savePending(deps, { ...pending, stage: 'needs-proof', userId: taken.id });
    return problemAt('sign-in', 'failed', trip.returnTo);
  }
  return savePending(deps, { ...pending, stage: 'needs-email', userId: null });
}

async function savePending(
  deps: SocialDeps,
  values: Omit<socialRepo.NewSocialTrip, 'tokenHash'>,
): Promise<SocialOutcome> {
  const token = newToken();
  await socialRepo.insertTrip(deps.db, { ...values, tokenHash: hashCode(token) });
  return { kind: 'pending', token, redirect: SOCIAL_PAGE_PATH };
}

/** A member created from a provider's identity: no password; the address verified only when the provider vouched for it. */
async function createMember(
  deps: SocialDeps,
  provider: SocialProviderId,
  identity: { subject: string; displayName: string; email: string | null },
  email: string,
  verified: boolean,
  meta: RequestMeta,
): Promise<repo.UserRow | null> {
  await takeAttempt(deps.limiter, registerChecks(meta.ip, email));
  const now = clock(deps);
  const user = await deps.db.transaction(async (tx) => {
    const created = await repo.insertUser(tx, {
      email,
      displayName: identity.displayName,
      passwordHash: null,
      emailVerifiedAt: verified ? now : null,
    });
    if (!created) return null;
    if (
      !(await socialRepo.insertIdentity(tx, {
        provider,
        subject: identity.subject,
        userId: created.id,
        email: identity.email,
      }))
    )
      throw new ConflictError('這個登入方式剛剛已連結到其他帳號，請重新登入。');
    return created;
  });
  if (user && !verified) await sendVerification(deps, user);
  return user;
}

/** Links an identity to an account and tells the account by mail. */
async function linkIdentity(
  deps: SocialDeps,
  userId: string,
  provider: SocialProviderId,
  subject: string,
  email: string | null,
): Promise<void> {
  const user = await repo.findUserById(deps.db, userId);
  if (!user) throw authError('user-not-found');
  await deps.db.transaction(async (tx) => {
    if (!(await socialRepo.insertIdentity(tx, { provider, subject, userId, email })))
      throw new ConflictError(
        '這個登入方式已連結到另一個會員帳號，無法再連結到這個帳號。',
        'linked-elsewhere',
      );
    await deps.mailer.enqueue(
      tx,
      signInMethodLinkedMail(user.email, user.displayName, SOCIAL_PROVIDER_NAMES[provider], clock(deps)),
    );
  });
  deps.mailer.flush();
}

async function signIn(
  deps: SocialDeps,
  user: repo.UserRow,
  returnTo: string | null,
  meta: RequestMeta,
  current: { sessionId: string } | null,
): Promise<SocialOutcome> {
  const now = clock(deps);
  // A new session replaces the one this browser had, as a password sign-in does.
  if (current) await endSession(deps.db, current.sessionId, now);
  const session = await createSession(deps.db, user.id, { userAgent: meta.userAgent, ip: meta.ip }, now);
  return { kind: 'signed-in', user: toAuthUser(user), session, redirect: returnTo ?? '/' };
}

/** The waiting trip of this browser, if any and still alive, at one of the given stages. */
async function pendingTrip(
  deps: SocialDeps,
  token: string | undefined,
  stages: readonly socialRepo.SocialTripRow['stage'][],
): Promise<socialRepo.SocialTripRow> {
  const trip = token ? await socialRepo.findTrip(deps.db, hashCode(token)) : null;
  if (!trip || !stages.includes(trip.stage) || trip.expiresAt <= clock(deps) || !trip.subject)
    throw new AppError(410, 'social-expired', '這次登入已逾時，請重新開始。');
  return trip;
}

/** What the sign-in page shows at SOCIAL_PAGE_PATH. */
export async function pending(deps: SocialDeps, token: string | undefined): Promise<SocialPendingResponse> {
  let trip;
  try {
    trip = await pendingTrip(deps, token, ['needs-email', 'needs-proof']);
  } catch {
    return { pending: null };
  }
  const displayName = trip.displayName ?? '';
  if (trip.stage === 'needs-email')
    return {
      pending: { stage: 'needs-email', provider: trip.provider, displayName, suggestedEmail: trip.email },
    };
  const owner = trip.userId ? await repo.findUserById(deps.db, trip.userId) : null;
  if (!owner) return { pending: null };
  return {
    pending: {
      stage: 'needs-proof',
      provider: trip.provider,
      displayName,
      email: owner.email,
      hasPassword: owner.passwordHash !== null,
      codeSent: trip.proofCodeHash !== null,
    },
  };
}

/**
 * The person gives the address for their new account (the provider gave none, or did not vouch
 * for it). An address an account already has turns the trip into a proof of that account; any
 * other becomes the new member's, unverified, with the usual verification mail.
 */
export async function giveEmail(
  deps: SocialDeps,
  token: string | undefined,
  rawEmail: string,
  meta: RequestMeta,
  current: { sessionId: string } | null,
): Promise<SocialOutcome> {
  const trip = await pendingTrip(deps, token, ['needs-email', 'needs-proof']);
  const email = normalizeEmail(rawEmail);
  const owner = await repo.findUserByEmail(deps.db, email);
  if (owner) {
    await socialRepo.updateTrip(deps.db, trip.id, {
      stage: 'needs-proof',
      userId: owner.id,
      proofCodeHash: null,
      proofCodeExpiresAt: null,
      proofAttempts: 0,
    });
    return { kind: 'pending', token: token!, redirect: SOCIAL_PAGE_PATH };
  }
  // Verified only when it is the very address the provider vouched for.
  const verified = trip.emailVerified && trip.email === email;
  const identity = { subject: trip.subject!, displayName: trip.displayName ?? '會員', email: trip.email };
  const user = await createMember(deps, trip.provider, identity, email, verified, meta);
  if (!user) throw authError('email-already-in-use', { email: '這個電子郵件剛剛已有人註冊，請重新輸入。' });
  await socialRepo.takeTrip(deps.db, trip.id);
  return signIn(deps, user, trip.returnTo, meta, current);
}

/** Mails a 6-digit code to the existing account's address, to prove it before linking. */
export async function sendProofCode(
  deps: SocialDeps,
  token: string | undefined,
  meta: RequestMeta,
): Promise<void> {
  const trip = await pendingTrip(deps, token, ['needs-proof']);
  const owner = trip.userId ? await repo.findUserById(deps.db, trip.userId) : null;
  if (!owner) throw authError('user-not-found');
  await enforceLimit(deps.limiter, `social-proof-mail:ip:${meta.ip}`, SOCIAL_LIMITS.proofMailsPerIp);
  await enforceLimit(deps.limiter, `social-proof-mail:user:${owner.id}`, SOCIAL_LIMITS.proofMailsPerAccount);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const now = clock(deps);
  await deps.db.transaction(async (tx) => {
    await socialRepo.updateTrip(tx, trip.id, {
      proofCodeHash: hashCode(code),
      proofCodeExpiresAt: new Date(now.getTime() + PROOF_CODE_TTL_MS),
      proofAttempts: 0,
    });
    await deps.mailer.enqueue(
      tx,
      linkProofCodeMail(owner.email, owner.displayName, SOCIAL_PROVIDER_NAMES[trip.provider], code),
    );
  });
  deps.mailer.flush();
}

/** The mailed code proves the account: the identity is linked and the account signed in. */
export async function proveWithCode(
  deps: SocialDeps,
  token: string | undefined,
  code: string,
  meta: RequestMeta,
  current: { sessionId: string } | null,
): Promise<SocialOutcome> {
  const trip = await pendingTrip(deps, token, ['needs-proof']);
  const wrong = () =>
    new BadRequestError('驗證碼不正確或已過期，請重新寄送。', { code: '驗證碼不正確或已過期，請重新寄送。' });
  if (!trip.proofCodeHash || !trip.proofCodeExpiresAt || trip.proofCodeExpiresAt <= clock(deps))
    throw wrong();
  if (trip.proofAttempts >= PROOF_CODE_TRIES) throw wrong();
  const ok = timingSafeEqual(Buffer.from(hashCode(code)), Buffer.from(trip.proofCodeHash));
  if (!ok) {
    const tries = await socialRepo.countProofAttempt(deps.db, trip.id);
    throw new BadRequestError('驗證碼不正確，請再試一次。', {
      code: tries >= PROOF_CODE_TRIES ? '驗證碼錯誤次數過多，請重新寄送。' : '驗證碼不正確，請再試一次。',
    });
  }
  const outcome = await linkProvedAccount(deps, trip, meta, current);
  // The code reached the account's mailbox: its address is now verified too.
  if (outcome.kind === 'signed-in' && !outcome.user.emailVerified) {
    await repo.markEmailVerified(deps.db, outcome.user.id, outcome.user.email, clock(deps));
    return { ...outcome, user: { ...outcome.user, emailVerified: true } };
  }
  return outcome;
}

/** The account's password proves it (under the sign-in limits): the identity is linked and the account signed in. */
export async function proveWithPassword(
  deps: SocialDeps,
  token: string | undefined,
  password: string,
  meta: RequestMeta,
  current: { sessionId: string } | null,
): Promise<SocialOutcome> {
  const trip = await pendingTrip(deps, token, ['needs-proof']);
  const owner = trip.userId ? await repo.findUserById(deps.db, trip.userId) : null;
  if (!owner) throw authError('user-not-found');
  await proveAccountPassword(deps, owner, password, meta);
  return linkProvedAccount(deps, trip, meta, current);
}

async function linkProvedAccount(
  deps: SocialDeps,
  trip: socialRepo.SocialTripRow,
  meta: RequestMeta,
  current: { sessionId: string } | null,
): Promise<SocialOutcome> {
  if (!(await socialRepo.takeTrip(deps.db, trip.id)))
    throw new AppError(410, 'social-expired', '這次登入已逾時，請重新開始。');
  const owner = await repo.findUserById(deps.db, trip.userId!);
  if (!owner) throw authError('user-not-found');
  if (owner.disabledAt) throw authError('user-disabled');
  await linkIdentity(deps, owner.id, trip.provider, trip.subject!, trip.email);
  return signIn(deps, owner, trip.returnTo, meta, current);
}

/** The member's ways to sign in: the password (if any) and the linked providers. */
export async function signInMethods(deps: SocialDeps, userId: string): Promise<SignInMethodsResponse> {
  const user = await repo.findUserById(deps.db, userId);
  if (!user) throw authError('user-not-found');
  const identities = await socialRepo.identitiesOf(deps.db, userId);
  return {
    password: user.passwordHash !== null,
    identities: identities.map((i) => ({
      provider: i.provider,
      email: i.email,
      linkedAt: i.linkedAt.toISOString(),
    })),
    available: deps.clients.offered(),
  };
}

/**
 * Unlinks a provider, never the last way in: an account without a password keeps at least one
 * link. Decided under the account's row lock, so two unlinks at once cannot both pass.
 */
export async function unlink(deps: SocialDeps, userId: string, provider: SocialProviderId): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const account = await socialRepo.lockUserPassword(tx, userId);
    if (!account) throw authError('user-not-found');
    const identities = await socialRepo.identitiesOf(tx, userId);
    if (!identities.some((i) => i.provider === provider))
      throw new NotFoundError('這個登入方式沒有連結到您的帳號。');
    if (!account.hasPassword && identities.length <= 1)
      throw new ConflictError(LAST_SIGN_IN_METHOD_MESSAGE, 'last-sign-in-method');
    await socialRepo.deleteIdentity(tx, userId, provider);
  });
}
