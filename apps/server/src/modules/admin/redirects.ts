import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { asc, count, desc, eq, ilike, or } from 'drizzle-orm';
import { pageOf } from '@shop/shared/admin';
import { AdminRedirect, RedirectBody, RedirectListQuery, RedirectPathQuery } from '@shop/shared/admin-settings';
import { matchRoute } from '@shop/shared/routes';
import type { DbOrTx } from '../../db/client.ts';
import { products, redirects } from '../../db/schema.ts';
import { AppError, BadRequestError, NoDataError, NotFoundError } from '../../lib/errors.ts';
import { normalizeRedirectPath } from '../redirects/service.ts';
import { recordAudit } from './audit.ts';

type RedirectRow = typeof redirects.$inferSelect;

const toView = (r: RedirectRow): AdminRedirect => ({ path: r.path, target: r.target, permanent: r.permanent, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString() });
const snapshot = (r: RedirectRow) => ({ path: r.path, target: r.target, permanent: r.permanent });

/** `%text%` for ILIKE, with the wildcards in the text taken literally. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const SYSTEM = /^\/(api|admin)(\/|$)/;

async function findRow(db: DbOrTx, path: string): Promise<RedirectRow | null> {
  const [row] = await db.select().from(redirects).where(eq(redirects.path, path)).limit(1);
  return row ?? null;
}

/**
 * Refuses a path that a live page owns: a redirect there would take shoppers away from the page.
 * A product address under /mall/ may be redirected once its product is archived or gone.
 */
async function livePageProblem(db: DbOrTx, path: string): Promise<string | null> {
  if (SYSTEM.test(path)) return '/api 與 /admin 之下的路徑不能設定轉址。';
  const match = matchRoute(path);
  if (!match) return null;
  if (match.route.id === 'product') {
    const slug = (match.params.productId ?? '').toLowerCase();
    const [product] = await db.select({ name: products.name, status: products.status }).from(products).where(eq(products.slug, slug)).limit(1);
    if (!product || product.status === 'archived') return null;
    return `這是${product.status === 'active' ? '上架中' : '尚未上架'}的商品「${product.name}」的頁面，不能設定轉址；商品封存後才能轉址。`;
  }
  return `這是網站上的「${match.route.title}」頁面，不能設定轉址。`;
}

/** The target must be a page of this site, not the path itself, and following it must never come back. */
async function targetProblem(db: DbOrTx, path: string, target: string): Promise<string | null> {
  const first = normalizeRedirectPath(target);
  if (first === path) return '目標不能和原路徑相同。';
  if (SYSTEM.test(first)) return '目標不能是 /api 或 /admin 之下的路徑。';
  const chain = [path, first];
  let key = first;
  for (let hop = 0; hop < 20; hop++) {
    const next = await findRow(db, key);
    if (!next) break;
    if (!next.target.startsWith('/')) break;
    key = normalizeRedirectPath(next.target);
    chain.push(key);
    if (key === path) return `這樣會形成轉址迴圈：${chain.join(' → ')}。`;
    // A loop elsewhere in the chain (made before these checks existed) never returns here.
    if (chain.indexOf(key) < chain.length - 1) break;
  }
  if (!matchRoute(first) && !(await findRow(db, first))) return `${first} 不是本站的頁面，請確認目標路徑。`;
  return null;
}

async function check(db: DbOrTx, path: string, target: string): Promise<void> {
  const onPath = await livePageProblem(db, path);
  if (onPath) throw new BadRequestError(onPath, { path: onPath }, 'redirect-refused');
  const onTarget = await targetProblem(db, path, target);
  if (onTarget) throw new BadRequestError(onTarget, { target: onTarget }, 'redirect-refused');
}

/**
 * Console API for redirects (old addresses, mostly renamed or retired products): list and search,
 * add, change the target, delete. Paths are stored in the lookup's normal form.
 */
const redirectsRoutes: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/admin/redirects', { config: { permission: 'redirects.read' }, schema: { querystring: RedirectListQuery, response: { 200: pageOf(AdminRedirect) } } }, async (request) => {
    const q = request.query;
    const filter = q.q ? or(ilike(redirects.path, contains(q.q)), ilike(redirects.target, contains(q.q))) : undefined;
    const [rows, [total]] = await Promise.all([
      app.db.select().from(redirects).where(filter).orderBy(desc(redirects.updatedAt), asc(redirects.path)).limit(q.pageSize).offset((q.page - 1) * q.pageSize),
      app.db.select({ n: count() }).from(redirects).where(filter),
    ]);
    const n = Number(total?.n ?? 0);
    return { items: rows.map(toView), page: q.page, pageSize: q.pageSize, total: n, totalPages: Math.max(1, Math.ceil(n / q.pageSize)) };
  });

  r.post('/api/admin/redirects', { config: { permission: 'redirects.write' }, schema: { body: RedirectBody, response: { 200: AdminRedirect } } }, async (request) => {
    const path = normalizeRedirectPath(request.body.path);
    const { target, permanent } = request.body;
    return app.db.transaction(async (tx) => {
      if (await findRow(tx, path)) {
        const message = `${path} 已經有轉址，請直接編輯那一筆。`;
        throw new AppError(409, 'redirect-exists', message, { path: message });
      }
      await check(tx, path, target);
      const [row] = await tx.insert(redirects).values({ path, target, permanent }).onConflictDoNothing().returning();
      if (!row) {
        const message = `${path} 已經有轉址，請直接編輯那一筆。`;
        throw new AppError(409, 'redirect-exists', message, { path: message });
      }
      await recordAudit(tx, request, { action: 'redirect.create', entity: 'redirect', entityId: path, after: snapshot(row) });
      return toView(row);
    });
  });

  r.put('/api/admin/redirects', { config: { permission: 'redirects.write' }, schema: { body: RedirectBody, response: { 200: AdminRedirect } } }, async (request) => {
    const path = normalizeRedirectPath(request.body.path);
    const { target, permanent } = request.body;
    return app.db.transaction(async (tx) => {
      const before = await findRow(tx, path);
      if (!before) throw new NotFoundError(`找不到 ${path} 的轉址，可能已經被刪除。`);
      await check(tx, path, target);
      const [row] = await tx.update(redirects).set({ target, permanent, updatedAt: new Date() }).where(eq(redirects.path, path)).returning();
      // Read a moment ago, gone now: deleted by someone else meanwhile.
      if (!row) throw new NoDataError(`${path} 的轉址在儲存時已被刪除，請重新整理後再試。`);
      await recordAudit(tx, request, { action: 'redirect.update', entity: 'redirect', entityId: path, before: snapshot(before), after: snapshot(row) });
      return toView(row);
    });
  });

  r.delete('/api/admin/redirects', { config: { permission: 'redirects.write' }, schema: { querystring: RedirectPathQuery } }, async (request, reply) => {
    const path = normalizeRedirectPath(request.query.path);
    await app.db.transaction(async (tx) => {
      const [row] = await tx.delete(redirects).where(eq(redirects.path, path)).returning();
      if (!row) throw new NotFoundError(`找不到 ${path} 的轉址，可能已經被刪除。`);
      await recordAudit(tx, request, { action: 'redirect.delete', entity: 'redirect', entityId: path, before: snapshot(row) });
    });
    return reply.code(204).send();
  });
};

export default redirectsRoutes;
