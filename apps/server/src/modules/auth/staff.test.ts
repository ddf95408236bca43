import fs from 'node:fs';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffListResponse } from '@shop/shared/admin-members';
import { createTestApp, dbAvailable, signIn, type TestContext } from '../../../test/helpers.ts';
import { setRole } from '../../../test/fixtures.ts';
import { ORIGIN } from '../../../test/shop.ts';
import { codeFrom, latestMail } from '../../../test/mail.ts';
import { cliTokenFile } from '../../lib/cli-token.ts';
import { auditLog, sessions, users } from '../../db/schema.ts';

describe.skipIf(!dbAvailable())('console: staff accounts', () => {
  let ctx: TestContext;
  let cliToken: string;
  const cookies: Record<'owner' | 'staff' | 'viewer' | 'customer', string> = {
    owner: '',
    staff: '',
    viewer: '',
    customer: '',
  };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ctx = await createTestApp();
    cliToken = fs.readFileSync(cliTokenFile(ctx.app.config.dataDir), 'utf8').trim();
    for (const role of ['owner', 'staff', 'viewer', 'customer'] as const) {
      const s = await signIn(ctx.app, `${role}@example.com`);
      cookies[role] = s.cookie;
      ids[role] = s.uid;
      if (role !== 'customer') await setRole(ctx.database, `${role}@example.com`, role);
    }
  });
  afterAll(async () => ctx.close());

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, cookie?: string, payload?: object) =>
    ctx.app.inject({
      method,
      url,
      headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
      ...(payload ? { payload } : {}),
    });
  const cli = (method: 'POST' | 'PATCH', url: string, payload?: object) =>
    ctx.app.inject({
      method,
      url,
      headers: { 'x-admin-cli-token': cliToken },
      ...(payload ? { payload } : {}),
    });
  const roleOf = async (id: string) =>
    (await ctx.database.db.select({ role: users.role }).from(users).where(eq(users.id, id)))[0]!.role;
  const lastAudit = async (action: string, entityId: string) =>
    (
      await ctx.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, action), eq(auditLog.entityId, entityId)))
        .orderBy(desc(auditLog.id))
        .limit(1)
    )[0];
  const auditCount = async () => (await ctx.database.db.select({ id: auditLog.id }).from(auditLog)).length;

  /** Every staff route: anonymous 401, a customer 403, viewer and staff 403 (staff.write is the owner's). */
  const refusedToAllButOwner = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => {
    expect((await call(method, url, undefined, payload)).statusCode).toBe(401);
    for (const role of ['customer', 'viewer', 'staff'] as const) {
      const res = await call(method, url, cookies[role], payload);
      expect(res.statusCode, role).toBe(403);
      expect(res.json().error.code).toBe('forbidden');
    }
  };

  describe('GET /api/admin/staff', () => {
    it('is the owner’s only', async () => {
      await refusedToAllButOwner('GET', '/api/admin/staff');
      expect((await call('GET', '/api/admin/staff', cookies.owner)).statusCode).toBe(200);
    });

    it('lists console accounts only, owners first, with role and last sign-in', async () => {
      const { items } = (await call('GET', '/api/admin/staff', cookies.owner)).json() as StaffListResponse;
      expect(items.map((s) => [s.email, s.role])).toEqual([
        ['owner@example.com', 'owner'],
        ['staff@example.com', 'staff'],
        ['viewer@example.com', 'viewer'],
      ]);
      const [session] = await ctx.database.db
        .select({ at: sessions.createdAt })
        .from(sessions)
        .where(eq(sessions.userId, ids.owner!))
        .orderBy(desc(sessions.createdAt))
        .limit(1);
      expect(items[0]).toMatchObject({
        id: ids.owner,
        displayName: '測試會員',
        disabledAt: null,
        passwordSet: false,
        lastSignInAt: session!.at.toISOString(),
      });
    });
  });

  describe('POST /api/admin/staff (invite)', () => {
    it('is the owner’s only', async () => {
      await refusedToAllButOwner('POST', '/api/admin/staff', { email: 'sneaky@example.com', role: 'owner' });
      expect(
        await ctx.database.db.select().from(users).where(eq(users.email, 'sneaky@example.com')),
      ).toHaveLength(0);
    });

    it('creates the account and mails a one-time set-password link that works, and audits it', async () => {
      const res = await call('POST', '/api/admin/staff', cookies.owner, {
        email: 'New.Hire@Example.com',
        role: 'staff',
      });
      expect(res.statusCode, res.body).toBe(200);
      const invite = res.json();
      expect(invite).toMatchObject({ email: 'new.hire@example.com', role: 'staff', created: true });
      // The console never shows the link: only the mailbox gets it.
      expect(invite.setPasswordUrl).toBeNull();
      const mailed = await latestMail(ctx.database, 'new.hire@example.com', 'staff-invite');
      expect(mailed.meta.link).toMatch(/^http:\/\/localhost:3000\/resetPassword\?code=[\w-]+$/);
      const hours = (Date.parse(invite.expiresAt) - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(71.9);
      expect(hours).toBeLessThanOrEqual(72);
      expect(await lastAudit('staff.create', invite.uid)).toMatchObject({
        actorEmail: 'owner@example.com',
        actorRole: 'owner',
        entity: 'user',
        before: null,
        after: { email: 'new.hire@example.com', role: 'staff', pending: true },
      });
      expect(await roleOf(invite.uid)).toBe('customer');

      const code = codeFrom(mailed.meta.link);
      const set = await call('POST', '/api/auth/reset-password', undefined, {
        code,
        password: '新同事的密碼-2026',
        passwordConfirm: '新同事的密碼-2026',
      });
      expect(set.statusCode, set.body).toBe(200);
      const login = await call('POST', '/api/auth/login', undefined, {
        email: 'new.hire@example.com',
        password: '新同事的密碼-2026',
      });
      expect(login.statusCode, login.body).toBe(200);
      const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      expect((await call('GET', '/api/admin/me', cookie)).json()).toMatchObject({
        email: 'new.hire@example.com',
        role: 'staff',
      });
      // Used once: the same link does not work twice.
      expect(
        (
          await call('POST', '/api/auth/reset-password', undefined, {
            code,
            password: '又一個新密碼-2026',
            passwordConfirm: '又一個新密碼-2026',
          })
        ).statusCode,
      ).not.toBe(200);
      const listed = (await call('GET', '/api/admin/staff', cookies.owner)).json() as StaffListResponse;
      expect(listed.items.find((s) => s.email === 'new.hire@example.com')).toMatchObject({
        role: 'staff',
        passwordSet: true,
      });
    });

    it('invites an existing customer without giving the role yet, recording the role before', async () => {
      await signIn(ctx.app, 'regular@example.com');
      const res = await call('POST', '/api/admin/staff', cookies.owner, {
        email: 'regular@example.com',
        role: 'viewer',
      });
      expect(res.json()).toMatchObject({ created: false, role: 'viewer' });
      expect(await lastAudit('staff.invite', res.json().uid)).toMatchObject({
        before: { email: 'regular@example.com', role: 'customer' },
        after: { role: 'viewer', pending: true },
      });
      expect(await roleOf(res.json().uid)).toBe('customer');
    });

    it('works from the command line (npm run admin:create), which also gets the link', async () => {
      const res = await cli('POST', '/api/admin/staff', { email: 'cli-made@example.com', role: 'owner' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ email: 'cli-made@example.com', role: 'owner', created: true });
      expect(await lastAudit('staff.create', res.json().uid)).toMatchObject({
        actorEmail: 'command-line',
        actorRole: 'owner',
        actorId: null,
      });
      expect(res.json().setPasswordUrl).toBe(
        (await latestMail(ctx.database, 'cli-made@example.com', 'staff-invite')).meta.link,
      );
      const code = new URL(res.json().setPasswordUrl).searchParams.get('code');
      const set = await call('POST', '/api/auth/reset-password', undefined, {
        code,
        password: '命令列店主的密碼-2026',
        passwordConfirm: '命令列店主的密碼-2026',
      });
      expect(set.statusCode, set.body).toBe(200);
      expect(await roleOf(res.json().uid)).toBe('owner');
    });

    it('refuses a bad address or role with zh-TW messages, and the owner’s own role change', async () => {
      const before = await auditCount();
      const bad = await call('POST', '/api/admin/staff', cookies.owner, {
        email: 'not-an-address',
        role: 'boss',
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields).toMatchObject({
        email: '電子郵件格式不正確',
        role: '角色必須是 owner、staff 或 viewer',
      });
      const self = await call('POST', '/api/admin/staff', cookies.owner, {
        email: 'owner@example.com',
        role: 'viewer',
      });
      expect(self.statusCode).toBe(409);
      expect(self.json().error.code).toBe('own-role');
      expect(await roleOf(ids.owner!)).toBe('owner');
      expect(await auditCount()).toBe(before);
    });
  });

  describe('an invite to an address that already has an account', () => {
    const PASSWORD = '搶先註冊的密碼-2026';
    const post = (url: string, payload: object, cookie?: string) =>
      ctx.app.inject({
        method: 'POST',
        url,
        payload,
        remoteAddress: '203.0.113.77',
        headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
      });

    it('grants nothing until the mailbox’s owner accepts the mailed link, which sets a new password and ends every earlier session', async () => {
      // Someone registers the future colleague's address first (no verification needed to sign up).
      const squat = await post('/api/auth/register', {
        displayName: '搶先註冊',
        email: 'future-staff@example.com',
        password: PASSWORD,
        passwordConfirm: PASSWORD,
        acceptTerms: true,
      });
      expect(squat.statusCode, squat.body).toBe(201);
      const squatter = squat.cookies
        .filter((c) => c.value !== '')
        .map((c) => `${c.name}=${c.value}`)
        .join('; ');

      const invite = await call('POST', '/api/admin/staff', cookies.owner, {
        email: 'future-staff@example.com',
        role: 'staff',
      });
      expect(invite.statusCode, invite.body).toBe(200);
      expect(invite.json()).toMatchObject({
        email: 'future-staff@example.com',
        role: 'staff',
        created: false,
      });

      // The squatter's session and password reach nothing in the console.
      expect((await call('GET', '/api/admin/orders', squatter)).statusCode).toBe(403);
      const again = await post('/api/auth/login', { email: 'future-staff@example.com', password: PASSWORD });
      expect(again.statusCode).toBe(200);
      const againCookie = again.cookies
        .filter((c) => c.value !== '')
        .map((c) => `${c.name}=${c.value}`)
        .join('; ');
      expect((await call('GET', '/api/admin/orders', againCookie)).statusCode).toBe(403);
      const [pending] = await ctx.database.db
        .select()
        .from(users)
        .where(eq(users.email, 'future-staff@example.com'));
      expect(pending!.role).toBe('customer');

      // The owner sees the invite as pending.
      const listed = (await call('GET', '/api/admin/staff', cookies.owner)).json() as StaffListResponse;
      expect(listed.items.find((s) => s.email === 'future-staff@example.com')).toMatchObject({
        role: 'staff',
        pendingInvite: { role: 'staff' },
      });

      // The mailbox gets a link that says what it is.
      const mail = await latestMail(ctx.database, 'future-staff@example.com', 'staff-invite');
      expect(mail.subject).toBe('【山嵐茶事】邀請您加入管理後台');
      expect(mail.text).toContain('店員');
      const code = codeFrom(mail.meta.link);
      const info = await ctx.app.inject({
        method: 'GET',
        url: `/api/auth/action-code?kind=reset-password&code=${code}`,
      });
      expect(info.json()).toEqual({ email: 'future-staff@example.com', invite: { role: 'staff' } });

      // The real owner of the mailbox accepts.
      const NEW = '真正同事的新密碼-2026';
      const accept = await post('/api/auth/reset-password', { code, password: NEW, passwordConfirm: NEW });
      expect(accept.statusCode, accept.body).toBe(200);
      expect((await call('GET', '/api/auth/me', squatter)).json().user).toBeNull();
      expect((await call('GET', '/api/auth/me', againCookie)).json().user).toBeNull();
      expect(
        (await post('/api/auth/login', { email: 'future-staff@example.com', password: PASSWORD })).json()
          .error.code,
      ).toBe('wrong-password');
      const [accepted] = await ctx.database.db
        .select()
        .from(users)
        .where(eq(users.email, 'future-staff@example.com'));
      expect(accepted!.role).toBe('staff');
      expect(accepted!.emailVerifiedAt).not.toBeNull();
      const signedIn = await post('/api/auth/login', { email: 'future-staff@example.com', password: NEW });
      const staffCookie = signedIn.cookies
        .filter((c) => c.value !== '')
        .map((c) => `${c.name}=${c.value}`)
        .join('; ');
      expect((await call('GET', '/api/admin/orders', staffCookie)).statusCode).toBe(200);
      expect(await lastAudit('staff.accept', accepted!.id)).toMatchObject({
        actorId: accepted!.id,
        before: { role: 'customer' },
        after: { email: 'future-staff@example.com', role: 'staff' },
      });
      const after = (await call('GET', '/api/admin/staff', cookies.owner)).json() as StaffListResponse;
      expect(after.items.find((s) => s.email === 'future-staff@example.com')).toMatchObject({
        role: 'staff',
        pendingInvite: null,
        passwordSet: true,
      });
      // Used once.
      expect(
        (
          await post('/api/auth/reset-password', { code, password: `${NEW}!`, passwordConfirm: `${NEW}!` })
        ).json().error.code,
      ).toBe('invalid-action-code');
    });

    it('an invite the owner cancels grants nothing', async () => {
      await signIn(ctx.app, 'maybe-staff@example.com');
      const invite = (
        await call('POST', '/api/admin/staff', cookies.owner, {
          email: 'maybe-staff@example.com',
          role: 'viewer',
        })
      ).json();
      const code = codeFrom(
        (await latestMail(ctx.database, 'maybe-staff@example.com', 'staff-invite')).meta.link,
      );
      const cancel = await call('POST', `/api/admin/staff/${invite.uid}/revoke`, cookies.owner);
      expect(cancel.statusCode, cancel.body).toBe(200);
      expect(
        (
          await post('/api/auth/reset-password', {
            code,
            password: '取消後的密碼-2026',
            passwordConfirm: '取消後的密碼-2026',
          })
        ).json().error.code,
      ).toBe('invalid-action-code');
      expect(await roleOf(invite.uid)).toBe('customer');
      const { items } = (await call('GET', '/api/admin/staff', cookies.owner)).json() as StaffListResponse;
      expect(items.map((s) => s.email)).not.toContain('maybe-staff@example.com');
    });
  });

  describe('PATCH /api/admin/staff/:userId (role)', () => {
    it('is the owner’s only', async () => {
      await refusedToAllButOwner('PATCH', `/api/admin/staff/${ids.viewer}`, { role: 'owner' });
      expect(await roleOf(ids.viewer!)).toBe('viewer');
    });

    it('changes a role, audited with before and after; the new role applies at the next request', async () => {
      const res = await call('PATCH', `/api/admin/staff/${ids.viewer}`, cookies.owner, { role: 'staff' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ id: ids.viewer, email: 'viewer@example.com', role: 'staff' });
      expect(await lastAudit('staff.role', ids.viewer!)).toMatchObject({
        actorEmail: 'owner@example.com',
        before: { email: 'viewer@example.com', role: 'viewer' },
        after: { email: 'viewer@example.com', role: 'staff' },
      });
      expect((await call('GET', '/api/admin/me', cookies.viewer)).json().role).toBe('staff');
      expect(
        (await call('PATCH', `/api/admin/staff/${ids.viewer}`, cookies.owner, { role: 'viewer' })).json()
          .role,
      ).toBe('viewer');
    });

    it('refuses a bad role with a zh-TW message, changing nothing', async () => {
      const before = await auditCount();
      const bad = await call('PATCH', `/api/admin/staff/${ids.viewer}`, cookies.owner, { role: 'admin' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields.role).toBe('角色必須是店主、店員或檢視者');
      expect(
        (
          await call('PATCH', `/api/admin/staff/${ids.viewer}`, cookies.owner, {
            role: 'staff',
            email: 'x@example.com',
          })
        ).statusCode,
      ).toBe(400);
      expect(
        (await call('PATCH', '/api/admin/staff/not-a-uuid', cookies.owner, { role: 'staff' })).json().error
          .fields.userId,
      ).toBe('帳號編號格式不正確');
      expect(await roleOf(ids.viewer!)).toBe('viewer');
      expect(await auditCount()).toBe(before);
    });

    it('answers 404 for an account that is not a console account', async () => {
      const res = await call('PATCH', `/api/admin/staff/${ids.customer}`, cookies.owner, { role: 'owner' });
      expect(res.statusCode).toBe(404);
      expect(await roleOf(ids.customer!)).toBe('customer');
    });

    it('nobody changes their own role', async () => {
      const res = await call('PATCH', `/api/admin/staff/${ids.owner}`, cookies.owner, { role: 'staff' });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({
        code: 'own-role',
        message: '不能變更自己的角色，請由另一位店主處理。',
      });
      expect(await roleOf(ids.owner!)).toBe('owner');
    });

    it('the last owner who can sign in keeps the role', async () => {
      // Two owners (owner@ and cli-made@): one may be demoted, then the other is the last.
      const [cliOwner] = await ctx.database.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, 'cli-made@example.com'));
      expect(
        (await call('PATCH', `/api/admin/staff/${cliOwner!.id}`, cookies.owner, { role: 'staff' }))
          .statusCode,
      ).toBe(200);
      const before = await auditCount();
      const last = await cli('PATCH', `/api/admin/staff/${ids.owner}`, { role: 'staff' });
      expect(last.statusCode).toBe(409);
      expect(last.json().error.code).toBe('last-owner');
      expect(await roleOf(ids.owner!)).toBe('owner');
      // A disabled owner does not count.
      await ctx.database.db
        .update(users)
        .set({ role: 'owner', disabledAt: new Date() })
        .where(eq(users.id, cliOwner!.id));
      expect(
        (await cli('PATCH', `/api/admin/staff/${ids.owner}`, { role: 'viewer' })).json().error.code,
      ).toBe('last-owner');
      expect(
        (await cli('POST', '/api/admin/staff', { email: 'owner@example.com', role: 'viewer' })).json().error
          .code,
      ).toBe('last-owner');
      expect(await roleOf(ids.owner!)).toBe('owner');
      expect(await auditCount()).toBe(before);
      await ctx.database.db
        .update(users)
        .set({ role: 'staff', disabledAt: null })
        .where(eq(users.id, cliOwner!.id));
    });
  });

  describe('POST /api/admin/staff/:userId/revoke', () => {
    it('is the owner’s only', async () => {
      await refusedToAllButOwner('POST', `/api/admin/staff/${ids.viewer}/revoke`);
      expect(await roleOf(ids.viewer!)).toBe('viewer');
    });

    it('makes the account a customer again and ends its sessions at once, audited', async () => {
      const second = await signIn(ctx.app, 'staff@example.com');
      await setRole(ctx.database, 'staff@example.com', 'staff');
      expect((await call('GET', '/api/admin/me', cookies.staff)).statusCode).toBe(200);
      const res = await call('POST', `/api/admin/staff/${ids.staff}/revoke`, cookies.owner);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ id: ids.staff, role: 'customer', revokedSessions: 2 });
      expect(await roleOf(ids.staff!)).toBe('customer');
      expect((await call('GET', '/api/admin/me', cookies.staff)).statusCode).toBe(401);
      expect((await call('GET', '/api/me/profile', second.cookie)).statusCode).toBe(401);
      expect(
        await ctx.database.db
          .select()
          .from(sessions)
          .where(and(eq(sessions.userId, ids.staff!), isNull(sessions.revokedAt))),
      ).toHaveLength(0);
      expect(await lastAudit('staff.revoke', ids.staff!)).toMatchObject({
        actorEmail: 'owner@example.com',
        before: { email: 'staff@example.com', role: 'staff' },
        after: { role: 'customer', revokedSessions: 2 },
      });
      const { items } = (await call('GET', '/api/admin/staff', cookies.owner)).json() as StaffListResponse;
      expect(items.map((s) => s.email)).not.toContain('staff@example.com');
      // Not a console account any more.
      expect((await call('POST', `/api/admin/staff/${ids.staff}/revoke`, cookies.owner)).statusCode).toBe(
        404,
      );
    });

    it('refuses the owner’s own account and the last owner', async () => {
      const before = await auditCount();
      const self = await call('POST', `/api/admin/staff/${ids.owner}/revoke`, cookies.owner);
      expect(self.statusCode).toBe(409);
      expect(self.json().error.code).toBe('own-role');
      expect((await cli('POST', `/api/admin/staff/${ids.owner}/revoke`)).json().error.code).toBe(
        'last-owner',
      );
      expect(await roleOf(ids.owner!)).toBe('owner');
      expect((await call('GET', '/api/admin/me', cookies.owner)).statusCode).toBe(200);
      expect(await auditCount()).toBe(before);
    });
  });
});
