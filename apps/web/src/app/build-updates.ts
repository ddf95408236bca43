import { BUILD_MANIFEST_PATH } from '@shop/shared/build-manifest-path';
import type { BuildManifest } from '@shop/shared/build-info';
import type { createAppRouter } from './router.tsx';
import { BUILD_POLL_INTERVAL_MS } from '../config/motion.ts';
import { paths } from '../config/paths.ts';
import { startBuildPoller } from '../lib/build-poller.ts';
import { hasUnsavedInput } from '../lib/unsaved-input.ts';

/**
 * Starts the new-build check in the browser (the rules are in build-poller.ts) and checks at once:
 * main.tsx loads this module at the check's first occasion, a focus or the end of the first
 * interval.
 */
export function startBuildUpdates(router: ReturnType<typeof createAppRouter>): void {
  const poller = startBuildPoller({
    currentBuildId: __BUILD_ID__,
    intervalMs: BUILD_POLL_INTERVAL_MS,
    fetchManifest: async (t) => {
      try {
        const res = await fetch(`${BUILD_MANIFEST_PATH}?t=${t}`, { cache: 'no-store' });
        // The shop closed for maintenance since this page opened (a visitor with no live-update
        // stream learns it here, within a minute): the server's maintenance page takes over.
        if (
          res.status === 503 &&
          ((await res.json()) as { error?: { code?: string } }).error?.code === 'maintenance'
        ) {
          window.location.replace(
            `${paths.maintenance()}?next=${encodeURIComponent(window.location.pathname + window.location.search)}`,
          );
          return null;
        }
        return res.ok ? ((await res.json()) as BuildManifest) : null;
      } catch {
        return null;
      }
    },
    hasUnsavedInput,
    reload: (href) => (href ? window.location.assign(href) : window.location.reload()),
    now: () => Date.now(),
    setInterval: (fn, ms) => window.setInterval(fn, ms),
    clearInterval: (h) => window.clearInterval(h as number),
    onFocus: (fn) => {
      const onVisible = () => document.visibilityState === 'visible' && fn();
      window.addEventListener('focus', fn);
      document.addEventListener('visibilitychange', onVisible);
      return () => {
        window.removeEventListener('focus', fn);
        document.removeEventListener('visibilitychange', onVisible);
      };
    },
  });
  // A waiting update is applied as a full page load of the route being opened. Otherwise the route
  // change checks at once: a page the app keeps in memory (the FAQ read a minute ago) is not shown
  // after the shop closed for maintenance.
  router.subscribe((state) => {
    const next = state.navigation.location;
    if (next && next.pathname !== router.state.location.pathname) {
      if (!poller.onRouteChange(next.pathname + next.search + next.hash)) void poller.check();
    }
  });
  void poller.check();
}
