import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { eq } from 'drizzle-orm';
import { createTestApp, dbAvailable, signIn, type TestContext } from '../../../test/helpers.ts';
import { latestMail } from '../../../test/mail.ts';
import { productionEnv } from '../../../test/production.ts';
import { loadConfig, ConfigError } from '../../config/env.ts';
import { userIdentities, users } from '../../db/schema.ts';

const PASSWORD = '山嵐茶事-proof-2026';

/** A browser's cookies: set by answers, sent with the next request. */
class Jar {
  private readonly cookies = new Map<string, string>();
  constructor(header = '') {
    for (const part of header.split('; ').filter(Boolean)) {
      const [name, ...value] = part.split('=');
      this.cookies.set(name!, value.join('='));
    }
  }
  take(res: LightMyRequestResponse): void {
    for (const c of res.cookies) {
      const expired = c.expires instanceof Date && c.expires.getTime() < Date.now();
      if (c.value === '' || expired || c.maxAge === 0) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }
  has(name: string): boolean {
    return this.cookies.has(name);
  }
  get header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

interface TripOptions {
  jar?: Jar;
  redirect?: string;
  link?: boolean;
  who?: string;
  name?: string;
  email?: string;
  verified?: 'yes' | 'no';
  mischief?: string;
  cancel?: boolean;
  /** Changes the callback URL the provider sent the browser to. */
  tamper?: (callback: URL) => void;
}

const local = (url: string) => {
  const u = new URL(url, 'http://localhost:3000');
  return `${u.pathname}${u.search}`;
};

/** Walks the whole round trip as a browser does: start, the sandbox's page and form, the callback. */
async function trip(app: FastifyInstance, provider: 'line' | 'google', options: TripOptions = {}) {
  const jar = options.jar ?? new Jar();
  const query = new URLSearchParams();
  if (options.redirect) query.set('redirect', options.redirect);
  if (options.link) query.set('intent', 'link');
  const start = await app.inject({
    url: `/api/auth/oidc/${provider}/start?${query}`,
    headers: { cookie: jar.header },
  });
  expect(start.statusCode).toBe(303);
  jar.take(start);
  const authorize = new URL(start.headers.location!);
  expect(authorize.pathname).toBe(`/dev/oidc/${provider}/authorize`);
  const page = await app.inject({ url: local(authorize.toString()) });
  expect(page.statusCode).toBe(200);
  const form = new URLSearchParams(authorize.searchParams);
  form.set('who', options.who ?? (options.name ? 'custom' : 'sample-0'));
  if (options.name) form.set('name', options.name);
  if (options.email) form.set('email', options.email);
  form.set('verified', options.verified ?? 'yes');
  form.set('mischief', options.mischief ?? 'none');
  form.set('action', options.cancel ? 'cancel' : 'allow');
  const allowed = await app.inject({
    method: 'POST',
    url: `/dev/oidc/${provider}/authorize`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: form.toString(),
  });
  expect(allowed.statusCode).toBe(303);
  const callback = new URL(allowed.headers.location!);
  expect(callback.pathname).toBe(`/api/auth/oidc/${provider}/callback`);
  options.tamper?.(callback);
  const back = await app.inject({ url: local(callback.toString()), headers: { cookie: jar.header } });
  expect(back.statusCode).toBe(303);
  jar.take(back);
  return { jar, location: back.headers.location!, callback: local(callback.toString()) };
}

async function me(app: FastifyInstance, jar: Jar) {
  const res = await app.inject({ url: '/api/auth/me', headers: { cookie: jar.header } });
  return (
    res.json() as { user: { uid: string; email: string; emailVerified: boolean; displayName: string } | null }
  ).user;
}

async function post(app: FastifyInstance, jar: Jar, url: string, payload?: object) {
  const res = await app.inject({
    method: 'POST',
    url,
    headers: { cookie: jar.header, origin: 'http://localhost:3000' },
    ...(payload ? { payload } : {}),
  });
  jar.take(res);
  return res;
}

async function register(app: FastifyInstance, email: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: {
      displayName: '老會員',
      email,
      password: PASSWORD,
      passwordConfirm: PASSWORD,
      acceptTerms: true,
    },
  });
  expect(res.statusCode).toBe(201);
  return (res.json() as { user: { uid: string } }).user.uid;
}

describe.skipIf(!dbAvailable())('sign-in through LINE and Google (sandbox providers)', () => {
  let ctx: TestContext;
  let app: FastifyInstance;
  beforeAll(async () => {
    ctx = await createTestApp();
    app = ctx.app;
  });
  afterAll(async () => ctx?.close());

  const userCount = async () => (await ctx.database.db.select({ id: users.id }).from(users)).length;

  it('offers both providers outside production, each with a discovery document of the protocol', async () => {
    const res = await app.inject({ url: '/api/auth/oidc/providers' });
    expect(res.json()).toEqual({ providers: ['line', 'google'] });
    const doc = (
      await app.inject({ url: '/dev/oidc/line/.well-known/openid-configuration' })
    ).json() as Record<string, unknown>;
    expect(doc.issuer).toBe('http://localhost:3000/dev/oidc/line');
    expect(doc.code_challenge_methods_supported).toEqual(['S256']);
  });

  it('a new Google member with a verified address is created, signed in and sent back to the page they came from', async () => {
    const before = await userCount();
    const { jar, location } = await trip(app, 'google', {
      name: '新會員甲',
      email: 'Alpha@Example.com',
      verified: 'yes',
      redirect: '/cart',
    });
    expect(location).toBe('/cart');
    const user = await me(app, jar);
    expect(user).toMatchObject({ email: 'alpha@example.com', displayName: '新會員甲', emailVerified: true });
    expect(await userCount()).toBe(before + 1);
    expect(jar.has('social_trip')).toBe(false);

    // Returning: the same person signs in to the same account, and no account is added.
    const again = await trip(app, 'google', {
      name: '新會員甲',
      email: 'alpha@example.com',
      verified: 'yes',
    });
    expect(again.location).toBe('/');
    expect((await me(app, again.jar))?.uid).toBe(user!.uid);
    expect(await userCount()).toBe(before + 1);
  });

  it('a LINE member is asked for an address (LINE never vouches for one) and must verify it by mail', async () => {
    const { jar, location } = await trip(app, 'line', { name: '林新客', email: 'lin.new@example.com' });
    expect(location).toBe('/login?social=continue');
    expect(await me(app, jar)).toBeNull();
    const pending = await app.inject({ url: '/api/auth/oidc/pending', headers: { cookie: jar.header } });
    expect(pending.json()).toEqual({
      pending: {
        stage: 'needs-email',
        provider: 'line',
        displayName: '林新客',
        suggestedEmail: 'lin.new@example.com',
      },
    });
    const bad = await post(app, jar, '/api/auth/oidc/email', { email: 'not-an-address' });
    expect(bad.statusCode).toBe(400);
    const done = await post(app, jar, '/api/auth/oidc/email', { email: 'lin.new@example.com' });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ redirect: '/' });
    expect(await me(app, jar)).toMatchObject({ email: 'lin.new@example.com', emailVerified: false });
    const mail = await latestMail(ctx.database, 'lin.new@example.com', 'verify-email');
    expect(mail.meta.link).toContain('/emailVerification?code=');
  });

  it('an address an account already has never signs that account in: the person must prove it first', async () => {
    const owner = await register(app, 'owner.one@example.com');
    const { jar, location } = await trip(app, 'google', {
      name: '同信箱的人',
      email: 'owner.one@example.com',
      verified: 'yes',
    });
    expect(location).toBe('/login?social=continue');
    expect(jar.has('token')).toBe(false);
    expect(await me(app, jar)).toBeNull();
    const links = await ctx.database.db.select().from(userIdentities).where(eq(userIdentities.userId, owner));
    expect(links).toEqual([]);
    const pending = await app.inject({ url: '/api/auth/oidc/pending', headers: { cookie: jar.header } });
    expect(pending.json()).toMatchObject({
      pending: { stage: 'needs-proof', email: 'owner.one@example.com', hasPassword: true, codeSent: false },
    });

    // A wrong password changes nothing.
    const wrong = await post(app, jar, '/api/auth/oidc/proof-password', { password: 'not-the-password' });
    expect(wrong.statusCode).toBe(400);
    expect(await me(app, jar)).toBeNull();

    // The right one links the identity and signs the account in; next time the provider alone will do.
    const proved = await post(app, jar, '/api/auth/oidc/proof-password', { password: PASSWORD });
    expect(proved.statusCode).toBe(200);
    expect((await me(app, jar))?.uid).toBe(owner);
    const linkedMail = await latestMail(ctx.database, 'owner.one@example.com', 'sign-in-method-linked');
    expect(linkedMail.subject).toContain('Google');
    const again = await trip(app, 'google', {
      name: '同信箱的人',
      email: 'owner.one@example.com',
      verified: 'yes',
    });
    expect(again.location).toBe('/');
    expect((await me(app, again.jar))?.uid).toBe(owner);
  });

  it('a code mailed to the existing address proves the account as well; a wrong code does not', async () => {
    const { uid: owner } = await signIn(app, 'owner.two@example.com');
    const { jar, location } = await trip(app, 'line', { name: '二號', email: 'owner.two@example.com' });
    expect(location).toBe('/login?social=continue');
    const pending = await app.inject({ url: '/api/auth/oidc/pending', headers: { cookie: jar.header } });
    expect(pending.json()).toMatchObject({ pending: { stage: 'needs-proof', hasPassword: false } });
    // No code sent yet: nothing to guess.
    expect((await post(app, jar, '/api/auth/oidc/proof-code', { code: '000000' })).statusCode).toBe(400);
    expect((await post(app, jar, '/api/auth/oidc/proof-code/send')).statusCode).toBe(200);
    const mail = await latestMail(ctx.database, 'owner.two@example.com', 'link-proof-code');
    const code = /\b(\d{6})\b/.exec(mail.text)![1]!;
    const wrongCode = code === '123456' ? '654321' : '123456';
    const wrong = await post(app, jar, '/api/auth/oidc/proof-code', { code: wrongCode });
    expect(wrong.statusCode).toBe(400);
    expect(await me(app, jar)).toBeNull();
    const proved = await post(app, jar, '/api/auth/oidc/proof-code', { code });
    expect(proved.statusCode).toBe(200);
    expect((await me(app, jar))?.uid).toBe(owner);
  });

  it('a signed-in member links a provider; one linked to another account is refused', async () => {
    const { cookie, uid } = await signIn(app, 'linker@example.com');
    const jar = new Jar(cookie);
    const { location } = await trip(app, 'line', {
      jar,
      link: true,
      name: '連結者',
      email: 'other@example.com',
    });
    expect(location).toBe('/member?social=linked');
    const methods = await app.inject({ url: '/api/auth/sign-in-methods', headers: { cookie: jar.header } });
    expect(methods.json()).toMatchObject({
      password: false,
      identities: [{ provider: 'line', email: 'other@example.com' }],
      available: ['line', 'google'],
    });

    // Someone else signed in tries to link the same LINE identity.
    const other = new Jar((await signIn(app, 'someone.else@example.com')).cookie);
    const refused = await trip(app, 'line', {
      jar: other,
      link: true,
      name: '連結者',
      email: 'other@example.com',
    });
    expect(refused.location).toBe('/member?social=linked-elsewhere');
    const holders = await ctx.database.db
      .select()
      .from(userIdentities)
      .where(eq(userIdentities.email, 'other@example.com'));
    expect(holders.map((i) => i.userId)).toEqual([uid]);
  });

  it('linking needs a signed-in member', async () => {
    const res = await app.inject({ url: '/api/auth/oidc/line/start?intent=link' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/login?redirect=%2Fmember');
  });

  it('the last way to sign in cannot be unlinked; another one first makes it possible', async () => {
    const { jar } = await trip(app, 'google', {
      name: '只用 Google',
      email: 'only.google@example.com',
      verified: 'yes',
    });
    const refused = await app.inject({
      method: 'DELETE',
      url: '/api/auth/sign-in-methods/google',
      headers: { cookie: jar.header, origin: 'http://localhost:3000' },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: { code: 'last-sign-in-method' } });

    await trip(app, 'line', { jar, link: true, name: '只用 Google', email: 'only.google@example.com' });
    const unlinked = await app.inject({
      method: 'DELETE',
      url: '/api/auth/sign-in-methods/google',
      headers: { cookie: jar.header, origin: 'http://localhost:3000' },
    });
    expect(unlinked.statusCode).toBe(200);
    const last = await app.inject({
      method: 'DELETE',
      url: '/api/auth/sign-in-methods/line',
      headers: { cookie: jar.header, origin: 'http://localhost:3000' },
    });
    expect(last.statusCode).toBe(409);
  });

  describe('an answer that fails a check signs nobody in and creates nothing', () => {
    const cases: Array<[string, 'line' | 'google', TripOptions]> = [
      ['a changed state', 'google', { tamper: (u) => u.searchParams.set('state', 'forged-state') }],
      ['a nonce that is not this trip’s', 'google', { mischief: 'wrong-nonce' }],
      ['an expired ID token', 'google', { mischief: 'expired' }],
      ['a Google token signed with another key', 'google', { mischief: 'bad-signature' }],
      ['a LINE token signed with another secret', 'line', { mischief: 'bad-signature' }],
      ['a LINE token with a nonce that is not this trip’s', 'line', { mischief: 'wrong-nonce' }],
      ['a token for another client', 'google', { mischief: 'wrong-audience' }],
      ['a token from another issuer', 'line', { mischief: 'wrong-issuer' }],
      ['a code swapped for another', 'google', { tamper: (u) => u.searchParams.set('code', 'made-up-code') }],
    ];
    it.each(cases)('%s', async (_label, provider, options) => {
      const before = await userCount();
      const { jar, location } = await trip(app, provider, {
        name: '可疑的人',
        email: `suspect.${provider}@example.com`,
        verified: 'yes',
        redirect: '/cart',
        ...options,
      });
      expect(location).toBe('/login?social=failed&redirect=%2Fcart');
      expect(await me(app, jar)).toBeNull();
      expect(await userCount()).toBe(before);
    });

    it('a callback used twice is refused the second time', async () => {
      const first = await trip(app, 'google', { name: '重播', email: 'replay@example.com', verified: 'yes' });
      expect(first.location).toBe('/');
      const replay = await app.inject({ url: first.callback, headers: { cookie: first.jar.header } });
      expect(replay.headers.location).toBe('/login?social=expired');
    });

    it('a person who cancels at the provider is told so', async () => {
      const { location } = await trip(app, 'line', { cancel: true });
      expect(location).toBe('/login?social=cancelled');
    });
  });
});

describe('sign-in provider settings', () => {
  it('production refuses a provider with half its credentials', () => {
    expect(() => loadConfig(productionEnv({ LINE_LOGIN_CHANNEL_ID: '1234567890' }))).toThrow(
      /LINE_LOGIN_CHANNEL_SECRET: required when LINE_LOGIN_CHANNEL_ID is set/,
    );
    expect(() => loadConfig(productionEnv({ GOOGLE_CLIENT_SECRET: 'GOCSPX-realsecret' }))).toThrow(
      /GOOGLE_CLIENT_ID: required/,
    );
  });

  it("production refuses the sandbox's stand-in credentials", () => {
    const error = (() => {
      try {
        loadConfig(
          productionEnv({
            GOOGLE_CLIENT_ID: 'sandbox.apps.googleusercontent.com',
            GOOGLE_CLIENT_SECRET: 'sandbox-google-client-secret',
          }),
        );
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(String(error)).toMatch(/GOOGLE_CLIENT_ID: is the built-in sign-in sandbox's stand-in/);
  });

  it('a secret in a bad shape is named, never echoed', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', LINE_LOGIN_CHANNEL_SECRET: 'short-secret-value' })).toThrow(
      /LINE_LOGIN_CHANNEL_SECRET: .*\(got 18 characters\)/,
    );
  });

  it('production with real credentials offers them, without a sandbox', () => {
    const config = loadConfig(
      productionEnv({
        LINE_LOGIN_CHANNEL_ID: '1234567890',
        LINE_LOGIN_CHANNEL_SECRET: '0123456789abcdef0123456789abcdef',
      }),
    );
    expect(config.socialSignIn.line).toEqual({
      clientId: '1234567890',
      clientSecret: '0123456789abcdef0123456789abcdef',
      sandbox: false,
    });
    expect(config.socialSignIn.google).toBeUndefined();
  });

  describe.skipIf(!dbAvailable())('in production without credentials', () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await createTestApp(productionEnv());
    });
    afterAll(async () => ctx?.close());

    it('hides both buttons and has no sandbox', async () => {
      expect((await ctx.app.inject({ url: '/api/auth/oidc/providers' })).json()).toEqual({ providers: [] });
      const sandbox = await ctx.app.inject({ url: '/dev/oidc/line/.well-known/openid-configuration' });
      expect(sandbox.statusCode).toBe(404);
      const start = await ctx.app.inject({ url: '/api/auth/oidc/google/start' });
      expect(start.statusCode).toBe(404);
    });
  });
});
