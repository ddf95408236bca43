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

export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super('頁面檔案載入失敗', { cause });
    this.name = 'ChunkLoadError';
  }
}

/**
 * Wraps a dynamic import of a page. When it fails, reloads once per path per 10 s (a new build
 * may have replaced the chunk); after that the error reaches the route's error page.
 */
export function withChunkReload<T>(load: () => Promise<T>, deps = browserDeps()): () => Promise<T> {
  return async () => {
    try {
      return await load();
    } catch (error) {
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
  const target = () => pendingHref() ?? window.location.pathname + window.location.search + window.location.hash;
  return {
    path: () => target().split(/[?#]/, 1)[0] ?? '/',
    now: () => Date.now(),
    storage: window.sessionStorage,
    reload: () => {
      const href = target();
      if (href === window.location.pathname + window.location.search + window.location.hash) window.location.reload();
      else window.location.assign(href);
    },
  };
}
