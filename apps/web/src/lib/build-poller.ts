import type { BuildManifest } from '@shop/shared/build-info';

export interface BuildPollerDeps {
  readonly currentBuildId: string;
  readonly intervalMs: number;
  /** Fetches the manifest with a cache-busting timestamp; resolves null when unreachable. */
  fetchManifest(timestamp: number): Promise<BuildManifest | null>;
  /** True while a form holds input the user has not submitted. */
  hasUnsavedInput(): boolean;
  /** Reload now: the current page, or a full page load of `href` when given. */
  reload(href?: string): void;
  now(): number;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
  /** Subscribe to "the tab regained focus"; returns an unsubscribe function. */
  onFocus(fn: () => void): () => void;
}

export interface BuildPoller {
  /** Check now (also runs on the interval and on focus). */
  check(): Promise<void>;
  /** Call when a route change starts: loads `href` in full when a new build is waiting. Returns true then. */
  onRouteChange(href: string): boolean;
  readonly updatePending: boolean;
  stop(): void;
}

/**
 * docs/product-rules.md#http-behaviour (new builds): poll the build manifest; when a new id appears, reload at once
 * if no form holds unsaved input, else at the next route change.
 */
export function startBuildPoller(deps: BuildPollerDeps): BuildPoller {
  let pending = false;
  let reloading = false;
  let inFlight = false;

  const reload = (href?: string) => {
    if (reloading) return;
    reloading = true;
    deps.reload(href);
  };

  const check = async () => {
    if (reloading || inFlight) return;
    inFlight = true;
    try {
      const manifest = await deps.fetchManifest(deps.now());
      if (manifest && manifest.buildId !== deps.currentBuildId) pending = true;
    } finally {
      inFlight = false;
    }
    if (pending && !deps.hasUnsavedInput()) reload();
  };

  const handle = deps.setInterval(() => void check(), deps.intervalMs);
  const unsubscribe = deps.onFocus(() => void check());

  return {
    check,
    onRouteChange(href) {
      if (!pending) return false;
      reload(href);
      return true;
    },
    get updatePending() {
      return pending;
    },
    stop() {
      deps.clearInterval(handle);
      unsubscribe();
    },
  };
}
