import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, PERMISSIONS, STAFF_ROLES, type StaffRole } from '@shop/shared/admin';
import { createTestApp, dbAvailable, signIn, type TestContext } from '../../../test/helpers.ts';
import { setRole } from '../../../test/fixtures.ts';
import { ORIGIN } from '../../../test/shop.ts';
import { sessions } from '../../db/schema.ts';
import { installAdminGuard, type AdminRouteEntry } from '../../plugins/staff-guard.ts';

/** A path for a route pattern, with made-up values for its parameters. */
const concrete = (url: string) =>
  url.replace(/:([A-Za-z]+)/g, (_m, name: string) => (/id$/i.test(name) ? randomUUID() : 'NO-SUCH-THING'));

describe.skipIf(!dbAvailable())('operations console access', () => {
  let ctx: TestContext;
  const cookies: Partial<Record<StaffRole | 'customer', string>> = {};
  beforeAll(async () => {
    ctx = await createTestApp({ NODE_ENV: 'test' });
    for (const role of ['customer', ...STAFF_ROLES] as const) {
      cookies[role] = (await signIn(ctx.app, `${role}@example.com`)).cookie;
      if (role !== 'customer') await setRole(ctx.database, `${role}@example.com`, role);
    }
  });
  afterAll(async () => ctx.close());

  const call = (route: { method: string; url: string }, cookie?: string) =>
    ctx.app.inject({
      method: route.method as 'GET',
      url: concrete(route.url),
      headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
      ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
    });

  it('lists its routes, each with a permission from the table', () => {
    expect(ctx.app.adminRoutes.length).toBeGreaterThan(3);
    for (const r of ctx.app.adminRoutes) expect(PERMISSIONS).toContain(r.permission);
  });

  it('answers every admin route with 401 to anonymous callers and 403 to shoppers', async () => {
    for (const route of ctx.app.adminRoutes) {
      const anonymous = await call(route);
      expect(anonymous.statusCode, `${route.method} ${route.url} anonymous`).toBe(401);
      expect(anonymous.json().error.code).toBe('unauthenticated');
      const shopper = await call(route, cookies.customer);
      expect(shopper.statusCode, `${route.method} ${route.url} shopper`).toBe(403);
      expect(shopper.json().error.code).toBe('forbidden');
    }
  });

  it('gives each role exactly the rights of the permission table', async () => {
    for (const route of ctx.app.adminRoutes) {
      for (const role of STAFF_ROLES) {
        const res = await call(route, cookies[role]);
        const where = `${route.method} ${route.url} as ${role} (${route.permission})`;
        if (can(role, route.permission))
          expect([401, 403], `${where}: ${res.body}`).not.toContain(res.statusCode);
        else expect(res.statusCode, where).toBe(403);
      }
    }
  });

  it('tells the console who is signed in and what the role may do', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/admin/me',
      headers: { cookie: cookies.viewer! },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: 'viewer@example.com', role: 'viewer' });
    expect(res.json().permissions).toContain('orders.read');
    expect(res.json().permissions).not.toContain('orders.write');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('tells the storefront which signed-in people may open the console (its member menu links there)', async () => {
    for (const role of STAFF_ROLES) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { cookie: cookies[role]! },
      });
      expect(res.json().user, role).toMatchObject({ console: true });
    }
    const shopper = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { cookie: cookies.customer! },
    });
    expect(shopper.json().user.email).toBeTruthy();
    expect(shopper.json().user).not.toHaveProperty('console');
  });

  it('ends a staff session after 12 hours without use, but not a shopper’s', async () => {
    const staff = await signIn(ctx.app, 'idle-staff@example.com');
    await setRole(ctx.database, 'idle-staff@example.com', 'staff');
    const shopper = await signIn(ctx.app, 'idle-shopper@example.com');
    const thirteenHoursAgo = new Date(Date.now() - 13 * 3_600_000);
    await ctx.database.db
      .update(sessions)
      .set({ lastSeenAt: thirteenHoursAgo })
      .where(eq(sessions.userId, staff.uid));
    await ctx.database.db
      .update(sessions)
      .set({ lastSeenAt: thirteenHoursAgo })
      .where(eq(sessions.userId, shopper.uid));
    const staffMe = await ctx.app.inject({
      method: 'GET',
      url: '/api/admin/me',
      headers: { cookie: staff.cookie },
    });
    expect(staffMe.statusCode).toBe(401);
    const [revoked] = await ctx.database.db
      .select({ revokedAt: sessions.revokedAt })
      .from(sessions)
      .where(eq(sessions.userId, staff.uid));
    expect(revoked?.revokedAt).toBeInstanceOf(Date);
    const shopperMe = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { cookie: shopper.cookie },
    });
    expect(shopperMe.json().user?.email).toBe('idle-shopper@example.com');
  });

  it('keeps a staff session that was used within 12 hours', async () => {
    const staff = await signIn(ctx.app, 'busy-staff@example.com');
    await setRole(ctx.database, 'busy-staff@example.com', 'staff');
    await ctx.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 11 * 3_600_000) })
      .where(eq(sessions.userId, staff.uid));
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/admin/me', headers: { cookie: staff.cookie } }))
        .statusCode,
    ).toBe(200);
  });
});

describe('the admin guard', () => {
  it('refuses to start when an admin route names no permission', async () => {
    const app = Fastify();
    const start = async () => {
      await app.register(async (scope) => {
        installAdminGuard(scope, 'x'.repeat(40), []);
        scope.get('/api/admin/forgotten', async () => ({ ok: true }));
      });
      await app.ready();
    };
    await expect(start()).rejects.toThrow(/GET \/api\/admin\/forgotten declares no permission/);
    await app.close().catch(() => {});
  });

  it('lets the local command line act as the owner with the right token from this machine, and nobody else', async () => {
    const registry: AdminRouteEntry[] = [];
    const app = Fastify();
    app.decorateRequest('auth', null);
    await app.register(async (scope) => {
      installAdminGuard(scope, 'secret-token-of-forty-characters-at-least', registry);
      scope.get('/api/admin/x', { config: { permission: 'audit.read' } }, async (request) => ({
        actor: request.staff,
      }));
    });
    const ok = await app.inject({
      method: 'GET',
      url: '/api/admin/x',
      headers: { 'x-admin-cli-token': 'secret-token-of-forty-characters-at-least' },
    });
    expect(ok.json()).toEqual({ actor: { id: null, email: 'command-line', role: 'owner' } });
    const wrong = await app.inject({
      method: 'GET',
      url: '/api/admin/x',
      headers: { 'x-admin-cli-token': 'secret-token-of-forty-characters-at-leasX' },
    });
    expect(wrong.statusCode).toBe(401);
    // The right token from another machine, or relayed by a proxy on this one, is no token at all.
    const elsewhere = await app.inject({
      method: 'GET',
      url: '/api/admin/x',
      remoteAddress: '192.0.2.7',
      headers: { 'x-admin-cli-token': 'secret-token-of-forty-characters-at-least' },
    });
    expect(elsewhere.statusCode).toBe(401);
    const relayed = await app.inject({
      method: 'GET',
      url: '/api/admin/x',
      headers: {
        'x-admin-cli-token': 'secret-token-of-forty-characters-at-least',
        'x-forwarded-for': '192.0.2.7',
      },
    });
    expect(relayed.statusCode).toBe(401);
    expect(registry).toEqual([{ method: 'GET', url: '/api/admin/x', permission: 'audit.read' }]);
    await app.close();
  });
});
