import { lazy, Suspense, type ComponentProps } from 'react';
import { isRouteErrorResponse, useLocation, useRouteError } from 'react-router';
import { ApiError } from '../../lib/api-error.ts';
import { ChunkLoadError } from '../../lib/reload-guard.ts';
import { buttonClass } from '../ui/button.tsx';
import { Container } from '../ui/page.tsx';

const RELOAD_HINT = '請重新載入；若問題持續，歡迎與我們聯絡。';

// The error page is its own chunk, fetched only when a page fails: no first load carries it.
const LazyErrorPage = lazy(() => import('./error-page.tsx').then((m) => ({ default: m.ErrorPage })));
const LazyNotFoundPage = lazy(() => import('./error-page.tsx').then((m) => ({ default: m.NotFoundPage })));

function ErrorPage(props: ComponentProps<typeof LazyErrorPage>) {
  return (
    <Suspense fallback={<div className="min-h-[60vh]" />}>
      <LazyErrorPage {...props} />
    </Suspense>
  );
}

function NotFoundPage({ path }: { path: string }) {
  return (
    <Suspense fallback={<div className="min-h-[60vh]" />}>
      <LazyNotFoundPage path={path} />
    </Suspense>
  );
}

/**
 * Shown when a page's code could not be loaded even after the one automatic reload
 * (docs/product-rules.md#http-behaviour). Built in, not loaded: the network just failed us.
 */
export function ChunkFailedPage() {
  return (
    <Container className="flex min-h-[60vh] flex-col items-center justify-center gap-4 py-16 text-center">
      <p className="tabular font-serif text-6xl font-semibold text-tea" data-testid="error-status">
        500
      </p>
      <p className="text-sm tracking-wide text-ink-muted" data-testid="error-status-message">
        Internal Server Error
      </p>
      <h1 className="text-xl font-semibold tracking-wide text-ink">頁面暫時無法載入</h1>
      <p className="max-w-md text-ink-muted">{RELOAD_HINT}</p>
      <button type="button" onClick={() => window.location.reload()} className={buttonClass('primary')}>
        重新載入
      </button>
    </Container>
  );
}

/** The zh-TW message of an error answer's body (`{ error: { message } }`, or plain text), if any. */
function messageOf(data: unknown): string | undefined {
  if (typeof data === 'string')
    return data.trim() && data.length <= 300 && !/^\s*</.test(data) ? data.trim() : undefined;
  const message = (data as { error?: { message?: unknown } } | null)?.error?.message;
  return typeof message === 'string' ? message : undefined;
}

interface Described {
  status?: number;
  message?: string;
}

/**
 * What went wrong, as the error page tells it: a thrown answer or API error keeps its own status
 * and message; a page whose code could not be loaded is the spec's server error; anything else
 * was thrown by code running in the browser, which is no server's status.
 */
export function describeRouteError(error: unknown): Described {
  if (isRouteErrorResponse(error))
    return { status: error.status, message: messageOf(error.data) ?? (error.statusText || undefined) };
  if (error instanceof ApiError)
    return error.status > 0 ? { status: error.status, message: error.message } : { message: error.message };
  if (error instanceof ChunkLoadError) return { status: 500 };
  return {};
}

/** Each route's error element: the not-found page for 404, else the real status and message. */
export function RouteError() {
  const error = useRouteError();
  const location = useLocation();
  const { status, message } = describeRouteError(error);
  if (status === 404) return <NotFoundPage path={location.pathname} />;
  if (import.meta.env.DEV) console.error(error);
  const retry = () => window.location.reload();
  if (status === undefined) {
    return (
      <ErrorPage
        description={message ?? `這個頁面出了點問題，暫時無法顯示。${RELOAD_HINT}`}
        onRetry={retry}
      />
    );
  }
  if (status >= 500) {
    return (
      <ErrorPage
        status={status}
        description={message ?? `頁面發生錯誤，暫時無法顯示。${RELOAD_HINT}`}
        onRetry={retry}
      />
    );
  }
  return (
    <ErrorPage
      status={status}
      description={message ?? '這個頁面無法顯示。您可以回到首頁，或到商城看看最新的茶品。'}
    />
  );
}

/** The catch-all route: a path that matches no route (docs/product-rules.md#routes-and-guards: 404 for everyone). */
export function NotFoundRoute() {
  const location = useLocation();
  return <NotFoundPage path={location.pathname} />;
}
