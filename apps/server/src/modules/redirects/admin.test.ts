import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbAvailable, signIn, type TestContext } from '../../../test/helpers.ts';
import { seedTestCatalog, setRole } from '../../../test/fixtures.ts';
import { ORIGIN } from '../../../test/shop.ts';
import { auditLog, products, redirects } from '../../db/schema.ts';
import { saveRedirect } from './service.ts';

describe.skipIf(!dbAvailable())('redirects in the console', () => {
  let ctx: TestContext;
  let owner: string;
  let staff: string;
  let viewer: string;
  let customer: string;
  beforeAll(async () => {
    ctx = await createTestApp();
    await seedTestCatalog(ctx.database);
    // A retired product, whose old address may be pointed elsewhere.
    await ctx.database.db.update(products).set({ status: 'archived' }).where(eq(products.slug, 'ruby-black'));
    owner = (await signIn(ctx.app, 'owner@example.com')).cookie;
    staff = (await signIn(ctx.app, 'staff@example.com')).cookie;
    viewer = (await signIn(ctx.app, 'viewer@example.com')).cookie;
    customer = (await signIn(ctx.app, 'customer@example.com')).cookie;
    await setRole(ctx.database, 'owner@example.com', 'owner');
    await setRole(ctx.database, 'staff@example.com', 'staff');
    await setRole(ctx.database, 'viewer@example.com', 'viewer');
  });
  afterAll(async () => ctx.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie?: string, payload?: unknown) =>
    ctx.app.inject({
      method,
      url,
      headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const create = (body: unknown, cookie = owner) => call('POST', '/api/admin/redirects', cookie, body);
  const update = (body: unknown, cookie = owner) => call('PUT', '/api/admin/redirects', cookie, body);
  const remove = (path: string, cookie = owner) =>
    call('DELETE', `/api/admin/redirects?path=${encodeURIComponent(path)}`, cookie);
  const list = (query = '', cookie = owner) => call('GET', `/api/admin/redirects${query}`, cookie);
  const stored = async (path: string) =>
    (await ctx.database.db.select().from(redirects).where(eq(redirects.path, path)))[0];
  const audits = (action: string) =>
    ctx.database.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.id));
  const lookup = async (path: string) =>
    (await call('GET', `/api/redirects?path=${encodeURIComponent(path)}`)).json().redirect;

  describe('permissions', () => {
    it('lets every console role read; anonymous 401, shoppers 403', async () => {
      for (const cookie of [owner, staff, viewer]) expect((await list('', cookie)).statusCode).toBe(200);
      expect((await list('', '')).statusCode).toBe(401);
      expect((await call('GET', '/api/admin/redirects')).json().error.code).toBe('unauthenticated');
      const res = await list('', customer);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('forbidden');
    });

    it('lets only the owner write: staff, viewers and shoppers get 403, anonymous 401, and nothing changes', async () => {
      await saveRedirect(ctx.database.db, '/mall/perm-check', '/mall/dong-ding');
      const body = { path: '/mall/perm-new', target: '/mall/dong-ding' };
      for (const cookie of [staff, viewer, customer]) {
        expect((await create(body, cookie)).statusCode).toBe(403);
        expect((await update({ path: '/mall/perm-check', target: '/mall/li-shan' }, cookie)).statusCode).toBe(
          403,
        );
        expect((await remove('/mall/perm-check', cookie)).statusCode).toBe(403);
      }
      expect((await create(body, '')).statusCode).toBe(401);
      expect((await remove('/mall/perm-check', '')).statusCode).toBe(401);
      expect(await stored('/mall/perm-new')).toBeUndefined();
      expect(await stored('/mall/perm-check')).toMatchObject({ target: '/mall/dong-ding' });
    });
  });

  describe('creating, changing and deleting', () => {
    it('adds a redirect in normal form, audits it, and the shop follows it', async () => {
      const res = await create({ path: '/Mall/Old-Oolong/', target: '/mall/dong-ding', permanent: true });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        path: '/mall/old-oolong',
        target: '/mall/dong-ding',
        permanent: true,
      });
      expect(await lookup('/mall/old-oolong')).toEqual({ target: '/mall/dong-ding', permanent: true });
      const [row] = await audits('redirect.create');
      expect(row).toMatchObject({
        actorEmail: 'owner@example.com',
        actorRole: 'owner',
        entity: 'redirect',
        entityId: '/mall/old-oolong',
        before: null,
        after: { path: '/mall/old-oolong', target: '/mall/dong-ding', permanent: true },
      });
    });

    it('refuses a second redirect on the same path with 409', async () => {
      const res = await create({ path: '/mall/old-oolong', target: '/mall/li-shan' });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({
        code: 'redirect-exists',
        fields: { path: '/mall/old-oolong 已經有轉址，請直接編輯那一筆。' },
      });
      expect(await stored('/mall/old-oolong')).toMatchObject({ target: '/mall/dong-ding' });
    });

    it('changes the target and kind by path, with before and after in the audit', async () => {
      const res = await update({
        path: '/mall/OLD-oolong',
        target: '/mall/li-shan?from=old',
        permanent: false,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        path: '/mall/old-oolong',
        target: '/mall/li-shan?from=old',
        permanent: false,
      });
      const [row] = await audits('redirect.update');
      expect(row).toMatchObject({
        actorEmail: 'owner@example.com',
        entityId: '/mall/old-oolong',
        before: { path: '/mall/old-oolong', target: '/mall/dong-ding', permanent: true },
        after: { path: '/mall/old-oolong', target: '/mall/li-shan?from=old', permanent: false },
      });
      expect(await lookup('/mall/old-oolong')).toEqual({
        target: '/mall/li-shan?from=old',
        permanent: false,
      });
      expect((await update({ path: '/mall/never-there', target: '/mall/li-shan' })).statusCode).toBe(404);
    });

    it('deletes by path, audited with what was there', async () => {
      await saveRedirect(ctx.database.db, '/mall/to-delete', '/mall/white-cup', false);
      const res = await remove('/mall/To-Delete/');
      expect(res.statusCode).toBe(204);
      expect(await stored('/mall/to-delete')).toBeUndefined();
      const [row] = await audits('redirect.delete');
      expect(row).toMatchObject({
        actorEmail: 'owner@example.com',
        entityId: '/mall/to-delete',
        before: { path: '/mall/to-delete', target: '/mall/white-cup', permanent: false },
        after: null,
      });
      const again = await remove('/mall/to-delete');
      expect(again.statusCode).toBe(404);
      expect(again.json().error.message).toBe('找不到 /mall/to-delete 的轉址，可能已經被刪除。');
    });
  });

  describe('refusals', () => {
    const refused = async (
      body: Record<string, unknown>,
      field: string,
      message: string | RegExp,
      via: 'create' | 'update' = 'create',
    ) => {
      const before = (await audits('redirect.create')).length + (await audits('redirect.update')).length;
      const res = via === 'create' ? await create(body) : await update(body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toMatch(/^(invalid-argument|redirect-refused)$/);
      expect(res.json().error.fields[field]).toEqual(
        typeof message === 'string' ? message : expect.stringMatching(message),
      );
      expect((await audits('redirect.create')).length + (await audits('redirect.update')).length).toBe(
        before,
      );
    };

    it('checks the form of paths and targets, in zh-TW', async () => {
      await refused(
        { path: 'mall/x', target: '/mall/dong-ding' },
        'path',
        '原路徑必須以 / 開頭，例如 /mall/old-oolong',
      );
      await refused(
        { path: '//evil.example', target: '/mall/dong-ding' },
        'path',
        '原路徑必須以 / 開頭，例如 /mall/old-oolong',
      );
      await refused({ path: '/mall/a b', target: '/mall/dong-ding' }, 'path', '原路徑不能包含空白、? 或 #');
      await refused({ path: '/mall/x?y=1', target: '/mall/dong-ding' }, 'path', '原路徑不能包含空白、? 或 #');
      await refused({ path: '', target: '/mall/dong-ding' }, 'path', '請填寫原路徑');
      await refused(
        { path: '/mall/x', target: 'https://partner.example/tea' },
        'target',
        '目標必須是本站的路徑，以 / 開頭，例如 /mall/dong-ding',
      );
      await refused(
        { path: '/mall/x', target: '//evil.example/x' },
        'target',
        '目標必須是本站的路徑，以 / 開頭，例如 /mall/dong-ding',
      );
      await refused({ path: '/mall/x', target: '' }, 'target', '請填寫目標路徑');
      await refused(
        { path: '/mall/x', target: '/mall/dong-ding', permanent: 'yes' },
        'permanent',
        '請選擇永久或暫時轉址',
      );
      expect((await create({ path: '/mall/x', target: '/mall/dong-ding', extra: 1 })).statusCode).toBe(400);
      expect(await stored('/mall/x')).toBeUndefined();
    });

    it('refuses a redirect to itself, in any spelling', async () => {
      await refused({ path: '/mall/self', target: '/MALL/self/?x=1' }, 'target', '目標不能和原路徑相同。');
    });

    it('refuses a loop: following the chain must not come back to the path', async () => {
      await saveRedirect(ctx.database.db, '/mall/loop-b', '/mall/loop-c');
      await saveRedirect(ctx.database.db, '/mall/loop-c', '/mall/loop-a');
      await refused(
        { path: '/mall/loop-a', target: '/mall/loop-b' },
        'target',
        '這樣會形成轉址迴圈：/mall/loop-a → /mall/loop-b → /mall/loop-c → /mall/loop-a。',
      );
      // Changing an existing one into a loop is refused too.
      await refused(
        { path: '/mall/loop-c', target: '/mall/loop-b' },
        'target',
        '這樣會形成轉址迴圈：/mall/loop-c → /mall/loop-b → /mall/loop-c。',
        'update',
      );
      expect(await stored('/mall/loop-c')).toMatchObject({ target: '/mall/loop-a' });
      // A chain that ends elsewhere is fine.
      expect((await create({ path: '/mall/loop-z', target: '/mall/loop-b' })).statusCode).toBe(200);
    });

    it('refuses a path a live page owns, and an active or draft product’s page; allows a retired or missing product’s', async () => {
      await refused(
        { path: '/faq', target: '/mall' },
        'path',
        '這是網站上的「常見問題」頁面，不能設定轉址。',
      );
      await refused(
        { path: '/Mall', target: '/faq' },
        'path',
        '這是網站上的「線上商城」頁面，不能設定轉址。',
      );
      await refused({ path: '/', target: '/mall' }, 'path', '這是網站上的「首頁」頁面，不能設定轉址。');
      await refused(
        { path: '/admin/orders', target: '/mall' },
        'path',
        '/api 與 /admin 之下的路徑不能設定轉址。',
      );
      await refused(
        { path: '/mall/dong-ding', target: '/mall/li-shan' },
        'path',
        '這是上架中的商品「凍頂烏龍茶」的頁面，不能設定轉址；商品封存後才能轉址。',
      );
      await refused(
        { path: '/mall/next-spring', target: '/mall/li-shan' },
        'path',
        '這是尚未上架的商品「明年春茶（未上架）」的頁面，不能設定轉址；商品封存後才能轉址。',
      );
      expect((await create({ path: '/mall/ruby-black', target: '/mall/li-shan' })).statusCode).toBe(200);
      expect((await create({ path: '/mall/no-such-tea', target: '/mall/li-shan' })).statusCode).toBe(200);
      expect((await create({ path: '/old-catalogue.html', target: '/mall' })).statusCode).toBe(200);
    });

    it('refuses a target that is not a page of this site', async () => {
      await refused(
        { path: '/mall/gone', target: '/no-such-page' },
        'target',
        '/no-such-page 不是本站的頁面，請確認目標路徑。',
      );
      await refused(
        { path: '/mall/gone', target: '/api/catalog/products' },
        'target',
        '目標不能是 /api 或 /admin 之下的路徑。',
      );
    });
  });

  describe('listing', () => {
    it('pages the redirects, newest change first, and searches path and target', async () => {
      const all = (await list('?pageSize=100')).json();
      expect(all.total).toBe(all.items.length);
      expect(all.items[0]).toMatchObject({ path: '/old-catalogue.html', target: '/mall' });
      const byPath = (await list('?q=OLD-OOLONG')).json();
      expect(byPath.items.map((r: { path: string }) => r.path)).toEqual(['/mall/old-oolong']);
      const byTarget = (await list(`?q=${encodeURIComponent('li-shan?from')}`)).json();
      expect(byTarget.items.map((r: { path: string }) => r.path)).toEqual(['/mall/old-oolong']);
      // LIKE wildcards are taken literally.
      expect((await list('?q=%25')).json().total).toBe(0);
      const paged = (await list('?pageSize=2&page=2')).json();
      expect(paged).toMatchObject({
        page: 2,
        pageSize: 2,
        total: all.total,
        totalPages: Math.ceil(all.total / 2),
      });
      expect(paged.items).toEqual(all.items.slice(2, 4));
    });

    it('refuses bad queries with 400', async () => {
      const res = await list('?page=0');
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields.page).toBe('頁碼至少為 1');
      expect((await list('?sort=path')).statusCode).toBe(400);
    });
  });
});
