import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, dbAvailable, type TestContext } from '../../../test/helpers.ts';
import { codeFrom, latestMail, mailCount } from '../../../test/mail.ts';
import { tcpRelay } from '../../../test/tcp-relay.ts';
import { actionCodes, sessions, users } from '../../db/schema.ts';

const PASSWORD = '山嵐高山烏龍-2026';
const ORIGIN = 'http://localhost:3000';
let ipCounter = 10;
/** Each test gets its own client address, so per-IP limits of one test do not leak into another. */
const freshIp = () => {
  const n = ipCounter++;
  return `198.51.${100 + Math.floor(n / 250)}.${(n % 250) + 1}`;
};

const cookieOf = (res: LightMyRequestResponse) =>
  res.cookies
    .filter((c) => c.value !== '')
    .map((c) => `${c.name}=${c.value}`)
    .join('; ');

describe.skipIf(!dbAvailable())('identity API', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  const post = (url: string, payload: unknown, opts: { cookie?: string; ip?: string } = {}) =>
    ctx.app.inject({
      method: 'POST',
      url,
      payload: payload as object,
      remoteAddress: opts.ip ?? '203.0.113.1',
      headers: { origin: ORIGIN, ...(opts.cookie ? { cookie: opts.cookie } : {}) },
    });
  const me = async (cookie: string) =>
    (await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).json().user as {
      uid: string;
      emailVerified: boolean;
    } | null;

  async function register(email: string, ip = freshIp()) {
    const res = await post(
      '/api/auth/register',
      { displayName: '林小嵐', email, password: PASSWORD, passwordConfirm: PASSWORD, acceptTerms: true },
      { ip },
    );
    expect(res.statusCode, res.body).toBe(201);
    return { res, cookie: cookieOf(res) };
  }

  describe('register', () => {
    it('creates the account, signs it in and mails a verification link', async () => {
      const { res, cookie } = await register('Lan@Example.com');
      expect(res.json().user).toMatchObject({
        email: 'lan@example.com',
        displayName: '林小嵐',
        emailVerified: false,
        providers: ['password'],
      });
      expect((await me(cookie))?.uid).toBe(res.json().user.uid);
      const mail = await latestMail(ctx.database, 'lan@example.com', 'verify-email');
      expect(mail.subject).toBe('【山嵐茶事】請驗證您的電子郵件');
      expect(mail.meta.link).toMatch(/^http:\/\/localhost:3000\/emailVerification\?code=[A-Za-z0-9_-]{43}$/);
      expect(mail.html).toContain(mail.meta.link);
      expect(mail.text).toContain(mail.meta.link);
    });

    it('stores an argon2id hash, never the password', async () => {
      await register('hash@example.com');
      const [row] = await ctx.database.db.select().from(users).where(eq(users.email, 'hash@example.com'));
      expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(row?.passwordHash).not.toContain(PASSWORD);
    });

    it('answers email-already-in-use for a taken address, whatever its case', async () => {
      await register('taken@example.com');
      const res = await post(
        '/api/auth/register',
        {
          displayName: '另一位',
          email: ' TAKEN@example.com ',
          password: PASSWORD,
          passwordConfirm: PASSWORD,
          acceptTerms: true,
        },
        { ip: freshIp() },
      );
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('email-already-in-use');
      expect(res.json().error.fields.email).toBeTruthy();
    });

    it('answers 400 with a zh-TW message beside each bad field and creates nothing', async () => {
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ email: 'not-an-email' }, 'email', '電子郵件必須是有效的電子郵件地址'],
        [{ password: 'short', passwordConfirm: 'short' }, 'password', '密碼不能少於 8 個字元'],
        [
          { password: 'x'.repeat(129), passwordConfirm: 'x'.repeat(129) },
          'password',
          '密碼不能超過 128 個字元',
        ],
        [
          { password: 'password123', passwordConfirm: 'password123' },
          'password',
          '這個密碼太常見，很容易被猜到，請換一個。',
        ],
        [
          { email: 'same@example.com', password: 'same@example.com', passwordConfirm: 'same@example.com' },
          'password',
          '密碼不能與電子郵件相同。',
        ],
        [{ passwordConfirm: `${PASSWORD}x` }, 'passwordConfirm', '確認密碼與密碼不一致'],
        [{ acceptTerms: false }, 'acceptTerms', '請閱讀並同意服務條款與隱私權政策'],
        [{ displayName: '   ' }, 'displayName', '會員名稱為必填欄位'],
      ];
      for (const [override, field, message] of cases) {
        const email = `bad-${field}-${Math.random().toString(36).slice(2, 7)}@example.com`;
        const res = await post(
          '/api/auth/register',
          {
            displayName: '林小嵐',
            email,
            password: PASSWORD,
            passwordConfirm: PASSWORD,
            acceptTerms: true,
            ...override,
          },
          { ip: freshIp() },
        );
        expect(res.statusCode, JSON.stringify(override)).toBe(400);
        expect(res.json().error.fields[field], JSON.stringify(override)).toBe(message);
        expect((await ctx.database.db.select().from(users).where(eq(users.email, email))).length).toBe(0);
      }
    });

    it('accepts any Unicode password, pasted or typed, without composition rules', async () => {
      const res = await post(
        '/api/auth/register',
        {
          displayName: '陳',
          email: 'unicode@example.com',
          password: '我愛喝凍頂烏龍茶',
          passwordConfirm: '我愛喝凍頂烏龍茶',
          acceptTerms: true,
        },
        { ip: freshIp() },
      );
      expect(res.statusCode).toBe(201);
    });

    it('refuses unknown fields', async () => {
      const res = await post(
        '/api/auth/register',
        {
          displayName: '陳',
          email: 'extra@example.com',
          password: PASSWORD,
          passwordConfirm: PASSWORD,
          acceptTerms: true,
          role: 'owner',
        },
        { ip: freshIp() },
      );
      expect(res.statusCode).toBe(400);
    });

    // 300 an hour per address, 60 of them in any 10 minutes: register-limits.test.ts runs the clock.
    it('lets 60 sign-ups through one client address at once (carrier-grade NAT), then answers 429 saying how long to wait', async () => {
      const ip = freshIp();
      const statuses: number[] = [];
      for (let batch = 0; batch < 61; batch += 20) {
        const tries = Array.from({ length: Math.min(20, 61 - batch) }, (_, j) =>
          post(
            '/api/auth/register',
            {
              displayName: '陳',
              email: `nat-signup-${batch + j}@example.com`,
              password: PASSWORD,
              passwordConfirm: PASSWORD,
              acceptTerms: true,
            },
            { ip },
          ),
        );
        statuses.push(...(await Promise.all(tries)).map((r) => r.statusCode));
      }
      expect(statuses.filter((s) => s === 201)).toHaveLength(60);
      const refused = await post(
        '/api/auth/register',
        {
          displayName: '陳',
          email: 'nat-signup-late@example.com',
          password: PASSWORD,
          passwordConfirm: PASSWORD,
          acceptTerms: true,
        },
        { ip },
      );
      expect(refused.statusCode).toBe(429);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(500);
      expect(retryAfter).toBeLessThanOrEqual(600);
      expect(refused.json().error.message).toBe(
        `嘗試次數過多，請於 ${Math.ceil(retryAfter / 60)} 分鐘後再試。`,
      );
      expect(
        (await ctx.database.db.select().from(users).where(eq(users.email, 'nat-signup-late@example.com')))
          .length,
      ).toBe(0);
    });

    it('still limits sign-ups per e-mail address to 3 an hour', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await post(
          '/api/auth/register',
          {
            displayName: '陳',
            email: 'one-address@example.com',
            password: PASSWORD,
            passwordConfirm: PASSWORD,
            acceptTerms: true,
          },
          { ip: freshIp() },
        );
        statuses.push(res.statusCode);
        if (i === 3) expect(res.json().error.message).toMatch(/^嘗試次數過多，請於 60 分鐘後再試。$/);
      }
      expect(statuses).toEqual([201, 409, 409, 429]);
    });
  });

  describe('sign-in and sign-out', () => {
    it('answers the same code and message for an unknown address and a wrong password', async () => {
      await register('probe@example.com');
      const wrong = await post(
        '/api/auth/login',
        { email: 'probe@example.com', password: 'not-the-password' },
        { ip: freshIp() },
      );
      const unknown = await post(
        '/api/auth/login',
        { email: 'nobody-here@example.com', password: 'not-the-password' },
        { ip: freshIp() },
      );
      expect(wrong.statusCode).toBe(400);
      expect(unknown.statusCode).toBe(400);
      expect(wrong.json()).toEqual(unknown.json());
      expect(wrong.json().error.code).toBe('wrong-password');
    });

    it('answers invalid-email for a malformed address', async () => {
      const res = await post('/api/auth/login', { email: 'lan@', password: 'x' }, { ip: freshIp() });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('invalid-email');
      expect(res.json().error.fields.email).toBe('電子郵件必須是有效的電子郵件地址');
    });

    it('locks an account for 15 minutes on the 6th failure, even with the right password', async () => {
      await register('lock@example.com');
      for (let i = 0; i < 5; i++) {
        const res = await post(
          '/api/auth/login',
          { email: 'lock@example.com', password: `wrong-${i}-password` },
          { ip: freshIp() },
        );
        expect(res.statusCode).toBe(400);
      }
      const sixth = await post(
        '/api/auth/login',
        { email: 'lock@example.com', password: 'wrong-6-password' },
        { ip: freshIp() },
      );
      expect(sixth.statusCode).toBe(429);
      expect(sixth.json().error.code).toBe('too-many-requests');
      const retryAfter = Number(sixth.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(800);
      expect(retryAfter).toBeLessThanOrEqual(900);
      const right = await post(
        '/api/auth/login',
        { email: 'lock@example.com', password: PASSWORD },
        { ip: freshIp() },
      );
      expect(right.statusCode).toBe(429);
    });

    it('says how long the lock lasts and that resetting the password lifts it', async () => {
      await register('lock-message@example.com');
      for (let i = 0; i < 5; i++)
        await post(
          '/api/auth/login',
          { email: 'lock-message@example.com', password: `wrong-${i}-password` },
          { ip: freshIp() },
        );
      const locked = await post(
        '/api/auth/login',
        { email: 'lock-message@example.com', password: PASSWORD },
        { ip: freshIp() },
      );
      expect(locked.statusCode).toBe(429);
      expect(locked.json().error.message).toBe(
        `嘗試次數過多，為了保護您的帳號，請於 ${Math.ceil(Number(locked.headers['retry-after']) / 60)} 分鐘後再試；或使用「忘記密碼」重設密碼，完成後即可登入。`,
      );
    });

    it('a burst of 300 parallel wrong passwords for one account gets no more than 5 password checks', async () => {
      await register('burst-lock@example.com');
      const burst = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          post(
            '/api/auth/login',
            { email: 'burst-lock@example.com', password: `wrong-${i}-password` },
            { ip: `2001:db8::${(i + 1).toString(16)}` },
          ),
        ),
      );
      const codes = burst.map((r) => r.json().error?.code as string);
      expect(codes.filter((c) => c === 'wrong-password').length).toBeLessThanOrEqual(5);
      expect(
        codes.filter((c) => c === 'wrong-password').length +
          codes.filter((c) => c === 'too-many-requests').length,
      ).toBe(300);
    });

    it('a burst of 300 parallel wrong passwords from one client address gets no more than 50 password checks', async () => {
      const ip = freshIp();
      const burst = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          post('/api/auth/login', { email: `ip-burst-${i}@example.com`, password: 'wrong-password' }, { ip }),
        ),
      );
      const codes = burst.map((r) => r.json().error?.code as string);
      expect(codes.filter((c) => c === 'wrong-password').length).toBeLessThanOrEqual(50);
      expect(codes.filter((c) => c === 'too-many-requests').length).toBeGreaterThanOrEqual(250);
    });

    it('the owner signs in from a browser that signed in before while a stranger has locked the account', async () => {
      await register('known-device@example.com');
      const ownerIp = freshIp();
      const first = await post(
        '/api/auth/login',
        { email: 'known-device@example.com', password: PASSWORD },
        { ip: ownerIp },
      );
      expect(first.statusCode).toBe(200);
      // The owner's browser after signing out: no session, but what else the shop left in it.
      const ownerBrowser = first.cookies
        .filter((c) => c.value !== '' && c.name !== 'token' && c.name !== 'signed_in')
        .map((c) => `${c.name}=${c.value}`)
        .join('; ');
      // A stranger fails on purpose from elsewhere until the account is locked for everyone else.
      for (let i = 0; i < 6; i++)
        await post(
          '/api/auth/login',
          { email: 'known-device@example.com', password: `stranger-${i}-guess` },
          { ip: freshIp() },
        );
      expect(
        (
          await post(
            '/api/auth/login',
            { email: 'known-device@example.com', password: PASSWORD },
            { ip: freshIp() },
          )
        ).statusCode,
      ).toBe(429);
      // The owner's own browser still gets in, even from another network.
      const owner = await post(
        '/api/auth/login',
        { email: 'known-device@example.com', password: PASSWORD },
        { ip: freshIp(), cookie: ownerBrowser },
      );
      expect(owner.statusCode, owner.body).toBe(200);
      // That browser keeps a limit of its own: 5 wrong passwords, then it waits too.
      const own: number[] = [];
      for (let i = 0; i < 6; i++)
        own.push(
          (
            await post(
              '/api/auth/login',
              { email: 'known-device@example.com', password: `typo-${i}-password` },
              { ip: ownerIp, cookie: ownerBrowser },
            )
          ).statusCode,
        );
      expect(own).toEqual([400, 400, 400, 400, 400, 429]);
      // The mark is good for this account only, and cannot be made up.
      await register('other-account@example.com');
      for (let i = 0; i < 6; i++)
        await post(
          '/api/auth/login',
          { email: 'other-account@example.com', password: `stranger-${i}-guess` },
          { ip: freshIp() },
        );
      expect(
        (
          await post(
            '/api/auth/login',
            { email: 'other-account@example.com', password: PASSWORD },
            { ip: freshIp(), cookie: ownerBrowser },
          )
        ).statusCode,
      ).toBe(429);
      const forged = ownerBrowser.replace(
        /=([^;]*?)(.)(;|$)/,
        (_m, body: string, last: string, end: string) => `=${body}${last === 'A' ? 'B' : 'A'}${end}`,
      );
      expect(
        (
          await post(
            '/api/auth/login',
            { email: 'known-device@example.com', password: PASSWORD },
            { ip: freshIp(), cookie: forged },
          )
        ).statusCode,
      ).toBe(429);
    });

    it('a browser that completed a password reset signs in even while a stranger keeps the account locked', async () => {
      await register('reset-unlock@example.com');
      for (let i = 0; i < 6; i++)
        await post(
          '/api/auth/login',
          { email: 'reset-unlock@example.com', password: `stranger-${i}-guess` },
          { ip: freshIp() },
        );
      await post('/api/auth/forgot-password', { email: 'reset-unlock@example.com' }, { ip: freshIp() });
      const code = codeFrom(
        (await latestMail(ctx.database, 'reset-unlock@example.com', 'reset-password')).meta.link,
      );
      const NEW = '重設後的新茶密碼-2026';
      const reset = await post('/api/auth/reset-password', { code, password: NEW, passwordConfirm: NEW });
      expect(reset.statusCode, reset.body).toBe(200);
      const browser = cookieOf(reset);
      // The stranger locks the account again at once.
      for (let i = 0; i < 6; i++)
        await post(
          '/api/auth/login',
          { email: 'reset-unlock@example.com', password: `stranger-again-${i}` },
          { ip: freshIp() },
        );
      expect(
        (
          await post(
            '/api/auth/login',
            { email: 'reset-unlock@example.com', password: NEW },
            { ip: freshIp() },
          )
        ).statusCode,
      ).toBe(429);
      const owner = await post(
        '/api/auth/login',
        { email: 'reset-unlock@example.com', password: NEW },
        { ip: freshIp(), cookie: browser },
      );
      expect(owner.statusCode, owner.body).toBe(200);
    });

    it('limits failures per client address with a higher bound', async () => {
      const ip = freshIp();
      for (let i = 0; i < 50; i++) {
        const res = await post(
          '/api/auth/login',
          { email: `nat-${i}@example.com`, password: 'wrong-password' },
          { ip },
        );
        expect(res.statusCode).toBe(400);
      }
      const res = await post(
        '/api/auth/login',
        { email: 'nat-x@example.com', password: 'wrong-password' },
        { ip },
      );
      expect(res.statusCode).toBe(429);
    });

    it('rotates the session at sign-in and revokes it server-side at sign-out', async () => {
      const { cookie: first } = await register('rotate@example.com');
      const login = await post(
        '/api/auth/login',
        { email: 'rotate@example.com', password: PASSWORD },
        { cookie: first, ip: freshIp() },
      );
      expect(login.statusCode).toBe(200);
      const second = cookieOf(login);
      expect(second).not.toBe(first);
      expect(await me(first)).toBeNull();
      expect(await me(second)).not.toBeNull();

      const out = await post('/api/auth/logout', {}, { cookie: second });
      expect(out.statusCode).toBe(200);
      expect(out.cookies.find((c) => c.name === 'token')?.value).toBe('');
      // The old cookie, replayed, is dead on the server too.
      expect(await me(second)).toBeNull();
    });

    it('refuses a disabled account and ends its sessions at once', async () => {
      const { cookie } = await register('disabled@example.com');
      await ctx.database.db
        .update(users)
        .set({ disabledAt: new Date() })
        .where(eq(users.email, 'disabled@example.com'));
      expect(await me(cookie)).toBeNull();
      const res = await post(
        '/api/auth/login',
        { email: 'disabled@example.com', password: PASSWORD },
        { ip: freshIp() },
      );
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('user-disabled');
    });
  });

  describe('e-mail verification', () => {
    it('verifies with the mailed code once; the second use changes nothing', async () => {
      const { cookie } = await register('verify@example.com');
      const code = codeFrom((await latestMail(ctx.database, 'verify@example.com', 'verify-email')).meta.link);
      const ok = await post('/api/auth/verify-email', { code }, { cookie });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ email: 'verify@example.com', user: { emailVerified: true } });
      expect((await me(cookie))?.emailVerified).toBe(true);
      const again = await post('/api/auth/verify-email', { code });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ email: 'verify@example.com', user: null, alreadyVerified: true });
    });

    it('plain-text mails point to the link written out, never to a button they do not have', async () => {
      await register('plain@example.com');
      const verify = await latestMail(ctx.database, 'plain@example.com', 'verify-email');
      expect(verify.text).not.toContain('按鈕');
      expect(verify.text).toContain('請開啟下方連結，確認這是您的電子郵件地址。');
      expect(verify.html).toContain('請按下方按鈕，確認這是您的電子郵件地址。');
      await post('/api/auth/forgot-password', { email: 'plain@example.com' });
      const reset = await latestMail(ctx.database, 'plain@example.com', 'reset-password');
      expect(reset.text).not.toContain('按鈕');
      expect(reset.text).toContain('請開啟下方連結設定新的密碼。');
    });

    it('a verification link opened again after use says the address is already verified', async () => {
      const { cookie } = await register('twice@example.com');
      const code = codeFrom((await latestMail(ctx.database, 'twice@example.com', 'verify-email')).meta.link);
      expect((await post('/api/auth/verify-email', { code }, { cookie })).statusCode).toBe(200);
      const again = await post('/api/auth/verify-email', { code });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ email: 'twice@example.com', user: null, alreadyVerified: true });
      const mine = await post('/api/auth/verify-email', { code }, { cookie });
      expect(mine.json()).toMatchObject({
        email: 'twice@example.com',
        alreadyVerified: true,
        user: { emailVerified: true },
      });
      // Once the account has moved to another address, the old link verifies nothing and says so.
      const [user] = await ctx.database.db.select().from(users).where(eq(users.email, 'twice@example.com'));
      await ctx.database.db.update(users).set({ email: 'moved@example.com' }).where(eq(users.id, user!.id));
      const moved = await post('/api/auth/verify-email', { code });
      expect(moved.statusCode).toBe(400);
      expect(moved.json().error.code).toBe('invalid-action-code');
    });

    it('answers expired-action-code after 24 hours', async () => {
      await register('late@example.com');
      const code = codeFrom((await latestMail(ctx.database, 'late@example.com', 'verify-email')).meta.link);
      const [user] = await ctx.database.db.select().from(users).where(eq(users.email, 'late@example.com'));
      const [row] = await ctx.database.db.select().from(actionCodes).where(eq(actionCodes.userId, user!.id));
      expect(Math.abs(row!.expiresAt.getTime() - row!.createdAt.getTime() - 24 * 3600 * 1000)).toBeLessThan(
        5000,
      );
      await ctx.database.db
        .update(actionCodes)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(actionCodes.userId, user!.id));
      const res = await post('/api/auth/verify-email', { code });
      expect(res.json().error.code).toBe('expired-action-code');
    });

    it('answers invalid-action-code for a made-up code and user-not-found when the account is gone', async () => {
      const made = await post('/api/auth/verify-email', { code: 'A'.repeat(43) });
      expect(made.json().error.code).toBe('invalid-action-code');
      // A link cut short or made up in another shape is the same invalid link, in plain words.
      const bogus = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/action-code?code=bogus&kind=reset-password',
      });
      expect(bogus.statusCode).toBe(400);
      expect(bogus.json().error).toEqual({
        code: 'invalid-action-code',
        message: '這個連結無效或已經使用過，請重新申請一次。',
      });
      expect((await post('/api/auth/verify-email', { code: 'x' })).json().error.code).toBe(
        'invalid-action-code',
      );
      await register('gone@example.com');
      const code = codeFrom((await latestMail(ctx.database, 'gone@example.com', 'verify-email')).meta.link);
      await ctx.database.db.delete(users).where(eq(users.email, 'gone@example.com'));
      const res = await post('/api/auth/verify-email', { code });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('user-not-found');
    });

    it('resends at most once a minute', async () => {
      const { cookie } = await register('resend@example.com');
      const early = await post('/api/auth/resend-verification', {}, { cookie });
      expect(early.statusCode).toBe(429);
      expect(Number(early.headers['retry-after'])).toBeGreaterThan(50);
      const [user] = await ctx.database.db.select().from(users).where(eq(users.email, 'resend@example.com'));
      await ctx.database.db
        .update(actionCodes)
        .set({ createdAt: new Date(Date.now() - 61_000) })
        .where(eq(actionCodes.userId, user!.id));
      const before = await mailCount(ctx.database, 'resend@example.com');
      const later = await post('/api/auth/resend-verification', {}, { cookie });
      expect(later.statusCode).toBe(200);
      expect(later.json()).toEqual({ sent: true, alreadyVerified: false, retryAfterSeconds: 60 });
      expect(await mailCount(ctx.database, 'resend@example.com')).toBe(before + 1);
    });

    it('needs a session to resend', async () => {
      const res = await post('/api/auth/resend-verification', {});
      expect(res.statusCode).toBe(401);
    });
  });

  describe('password reset', () => {
    it('answers the same way for any address and mails only real accounts', async () => {
      await register('forgot@example.com');
      const real = await post(
        '/api/auth/forgot-password',
        { email: 'forgot@example.com' },
        { ip: freshIp() },
      );
      const fake = await post(
        '/api/auth/forgot-password',
        { email: 'nobody-at-all@example.com' },
        { ip: freshIp() },
      );
      expect(real.statusCode).toBe(200);
      expect(real.json()).toEqual(fake.json());
      expect((await latestMail(ctx.database, 'forgot@example.com', 'reset-password')).meta.link).toMatch(
        /\/resetPassword\?code=/,
      );
      expect(await mailCount(ctx.database, 'nobody-at-all@example.com')).toBe(0);
    });

    it('resets with the link: every session ends, the old password stops working, the new one works, the lock lifts', async () => {
      const { cookie } = await register('reset@example.com');
      for (let i = 0; i < 5; i++)
        await post(
          '/api/auth/login',
          { email: 'reset@example.com', password: `nope-${i}-password` },
          { ip: freshIp() },
        );
      expect(
        (await post('/api/auth/login', { email: 'reset@example.com', password: PASSWORD }, { ip: freshIp() }))
          .statusCode,
      ).toBe(429);

      await post('/api/auth/forgot-password', { email: 'reset@example.com' }, { ip: freshIp() });
      const code = codeFrom(
        (await latestMail(ctx.database, 'reset@example.com', 'reset-password')).meta.link,
      );
      const check = await ctx.app.inject({
        method: 'GET',
        url: `/api/auth/action-code?kind=reset-password&code=${code}`,
      });
      expect(check.json()).toEqual({ email: 'reset@example.com' });

      const NEW = '杉林溪的霧-2026';
      const res = await post('/api/auth/reset-password', { code, password: NEW, passwordConfirm: NEW });
      expect(res.statusCode, res.body).toBe(200);
      expect(await me(cookie)).toBeNull();
      expect(
        (
          await post('/api/auth/login', { email: 'reset@example.com', password: PASSWORD }, { ip: freshIp() })
        ).json().error.code,
      ).toBe('wrong-password');
      expect(
        (await post('/api/auth/login', { email: 'reset@example.com', password: NEW }, { ip: freshIp() }))
          .statusCode,
      ).toBe(200);
      expect((await latestMail(ctx.database, 'reset@example.com', 'password-changed')).subject).toBe(
        '【山嵐茶事】您的密碼已經變更',
      );

      const reuse = await post('/api/auth/reset-password', {
        code,
        password: `${NEW}!`,
        passwordConfirm: `${NEW}!`,
      });
      expect(reuse.json().error.code).toBe('invalid-action-code');
    });

    it('a browser locked by its own typos signs in as soon as the password is reset there, as the lock message promises', async () => {
      const { res: created } = await register('own-typos@example.com');
      // The member's own browser, signed out: only its known-device mark is left.
      const browser = created.cookies
        .filter((c) => c.name === 'known_device')
        .map((c) => `${c.name}=${c.value}`)
        .join('; ');
      const ip = freshIp();
      for (let i = 0; i < 5; i++)
        expect(
          (
            await post(
              '/api/auth/login',
              { email: 'own-typos@example.com', password: `typo-${i}-password` },
              { ip, cookie: browser },
            )
          ).statusCode,
        ).toBe(400);
      const locked = await post(
        '/api/auth/login',
        { email: 'own-typos@example.com', password: PASSWORD },
        { ip, cookie: browser },
      );
      expect(locked.statusCode).toBe(429);
      expect(locked.json().error.message).toContain('或使用「忘記密碼」重設密碼，完成後即可登入。');

      await post('/api/auth/forgot-password', { email: 'own-typos@example.com' }, { ip });
      const code = codeFrom(
        (await latestMail(ctx.database, 'own-typos@example.com', 'reset-password')).meta.link,
      );
      const NEW = '重設之後的新烏龍密碼';
      const reset = await post(
        '/api/auth/reset-password',
        { code, password: NEW, passwordConfirm: NEW },
        { ip, cookie: browser },
      );
      expect(reset.statusCode, reset.body).toBe(200);
      const after = reset.cookies
        .filter((c) => c.name === 'known_device')
        .map((c) => `${c.name}=${c.value}`)
        .join('; ');
      const signedIn = await post(
        '/api/auth/login',
        { email: 'own-typos@example.com', password: NEW },
        { ip, cookie: after },
      );
      expect(signedIn.statusCode, signedIn.body).toBe(200);
    });

    it('answers expired-action-code after an hour, and refuses a weak new password', async () => {
      await register('reset-late@example.com');
      await post('/api/auth/forgot-password', { email: 'reset-late@example.com' }, { ip: freshIp() });
      const code = codeFrom(
        (await latestMail(ctx.database, 'reset-late@example.com', 'reset-password')).meta.link,
      );
      const weak = await post('/api/auth/reset-password', {
        code,
        password: 'reset-late@example.com',
        passwordConfirm: 'reset-late@example.com',
      });
      expect(weak.statusCode).toBe(400);
      expect(weak.json().error.fields.password).toBe('密碼不能與電子郵件相同。');
      const [user] = await ctx.database.db
        .select()
        .from(users)
        .where(eq(users.email, 'reset-late@example.com'));
      await ctx.database.db
        .update(actionCodes)
        .set({ expiresAt: new Date(Date.now() - 1) })
        .where(eq(actionCodes.userId, user!.id));
      const res = await post('/api/auth/reset-password', {
        code,
        password: '另一個好密碼-2026',
        passwordConfirm: '另一個好密碼-2026',
      });
      expect(res.json().error.code).toBe('expired-action-code');
    });

    it('limits reset requests per address', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++)
        statuses.push(
          (await post('/api/auth/forgot-password', { email: 'spam-target@example.com' }, { ip: freshIp() }))
            .statusCode,
        );
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    });
  });

  describe('password change from the member area', () => {
    it('needs the current password first, then accepts a new one within 5 minutes; other sessions end', async () => {
      const { cookie } = await register('change@example.com');
      const other = cookieOf(
        await post('/api/auth/login', { email: 'change@example.com', password: PASSWORD }, { ip: freshIp() }),
      );
      const NEW = '鹿谷凍頂烏龍-2026';

      const without = await post(
        '/api/auth/change-password',
        { password: NEW, passwordConfirm: NEW },
        { cookie },
      );
      expect(without.statusCode).toBe(403);
      expect(without.json().error.code).toBe('requires-recent-login');

      const wrong = await post('/api/auth/reauthenticate', { password: 'not-my-password' }, { cookie });
      expect(wrong.json().error.code).toBe('wrong-password');

      const reauth = await post('/api/auth/reauthenticate', { password: PASSWORD }, { cookie });
      expect(reauth.statusCode).toBe(200);
      const until = new Date(reauth.json().reauthenticatedUntil).getTime();
      expect(until - Date.now()).toBeGreaterThan(4.5 * 60_000);
      expect(until - Date.now()).toBeLessThanOrEqual(5 * 60_000);

      const ok = await post('/api/auth/change-password', { password: NEW, passwordConfirm: NEW }, { cookie });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(await me(cookie)).not.toBeNull();
      expect(await me(other)).toBeNull();
      // The window closes once used.
      const again = await post(
        '/api/auth/change-password',
        { password: `${NEW}!`, passwordConfirm: `${NEW}!` },
        { cookie },
      );
      expect(again.json().error.code).toBe('requires-recent-login');
      expect((await latestMail(ctx.database, 'change@example.com', 'password-changed')).meta.kind).toBe(
        'password-changed',
      );
    });

    it('a burst of 300 parallel wrong current passwords gets no more than 5 checks', async () => {
      const { cookie } = await register('reauth-burst@example.com');
      const burst = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          post(
            '/api/auth/reauthenticate',
            { password: `wrong-${i}-password` },
            { cookie, ip: `2001:db8::1:${(i + 1).toString(16)}` },
          ),
        ),
      );
      const codes = burst.map((r) => r.json().error?.code as string);
      expect(codes.filter((c) => c === 'wrong-password').length).toBeLessThanOrEqual(5);
      expect(codes.filter((c) => c === 'too-many-requests').length).toBeGreaterThanOrEqual(295);
    });

    it('a burst of 300 parallel e-mail changes with wrong passwords gets no more than 5 checks', async () => {
      const { cookie } = await register('email-burst@example.com');
      const burst = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          post(
            '/api/me/email',
            { newEmail: `elsewhere-${i}@example.com`, password: `wrong-${i}-password` },
            { cookie, ip: `2001:db8::2:${(i + 1).toString(16)}` },
          ),
        ),
      );
      const codes = burst.map((r) => r.json().error?.code as string);
      expect(codes.filter((c) => c === 'wrong-password').length).toBeLessThanOrEqual(5);
      expect(codes.filter((c) => c === 'too-many-requests').length).toBeGreaterThanOrEqual(295);
    });

    it('a locked confirmation says how long to wait and how a reset, after signing out, lifts it', async () => {
      const { cookie } = await register('reauth-locked@example.com');
      for (let i = 0; i < 5; i++)
        expect(
          (await post('/api/auth/reauthenticate', { password: `wrong-${i}-password` }, { cookie }))
            .statusCode,
        ).toBe(400);
      const locked = await post('/api/auth/reauthenticate', { password: PASSWORD }, { cookie });
      expect(locked.statusCode).toBe(429);
      const minutes = Math.ceil(Number(locked.headers['retry-after']) / 60);
      expect(locked.json().error).toEqual({
        code: 'too-many-requests',
        message: `嘗試次數過多，為了保護您的帳號，請於 ${minutes} 分鐘後再試。若忘記目前的密碼，可以登出後使用「忘記密碼」重設，完成後即解除鎖定。`,
      });
    });

    it('refuses after the 5-minute window has passed', async () => {
      const { cookie } = await register('window@example.com');
      await post('/api/auth/reauthenticate', { password: PASSWORD }, { cookie });
      const [user] = await ctx.database.db.select().from(users).where(eq(users.email, 'window@example.com'));
      await ctx.database.db
        .update(sessions)
        .set({ reauthenticatedAt: new Date(Date.now() - 5 * 60_000 - 1000) })
        .where(eq(sessions.userId, user!.id));
      const res = await post(
        '/api/auth/change-password',
        { password: '過期的新密碼-2026', passwordConfirm: '過期的新密碼-2026' },
        { cookie },
      );
      expect(res.json().error.code).toBe('requires-recent-login');
    });
  });
});

describe.skipIf(!dbAvailable())('credential changes end every outstanding link', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  const post = (url: string, payload: unknown, cookie?: string) =>
    ctx.app.inject({
      method: 'POST',
      url,
      payload: payload as object,
      remoteAddress: freshIp(),
      headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
    });
  async function register(email: string) {
    const res = await post('/api/auth/register', {
      displayName: '林小嵐',
      email,
      password: PASSWORD,
      passwordConfirm: PASSWORD,
      acceptTerms: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    return cookieOf(res);
  }
  const emailOf = async (email: string) =>
    (await ctx.database.db.select({ email: users.email }).from(users).where(eq(users.email, email))).length;

  it('a password reset ends an e-mail change an attacker started', async () => {
    const attacker = await register('victim-a@example.com');
    expect(
      (await post('/api/me/email', { newEmail: 'attacker-a@example.com', password: PASSWORD }, attacker))
        .statusCode,
    ).toBe(200);
    const changeLink = codeFrom(
      (await latestMail(ctx.database, 'attacker-a@example.com', 'verify-email')).meta.link,
    );
    // The victim takes the account back by mail.
    await post('/api/auth/forgot-password', { email: 'victim-a@example.com' });
    const reset = codeFrom(
      (await latestMail(ctx.database, 'victim-a@example.com', 'reset-password')).meta.link,
    );
    expect(
      (
        await post('/api/auth/reset-password', {
          code: reset,
          password: '奪回帳號的新密碼',
          passwordConfirm: '奪回帳號的新密碼',
        })
      ).statusCode,
    ).toBe(200);
    const late = await post('/api/auth/verify-email', { code: changeLink });
    expect(late.statusCode).toBe(400);
    expect(late.json().error.code).toBe('invalid-action-code');
    expect(await emailOf('victim-a@example.com')).toBe(1);
    expect(await emailOf('attacker-a@example.com')).toBe(0);
  });

  it('an e-mail change ends reset links sent to the old address, and every other session', async () => {
    const cookie = await register('moving@example.com');
    const other = cookieOf(
      await post('/api/auth/login', { email: 'moving@example.com', password: PASSWORD }),
    );
    await post('/api/auth/forgot-password', { email: 'moving@example.com' });
    const oldReset = codeFrom(
      (await latestMail(ctx.database, 'moving@example.com', 'reset-password')).meta.link,
    );
    expect(
      (await post('/api/me/email', { newEmail: 'moved@example.com', password: PASSWORD }, cookie)).statusCode,
    ).toBe(200);
    const confirm = codeFrom((await latestMail(ctx.database, 'moved@example.com', 'verify-email')).meta.link);
    expect((await post('/api/auth/verify-email', { code: confirm }, cookie)).statusCode).toBe(200);
    const me = async (c: string) =>
      (await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: c } })).json().user;
    expect(await me(cookie)).toMatchObject({ email: 'moved@example.com' });
    expect(await me(other)).toBeNull();
    const res = await post('/api/auth/reset-password', {
      code: oldReset,
      password: '舊信箱裡的連結密碼',
      passwordConfirm: '舊信箱裡的連結密碼',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('invalid-action-code');
    expect(
      (await post('/api/auth/login', { email: 'moved@example.com', password: PASSWORD })).statusCode,
    ).toBe(200);
  });

  it('a password change ends outstanding reset and e-mail change links', async () => {
    const cookie = await register('changer@example.com');
    await post('/api/auth/forgot-password', { email: 'changer@example.com' });
    const reset = codeFrom(
      (await latestMail(ctx.database, 'changer@example.com', 'reset-password')).meta.link,
    );
    expect(
      (await post('/api/me/email', { newEmail: 'changer-new@example.com', password: PASSWORD }, cookie))
        .statusCode,
    ).toBe(200);
    const change = codeFrom(
      (await latestMail(ctx.database, 'changer-new@example.com', 'verify-email')).meta.link,
    );
    expect((await post('/api/auth/reauthenticate', { password: PASSWORD }, cookie)).statusCode).toBe(200);
    expect(
      (
        await post(
          '/api/auth/change-password',
          { password: '換過的第二個密碼', passwordConfirm: '換過的第二個密碼' },
          cookie,
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await post('/api/auth/reset-password', {
          code: reset,
          password: '不該生效的密碼啊',
          passwordConfirm: '不該生效的密碼啊',
        })
      ).json().error.code,
    ).toBe('invalid-action-code');
    expect((await post('/api/auth/verify-email', { code: change })).json().error.code).toBe(
      'invalid-action-code',
    );
    expect(await emailOf('changer@example.com')).toBe(1);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.email, 'changer@example.com'));
    const open = await ctx.database.db.select().from(actionCodes).where(eq(actionCodes.userId, row!.id));
    expect(open.filter((c) => c.usedAt === null)).toEqual([]);
  });
});

describe.skipIf(!dbAvailable())('identity API on two instances sharing Redis', () => {
  const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  let redisUp = false;
  beforeAll(async () => {
    const { Redis } = await import('ioredis');
    const probe = new Redis(REDIS_URL, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    redisUp = await probe.connect().then(
      () => true,
      () => false,
    );
    probe.disconnect();
    if (!redisUp) console.warn('[auth] Redis did not answer; the shared-limit tests are skipped.');
  });

  /** Two instances on their own databases and one Redis; each has said Redis is ready before any test traffic. */
  async function twoInstances(redisUrl: string) {
    const a = await createTestApp({ REDIS_URL: redisUrl });
    const b = await createTestApp({ REDIS_URL: redisUrl });
    for (const instance of [a, b]) {
      const health = await instance.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.json()).toMatchObject({ status: 'ok', redis: 'ok' });
    }
    return [a, b] as const;
  }

  /** 300 parallel wrong passwords for one new account, split across both instances: the error codes. */
  async function burst(a: TestContext, b: TestContext): Promise<string[]> {
    const target = `shared-burst-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        (i % 2 === 0 ? a : b).app.inject({
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: `2001:db8::3:${(i + 1).toString(16)}`,
          headers: { origin: ORIGIN },
          payload: { email: target, password: `wrong-password-${i}` },
        }),
      ),
    );
    return answers.map((r) => r.json().error?.code as string);
  }

  /** No more password checks than the limit; every other attempt refused before its check. */
  function expectTheLimitHeld(codes: readonly string[]) {
    expect(codes.filter((c) => c === 'wrong-password').length).toBeLessThanOrEqual(5);
    expect(codes.filter((c) => c === 'too-many-requests').length).toBeGreaterThanOrEqual(295);
  }

  /** A relay to the test Redis (tcp-relay.ts) and the REDIS_URL that goes through it. */
  async function relayedRedis(delayMs = 0) {
    const url = new URL(REDIS_URL);
    const link = await tcpRelay(url.hostname, Number(url.port || 6379), { delayMs });
    return { link, url: `redis://${url.hostname}:${link.port}` };
  }

  it('counts sign-in failures across instances', { timeout: 90_000 }, async (ctx) => {
    if (!redisUp) ctx.skip();
    const [a, b] = await twoInstances(REDIS_URL);
    try {
      const email = `shared-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
      const attempt = (app: TestContext, i: number) =>
        app.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: `192.0.2.${i + 1}`,
          headers: { origin: ORIGIN },
          payload: { email, password: `wrong-password-${i}` },
        });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await attempt(i % 2 === 0 ? a : b, i)).statusCode);
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);

      // A parallel burst split across both instances gets no more password checks than the limit.
      expectTheLimitHeld(await burst(a, b));
    } finally {
      await a.close();
      await b.close();
    }
  });

  it(
    'holds the limit across instances when Redis turns slow: answers 2.4 s late are waited for',
    { timeout: 90_000 },
    async (ctx) => {
      if (!redisUp) ctx.skip();
      // Slower than a busy machine ever made it, but still answering: the count stays shared, never
      // counted per instance (that would let 5 × instances passwords through).
      const { link, url } = await relayedRedis();
      const [a, b] = await twoInstances(url);
      try {
        link.slowDown(1200);
        expectTheLimitHeld(await burst(a, b));
      } finally {
        await a.close();
        await b.close();
        link.close();
      }
    },
  );

  it(
    'an instance whose Redis answers slowly at start waits for it before taking sign-ins',
    { timeout: 90_000 },
    async (ctx) => {
      if (!redisUp) ctx.skip();
      const { link, url } = await relayedRedis(1200);
      try {
        const instance = await createTestApp({ REDIS_URL: url });
        const health = await instance.app.inject({ method: 'GET', url: '/api/health' });
        await instance.close();
        expect(health.json()).toMatchObject({ status: 'ok', redis: 'ok' });
      } finally {
        link.close();
      }
    },
  );
});
