import { Link } from 'react-router';
import { buttonClass } from '../ui/button.tsx';
import { Container } from '../ui/page.tsx';
import { paths } from '../../config/paths.ts';

export interface ErrorPageProps {
  /** The HTTP status, when there is one; a crash in the browser has none and shows no number. */
  status?: number;
  /** 'Page Not Found' for 404 (docs/product-rules.md), the status's reason phrase otherwise (kept in English; `statusMessageFor` when absent); 發生錯誤 without a status. */
  statusMessage?: string;
  /** The heading a shopper reads, in zh-TW; by default the status's own (`titleFor`). */
  title?: string;
  /** The spec's message line, e.g. `Page not found: /that/path`. */
  message?: string;
  description: string;
  onRetry?: () => void;
}

// The statuses a page's own load can meet, from this shop or a proxy in front of it (409, 413 and
// 415 answer writes, which show beside their form, never as a page); any other falls back below.
const REASON_PHRASES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Page Not Found',
  408: 'Request Timeout',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

// The heading in the shopper's words; the reason phrase stays beside the number as the status line.
const TITLES: Readonly<Record<number, string>> = {
  400: '網址或資料有誤',
  401: '請先登入',
  403: '沒有權限查看這個頁面',
  404: '找不到這個頁面',
  408: '等候逾時',
  429: '操作太頻繁了',
};

/** The zh-TW heading of the error page for a status. */
export function titleFor(status: number): string {
  return TITLES[status] ?? (status >= 500 ? '伺服器暫時出了狀況' : '無法顯示這個頁面');
}

/** The status line's words for a status: its reason phrase, kept in English like the spec's two. */
export function statusMessageFor(status: number): string {
  return REASON_PHRASES[status] ?? (status >= 500 ? 'Server Error' : 'Client Error');
}

/**
 * The error page (docs/product-rules.md#error-codes): status code, status message, description, a
 * way home. Loaded on demand by route-error.tsx, so no page's first load carries it.
 */
export function ErrorPage({ status, statusMessage, title, message, description, onRetry }: ErrorPageProps) {
  const statusLine = statusMessage ?? (status === undefined ? '發生錯誤' : statusMessageFor(status));
  return (
    <Container className="flex min-h-[60vh] flex-col items-center justify-center gap-5 py-16 text-center">
      <svg
        viewBox="0 0 160 80"
        className="w-40 text-tea/70"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
        aria-hidden="true"
      >
        <path d="M4 70 L44 30 L70 52 L100 18 L156 70" />
        <path d="M20 70 L44 48 L60 62" opacity="0.6" />
        <circle cx="122" cy="20" r="7" className="stroke-amber" />
      </svg>
      {status !== undefined && (
        <div className="flex flex-col items-center gap-1">
          <p className="tabular font-serif text-6xl font-semibold text-tea" data-testid="error-status">
            {status}
          </p>
          <p className="text-sm tracking-wide text-ink-muted" data-testid="error-status-message">
            {statusLine}
          </p>
        </div>
      )}
      <h1 className="text-xl font-semibold tracking-wide text-ink">
        {status === undefined ? statusLine : (title ?? titleFor(status))}
      </h1>
      {message && (
        <p
          className="rounded-md bg-surface px-3 py-1.5 font-mono text-sm break-all text-ink-muted"
          data-testid="error-message"
        >
          {message}
        </p>
      )}
      <p className="max-w-md text-ink-muted">{description}</p>
      <div className="mt-2 flex flex-wrap justify-center gap-3">
        {onRetry && (
          <button type="button" onClick={onRetry} className={buttonClass('primary')}>
            重新載入
          </button>
        )}
        <Link to={paths.landing()} className={buttonClass(onRetry ? 'secondary' : 'primary')}>
          回到首頁
        </Link>
        <Link to={paths.mall()} className={buttonClass('ghost')}>
          逛逛商城
        </Link>
      </div>
    </Container>
  );
}

export function NotFoundPage({ path }: { path: string }) {
  return (
    <ErrorPage
      status={404}
      message={`Page not found: ${path}`}
      description="這個頁面不存在，可能是網址打錯了，或頁面已經移除。您可以回到首頁，或到商城看看最新的茶品。"
    />
  );
}
