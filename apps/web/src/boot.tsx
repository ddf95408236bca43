import { StrictMode, startTransition, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { hydrate } from '@tanstack/react-query';
import { AppProvider } from './app/provider.tsx';
import { buildRoutes, createAppRouter, loadMatchedRoutes } from './app/router.tsx';
import { queryClient } from './lib/query-client.ts';
import { readServerState } from './lib/server-state.ts';
import { useUserStore } from './features/auth/stores/user-store.ts';
import { setUnauthorizedHandler } from './lib/api-client.ts';
import { installUnsavedInputTracking } from './lib/unsaved-input.ts';
import { BUILD_POLL_INTERVAL_MS } from './config/motion.ts';
import { whenSessionKnown } from './features/auth/api/get-current-user.ts';
import { believesSignedIn } from './features/auth/stores/user-store.ts';
import { whenPartsHydrated } from './lib/hydration.tsx';

installUnsavedInputTracking();

// A page the server rendered (docs/decisions/024): start from its answers, its user and its
// route's code, so the first render here is the server's page and nothing is fetched twice.
const serverState = readServerState();
const routes = buildRoutes();
if (serverState) {
  hydrate(queryClient, serverState.queries);
  useUserStore.getState().setUserInfo(serverState.user);
  await loadMatchedRoutes(routes, window.location.pathname);
}
const router = createAppRouter(routes, serverState?.router);

// An API 401 means the session is gone: forget the user and go to sign-in, remembering the way back.
// What the tab believed is read at once, before anything else can empty the store; the handling
// itself (features/auth/session.ts) loads when a 401 first arrives, so anonymous visits never fetch it.
setUnauthorizedHandler(() => {
  const believed = believesSignedIn();
  const location = router.state.location;
  void import('./features/auth/session.ts').then(({ handleSessionEnded }) =>
    handleSessionEnded(location, (to) => void router.navigate(to, { replace: true }), believed),
  );
});

void whenSessionKnown();

if (import.meta.env.PROD) {
  // The new-build check (app/build-updates.ts) loads at its first use, the first focus, the first
  // route change or the end of the first interval, so the first page never waits for its code; from
  // then on it runs on its own interval, focus and route changes. Before any check nothing can be
  // pending, so no route change is missed; a route change checks at once, so a page kept in memory
  // is not shown while the shop is closed for maintenance.
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    stopWatching();
    window.removeEventListener('focus', start);
    document.removeEventListener('visibilitychange', onVisible);
    window.clearTimeout(timer);
    void import('./app/build-updates.ts').then(({ startBuildUpdates }) => startBuildUpdates(router));
  };
  const onVisible = () => {
    if (document.visibilityState === 'visible') start();
  };
  const stopWatching = router.subscribe((state) => state.navigation.location && start());
  const timer = window.setTimeout(start, BUILD_POLL_INTERVAL_MS);
  window.addEventListener('focus', start);
  document.addEventListener('visibilitychange', onVisible);
}

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
const app = (
  <StrictMode>
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
    <Hydrated root={root} />
  </StrictMode>
);
// React hydrates in slices (docs/decisions/029): as a transition, in short tasks that yield to the
// page, the layout and its header first; then the page and the footer (lib/hydration.tsx) at a
// lower priority, a part the visitor clicks or types in ahead of the others. Whatever React had to recover from
// while hydrating (a mismatch with the server's HTML, a part it had to render again) is reported as
// an error, so the browser tests see it.
if (serverState) {
  startTransition(() => void hydrateRoot(root, app, { onRecoverableError: reportRecoverableError }));
} else createRoot(root).render(app);

function reportRecoverableError(error: unknown, info: { componentStack?: string }): void {
  console.error('React recovered from an error while hydrating:', error, info.componentStack ?? '');
}

/**
 * Once the page is the app's (its first commit, hydration included), its controls take clicks:
 * until then a server-rendered page's buttons and fields ignore the pointer (index.css,
 * `#root[data-hydrating]`), so a click before the code arrives is never silently lost.
 */
function Hydrated({ root }: { root: HTMLElement }) {
  // The parts React hydrates after the rest (lib/hydration.tsx) included.
  useEffect(() => void whenPartsHydrated().then(() => root.removeAttribute('data-hydrating')), [root]);
  return null;
}
