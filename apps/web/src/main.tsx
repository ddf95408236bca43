import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { BUILD_MANIFEST_PATH } from '@shop/shared/build-manifest-path';
import type { BuildManifest } from '@shop/shared/build-info';
import { AppProvider } from './app/provider.tsx';
import { createAppRouter } from './app/router.tsx';
import { setMaintenanceHandler, setUnauthorizedHandler } from './lib/api-client.ts';
import { startBuildPoller } from './lib/build-poller.ts';
import { hasUnsavedInput, installUnsavedInputTracking } from './lib/unsaved-input.ts';
import { BUILD_POLL_INTERVAL_MS } from './config/motion.ts';
import { paths } from './config/paths.ts';
import { whenSessionKnown } from './features/auth/api/get-current-user.ts';
import { handleSessionEnded } from './features/auth/session.ts';
import { installStorageReadRetry } from './features/storage/read-retry.ts';
import './index.css';

installUnsavedInputTracking();
installStorageReadRetry();
const router = createAppRouter();

// An API 401 means the session is gone: forget the user and go to sign-in, remembering the way back.
setUnauthorizedHandler(() => handleSessionEnded(router.state.location, (to) => void router.navigate(to, { replace: true })));

setMaintenanceHandler(() => {
  if (router.state.location.pathname !== paths.maintenance()) void router.navigate(paths.maintenance(), { replace: true });
});

void whenSessionKnown();

if (import.meta.env.PROD) {
  const poller = startBuildPoller({
    currentBuildId: __BUILD_ID__,
    intervalMs: BUILD_POLL_INTERVAL_MS,
    fetchManifest: async (t) => {
      try {
        const res = await fetch(`${BUILD_MANIFEST_PATH}?t=${t}`, { cache: 'no-store' });
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
  // A waiting update is applied as a full page load of the route being opened.
  router.subscribe((state) => {
    const next = state.navigation.location;
    if (next && next.pathname !== router.state.location.pathname) {
      poller.onRouteChange(next.pathname + next.search + next.hash);
    }
  });
}

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  </StrictMode>,
);
