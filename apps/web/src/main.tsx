import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProvider } from './app/provider.tsx';
import { createAppRouter } from './app/router.tsx';
import { setUnauthorizedHandler } from './lib/api-client.ts';
import { installUnsavedInputTracking } from './lib/unsaved-input.ts';
import { BUILD_POLL_INTERVAL_MS } from './config/motion.ts';
import { whenSessionKnown } from './features/auth/api/get-current-user.ts';
import { believesSignedIn } from './features/auth/stores/user-store.ts';
import './index.css';

installUnsavedInputTracking();
lazyStorageReadRetry();
const router = createAppRouter();

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
  // The new-build check (app/build-updates.ts) loads at its first use, the first focus or the end
  // of the first interval, so the first page never waits for its code; from then on it runs on its
  // own interval and focus. Before any check nothing can be pending, so no route change is missed.
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    window.removeEventListener('focus', start);
    document.removeEventListener('visibilitychange', onVisible);
    window.clearTimeout(timer);
    void import('./app/build-updates.ts').then(({ startBuildUpdates }) => startBuildUpdates(router));
  };
  const onVisible = () => {
    if (document.visibilityState === 'visible') start();
  };
  const timer = window.setTimeout(start, BUILD_POLL_INTERVAL_MS);
  window.addEventListener('focus', start);
  document.addEventListener('visibilitychange', onVisible);
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

/**
 * Pictures from the storage that fail to load are tried again (features/storage/read-retry.ts).
 * Its code is fetched only when a picture first fails, so a visit where every picture loads never
 * downloads it; the first failure is handed over once it is installed.
 */
function lazyStorageReadRetry(): void {
  const first = (event: Event) => {
    const img = event.target;
    if (!(img instanceof HTMLImageElement)) return;
    document.removeEventListener('error', first, true);
    void import('./features/storage/read-retry.ts').then(({ installStorageReadRetry }) => {
      installStorageReadRetry();
      img.dispatchEvent(new Event('error'));
    });
  };
  document.addEventListener('error', first, true);
}
