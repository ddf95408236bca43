import { isRouteErrorResponse, useLocation, useRouteError } from 'react-router';
import { ApiError } from '../../lib/api-error.ts';
import { ChunkLoadError } from '../../lib/reload-guard.ts';
import { ErrorPage, NotFoundPage, statusMessageFor } from './error-page.tsx';

const RELOAD_HINT = '請重新載入；若問題持續，歡迎與我們聯絡。';

/** Shown when a page's code could not be loaded even after the one automatic reload (docs/product-rules.md#http-behaviour). */
export function ChunkFailedPage() {
  return (
    <ErrorPage
      status={500}
      statusMessage={statusMessageFor(500)}
      description={`頁面發生錯誤，暫時無法顯示。${RELOAD_HINT}`}
      onRetry={() => window.location.reload()}
    />
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
        statusMessage="發生錯誤"
        description={message ?? `這個頁面出了點問題，暫時無法顯示。${RELOAD_HINT}`}
        onRetry={retry}
      />
    );
  }
  if (status >= 500) {
    return (
      <ErrorPage
        status={status}
        statusMessage={statusMessageFor(status)}
        description={message ?? `頁面發生錯誤，暫時無法顯示。${RELOAD_HINT}`}
        onRetry={retry}
      />
    );
  }
  return (
    <ErrorPage
      status={status}
      statusMessage={statusMessageFor(status)}
      description={message ?? '這個頁面無法顯示。您可以回到首頁，或到商城看看最新的茶品。'}
    />
  );
}

/** The catch-all route: a path that matches no route (docs/product-rules.md#routes-and-guards: 404 for everyone). */
export function NotFoundRoute() {
  const location = useLocation();
  return <NotFoundPage path={location.pathname} />;
}
