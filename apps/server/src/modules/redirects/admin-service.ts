import type { PageOf } from '@shop/shared/admin';
import type { AdminRedirect, RedirectListQuery } from '@shop/shared/admin-settings';
import { pageResult, pageWindow } from '@shop/shared/paging';
import { matchRoute } from '@shop/shared/routes';
import type { DbOrTx } from '../../db/client.ts';
import { AppError, BadRequestError, NoDataError, NotFoundError } from '../../lib/errors.ts';
import * as repo from './repo.ts';
import { normalizeRedirectPath } from './service.ts';

type RedirectRow = repo.RedirectRow;

const toView = (r: RedirectRow): AdminRedirect => ({
  path: r.path,
  target: r.target,
  permanent: r.permanent,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});
/** What the audit trail keeps of a redirect. */
const snapshot = (r: RedirectRow) => ({ path: r.path, target: r.target, permanent: r.permanent });

const SYSTEM = /^\/(api|admin)(\/|$)/;

/**
 * Refuses a path that a live page owns: a redirect there would take shoppers away from the page.
 * A product address under /mall/ may be redirected once its product is archived or gone.
 */
async function livePageProblem(db: DbOrTx, path: string): Promise<string | null> {
  if (SYSTEM.test(path)) return '/api 與 /admin 之下的路徑不能設定轉址。';
  const match = matchRoute(path);
  if (!match) return null;
  if (match.route.id === 'product') {
    const product = await repo.productAtSlug(db, (match.params.productId ?? '').toLowerCase());
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
    const next = await repo.findRow(db, key);
    if (!next) break;
    if (!next.target.startsWith('/')) break;
    key = normalizeRedirectPath(next.target);
    chain.push(key);
    if (key === path) return `這樣會形成轉址迴圈：${chain.join(' → ')}。`;
    // A loop elsewhere in the chain (made before these checks existed) never returns here.
    if (chain.indexOf(key) < chain.length - 1) break;
  }
  if (!matchRoute(first) && !(await repo.findRow(db, first)))
    return `${first} 不是本站的頁面，請確認目標路徑。`;
  return null;
}

async function check(db: DbOrTx, path: string, target: string): Promise<void> {
  const onPath = await livePageProblem(db, path);
  if (onPath) throw new BadRequestError(onPath, { path: onPath }, 'redirect-refused');
  const onTarget = await targetProblem(db, path, target);
  if (onTarget) throw new BadRequestError(onTarget, { target: onTarget }, 'redirect-refused');
}

function exists(path: string): AppError {
  const message = `${path} 已經有轉址，請直接編輯那一筆。`;
  return new AppError(409, 'redirect-exists', message, { path: message });
}

export interface RedirectChange {
  readonly path: string;
  readonly view: AdminRedirect | null;
  readonly before: ReturnType<typeof snapshot> | null;
  readonly after: ReturnType<typeof snapshot> | null;
}

/** One page of redirects, searched over path and target. */
export async function listRedirects(db: DbOrTx, q: RedirectListQuery): Promise<PageOf<AdminRedirect>> {
  const { items, total } = await repo.redirectPage(db, q.q || undefined, pageWindow(q.page, q.pageSize));
  return pageResult(items.map(toView), q.page, q.pageSize, total);
}

/** Adds a redirect for a path that has none (409 `redirect-exists` otherwise). */
export async function createRedirect(
  tx: DbOrTx,
  rawPath: string,
  target: string,
  permanent: boolean,
): Promise<RedirectChange> {
  const path = normalizeRedirectPath(rawPath);
  if (await repo.findRow(tx, path)) throw exists(path);
  await check(tx, path, target);
  const row = await repo.insertRow(tx, { path, target, permanent });
  if (!row) throw exists(path);
  return { path, view: toView(row), before: null, after: snapshot(row) };
}

/** Changes the target of a path's redirect. */
export async function updateRedirect(
  tx: DbOrTx,
  rawPath: string,
  target: string,
  permanent: boolean,
  now = new Date(),
): Promise<RedirectChange> {
  const path = normalizeRedirectPath(rawPath);
  const before = await repo.findRow(tx, path);
  if (!before) throw new NotFoundError(`找不到 ${path} 的轉址，可能已經被刪除。`);
  await check(tx, path, target);
  const row = await repo.updateRow(tx, path, { target, permanent }, now);
  // Read a moment ago, gone now: deleted by someone else meanwhile.
  if (!row) throw new NoDataError(`${path} 的轉址在儲存時已被刪除，請重新整理後再試。`);
  return { path, view: toView(row), before: snapshot(before), after: snapshot(row) };
}

export async function removeRedirect(tx: DbOrTx, rawPath: string): Promise<RedirectChange> {
  const path = normalizeRedirectPath(rawPath);
  const row = await repo.deleteRow(tx, path);
  if (!row) throw new NotFoundError(`找不到 ${path} 的轉址，可能已經被刪除。`);
  return { path, view: null, before: snapshot(row), after: null };
}
