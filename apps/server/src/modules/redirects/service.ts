import type { DbOrTx } from '../../db/client.ts';
import * as repo from './repo.ts';

/** Redirects are keyed by a normal form: lower-case, no trailing slash, no query. */
export function normalizeRedirectPath(path: string): string {
  const bare = path.split(/[?#]/, 1)[0] ?? '/';
  // A loop, not /\/+$/: that pattern is quadratic on a long run of slashes followed by anything.
  let end = bare.length;
  while (bare.length > 1 && end > 0 && bare.charCodeAt(end - 1) === 0x2f) end--;
  const trimmed = bare.slice(0, end);
  return (trimmed || '/').toLowerCase();
}

/**
 * Looks a path up (docs/product-rules.md#http-behaviour). Follows chains (a → b → c) so a renamed-twice product still lands
 * on its current page, and stops on a loop or after a few hops.
 */
export async function lookupRedirect(
  db: DbOrTx,
  path: string,
): Promise<{ target: string; permanent: boolean } | null> {
  const seen = new Set<string>();
  let key = normalizeRedirectPath(path);
  let target: string | null = null;
  let permanent = true;
  for (let hop = 0; hop < 5; hop++) {
    seen.add(key);
    const row = await repo.findRedirect(db, key);
    if (!row) break;
    target = row.target;
    permanent = permanent && row.permanent;
    if (!row.target.startsWith('/')) break;
    key = normalizeRedirectPath(row.target);
    if (seen.has(key)) break;
  }
  return target === null ? null : { target, permanent };
}

const listeners = new Set<() => void>();

/** Called after every redirect edit in this process, once it committed (kept pages listen). */
export function onRedirectsChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function redirectsChanged(): void {
  for (const listener of listeners) listener();
}

/** Writes or replaces a redirect; paths are stored in normal form. */
export async function saveRedirect(
  db: DbOrTx,
  path: string,
  target: string,
  permanent = true,
): Promise<void> {
  await repo.upsertRedirect(db, { path: normalizeRedirectPath(path), target, permanent });
}

export async function deleteRedirect(db: DbOrTx, path: string): Promise<void> {
  await repo.deleteRedirect(db, normalizeRedirectPath(path));
}
