import type { MaintenanceStatus } from '@shop/shared/site';
import { BRAND } from '@shop/shared/brand';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';
import { escapeHtml } from '../../lib/sandbox-page.ts';

/** How often the maintenance page loads itself again, so the shop comes back without a click. */
export const MAINTENANCE_REFRESH_SECONDS = 60;

/** Seconds to tell clients to wait: until the announced end (at least a minute), else an hour. */
export function maintenanceRetryAfter(status: MaintenanceStatus, now = Date.now()): number {
  return status.endsAt ? Math.max(60, Math.ceil((Date.parse(status.endsAt) - now) / 1000)) : 3600;
}

/**
 * The built app's stylesheets, taken from its index.html: the page below reads the brand's colours
 * and fonts from them (theme.css), with the same values as fallbacks when the app is not built.
 */
export function stylesheetLinks(indexHtml: string | null): string {
  return indexHtml?.match(/<link\b[^>]*rel="stylesheet"[^>]*>/g)?.join('') ?? '';
}

const STYLE = `:root{color-scheme:light}
body{margin:0;min-height:100dvh;display:flex;align-items:center;justify-content:center;background:var(--color-paper,#f7f3ec);color:var(--color-ink,#1f2a24);font-family:var(--font-sans,"PingFang TC","Noto Sans TC","Noto Sans CJK TC","Microsoft JhengHei",system-ui,sans-serif);font-size:16px;line-height:1.7}
main{box-sizing:border-box;width:100%;max-width:36rem;padding:48px 20px;text-align:center}
.brand{display:inline-flex;align-items:center;gap:10px;margin:0 0 32px;font-family:var(--font-serif,"Songti TC","Noto Serif TC","Noto Serif CJK TC",serif);font-size:1.25rem;letter-spacing:.08em}
h1{margin:0 0 16px;font-family:var(--font-serif,"Songti TC","Noto Serif TC","Noto Serif CJK TC",serif);font-size:2rem;font-weight:600;line-height:1.35}
p{margin:0 0 16px;text-wrap:balance}.muted{color:var(--color-ink-muted,#5b665f);font-size:.9375rem}.nowrap{white-space:nowrap}
.ends{display:inline-block;margin:8px 0 24px;padding:10px 18px;border-radius:8px;background:var(--color-surface,#fff);border:1px solid var(--color-line,#e3dcd0)}
.ends strong{font-variant-numeric:tabular-nums;font-weight:600}
a{color:var(--color-tea,#3f6b4f);text-underline-offset:4px}a:hover{color:var(--color-tea-dark,#2e5039)}
hr{width:64px;margin:32px auto;border:0;border-top:1px solid var(--color-line,#e3dcd0)}`;

/**
 * The page every shopper's page request gets while the shop is closed (status 503, Retry-After):
 * plain HTML, no script and no shop navigation, since every link into the shop would only lead
 * here again. It says what is happening, when the shop expects to be back and how to reach the
 * shop meanwhile (mail and phone work), and loads itself again every minute: when maintenance ends,
 * the shopper is on the page they asked for. `next` is that page when an open page was sent to
 * /maintenance (see `maintenanceNext`): the refresh loads it instead.
 */
export function maintenancePage(
  status: MaintenanceStatus,
  stylesheets = '',
  next: string | null = null,
): string {
  const ends = status.endsAt
    ? `<p class="ends" data-testid="maintenance-ends">預計恢復時間：<strong>${escapeHtml(formatTaipeiDateTime(status.endsAt))}</strong></p>`
    : '';
  return `<!doctype html>
<html lang="zh-Hant-TW"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="#F7F3EC"><meta name="robots" content="noindex"><meta http-equiv="refresh" content="${MAINTENANCE_REFRESH_SECONDS}${next ? `;url=${escapeHtml(next)}` : ''}">
<title>系統維護中｜${escapeHtml(BRAND.name)}</title><link rel="icon" href="/favicon.svg" type="image/svg+xml">${stylesheets}<style>${STYLE}</style></head>
<body><main>
<p class="brand"><img src="/favicon.svg" alt="" width="36" height="36">${escapeHtml(BRAND.name)}</p>
<h1>系統維護中</h1>
<p>${escapeHtml(status.message)}</p>
${ends}
<p class="muted">這個頁面每分鐘會自動重新整理，恢復營業後就會顯示您要看的頁面，不需要重新輸入網址。</p>
<hr>
<p class="muted">如有急事，請來信 <a href="mailto:${escapeHtml(BRAND.email)}">${escapeHtml(BRAND.email)}</a>，<br>或於<span class="nowrap">${escapeHtml(BRAND.serviceHours)}</span> 來電 <a class="nowrap" href="tel:${escapeHtml(BRAND.phone.replaceAll('-', ''))}">${escapeHtml(BRAND.phone)}</a>。</p>
</main></body></html>`;
}

/**
 * The page to go back to from `/maintenance?next=…`: a path of the shop's own pages (never another
 * site, never /maintenance itself), with its query; null for anything else.
 */
export function maintenanceNext(next: unknown, isShopPage: (pathname: string) => boolean): string | null {
  if (typeof next !== 'string' || !next.startsWith('/') || next.length > 500) return null;
  let url: URL;
  try {
    url = new URL(next, 'http://shop.invalid');
  } catch {
    return null;
  }
  if (url.origin !== 'http://shop.invalid' || url.pathname === '/maintenance' || !isShopPage(url.pathname))
    return null;
  return url.pathname + url.search;
}
