import { RELOAD_GUARD_MS } from '../config/motion.ts';

const KEY_PREFIX = 'chunk-reload:';

export interface ReloadStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/**
 * docs/product-rules.md#http-behaviour: a failed page chunk reloads the page, at most once per 10 s for the same path.
 * Returns true (and records the time) when a reload is allowed now.
 */
export function claimChunkReload(path: string, now: number, storage: ReloadStorage): boolean {
  const key = KEY_PREFIX + path;
  const last = Number(storage.getItem(key) ?? 0);
  if (Number.isFinite(last) && last > 0 && now - last < RELOAD_GUARD_MS) return false;
  try {
    storage.setItem(key, String(now));
  } catch {
    // Storage full or blocked: refuse, so we can never loop.
    return false;
  }
  return true;
}

/** A page's file could not be fetched. Its message is for developers' logs: shoppers read ChunkFailedPage. */
export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super('page chunk failed to load', { cause });
    this.name = 'ChunkLoadError';
  }
}

/**
 * Wraps a dynamic import of a page. When its file cannot be fetched, reloads once per path per
 * 10 s (a new build may have replaced the chunk); after that the error reaches the route's error
 * page. An error thrown by the page's own code as it loads is passed on as it is: it is a crash in
 * the browser (「發生錯誤」), not a file the server failed to send.
 */
export function withChunkReload<T>(load: () => Promise<T>, given?: ChunkReloadDeps): () => Promise<T> {
  return async () => {
    try {
      return await load();
    } catch (error) {
      // Read when needed: on the server, where pages are also rendered, there is no window.
      const deps = given ?? browserDeps();
      // Chromium and Firefox say "…dynamically imported module", Safari "Importing a module script
      // failed", Vite "Unable to preload CSS".
      if (!/mport|preload/.test(String(error))) throw error;
      if (claimChunkReload(deps.path(), deps.now(), deps.storage)) {
        deps.reload();
        // Never settle: the page is going away.
        return new Promise<T>(() => {});
      }
      throw new ChunkLoadError(error);
    }
  };
}

export interface ChunkReloadDeps {
  /** The path whose page failed to load (during a client navigation: the target, not the current URL). */
  path(): string;
  now(): number;
  storage: ReloadStorage;
  /** A full page load of that path. */
  reload(): void;
}

/** Where the app is going: set by the router so a failed chunk reloads the page being opened. */
let pendingHref: () => string | null = () => null;

export function setPendingLocationSource(source: () => string | null): void {
  pendingHref = source;
}

function browserDeps(): ChunkReloadDeps {
  const target = () =>
    pendingHref() ?? window.location.pathname + window.location.search + window.location.hash;
  return {
    path: () => target().split(/[?#]/, 1)[0] ?? '/',
    now: () => Date.now(),
    storage: window.sessionStorage,
    reload: () => {
      const href = target();
      if (href === window.location.pathname + window.location.search + window.location.hash)
        window.location.reload();
      else window.location.assign(href);
    },
  };
}
