import { isRouteErrorResponse, useLocation, useRouteError } from 'react-router';
import { ErrorPage, NotFoundPage, statusMessageFor } from './error-page.tsx';

function ServerErrorPage() {
  return (
    <ErrorPage
      status={500}
      statusMessage={statusMessageFor(500)}
      description="頁面發生錯誤，暫時無法顯示。請重新載入；若問題持續，歡迎與我們聯絡。"
      onRetry={() => window.location.reload()}
    />
  );
}

/** Shown when a page's code could not be loaded even after the one automatic reload (spec §8). */
export function ChunkFailedPage() {
  return <ServerErrorPage />;
}

/** Each route's error element: 404 responses show the not-found page, anything else the 500 page. */
export function RouteError() {
  const error = useRouteError();
  const location = useLocation();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage path={location.pathname} />;
  if (import.meta.env.DEV) console.error(error);
  return <ServerErrorPage />;
}

/** The catch-all route: a path that matches no route (spec §2, clarification 3). */
export function NotFoundRoute() {
  const location = useLocation();
  return <NotFoundPage path={location.pathname} />;
}
