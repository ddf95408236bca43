import { BRAND } from '@shop/shared/brand';
import { escapeHtml } from '../../lib/sandbox-page.ts';

/** The page behind a marketing mail's unsubscribe link: plain HTML in the shop's colours, no script. */

const STYLE = `:root{color-scheme:light}
body{margin:0;min-height:100dvh;display:flex;align-items:center;justify-content:center;background:#f7f3ec;color:#1f2a24;font-family:"PingFang TC","Noto Sans TC","Noto Sans CJK TC","Microsoft JhengHei",system-ui,sans-serif;font-size:16px;line-height:1.7}
main{box-sizing:border-box;width:100%;max-width:34rem;padding:40px 20px}
.card{background:#fff;border:1px solid #e3dcd0;border-radius:12px;padding:28px 24px}
.brand{display:flex;align-items:center;gap:10px;margin:0 0 24px;font-family:"Songti TC","Noto Serif TC","Noto Serif CJK TC",serif;font-size:1.25rem;letter-spacing:.08em;color:#2e5039}
h1{margin:0 0 16px;font-family:"Songti TC","Noto Serif TC","Noto Serif CJK TC",serif;font-size:1.625rem;font-weight:600;line-height:1.4}
p{margin:0 0 16px}.muted{color:#5b665f;font-size:.9375rem}
button{min-height:48px;width:100%;padding:0 24px;border:0;border-radius:8px;background:#3f6b4f;color:#fff;font-size:1rem;font-weight:600;letter-spacing:.06em;cursor:pointer;font-family:inherit}
button:hover{background:#2e5039}button:focus-visible{outline:3px solid #c9a76a;outline-offset:2px}
a{color:#3f6b4f;text-underline-offset:4px}
@media (min-width:600px){.card{padding:36px 40px}button{width:auto}}`;

export type UnsubscribePageState =
  /** A signed link, opened (GET): asks for the click that unsubscribes. */
  | { kind: 'ask'; action: string; alreadyOff: boolean }
  /** Unsubscribed (POST). */
  | { kind: 'done'; memberUrl: string }
  /** A link we did not sign, or a form that was not the one-click one. */
  | { kind: 'refused'; reason: 'token' | 'body'; memberUrl: string };

export function unsubscribePage(state: UnsubscribePageState): string {
  const body =
    state.kind === 'ask'
      ? `<h1>取消訂閱新品與優惠通知</h1>
${state.alreadyOff ? '<p>您目前沒有訂閱新品與優惠通知，不會收到這類信件。</p>' : '<p>按下按鈕後，我們就不會再寄新品、優惠與購物車提醒給您。</p>'}
<p class="muted">訂單成立、付款、出貨等與訂單有關的通知不受影響，仍會照常寄出。</p>
<form method="post" action="${escapeHtml(state.action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">${state.alreadyOff ? '確認取消訂閱' : '取消訂閱'}</button></form>`
      : state.kind === 'done'
        ? `<h1>已為您取消訂閱</h1>
<p>之後不會再收到新品、優惠與購物車提醒的信件。訂單相關的通知仍會照常寄出。</p>
<p class="muted">改變心意的話，可以登入<a href="${escapeHtml(state.memberUrl)}">會員中心</a>，在「會員資料」重新開啟。</p>`
        : state.reason === 'token'
          ? `<h1>這個取消訂閱連結無效</h1>
<p>連結可能不完整或被改動過，所以沒有做任何變更。</p>
<p class="muted">請從信中的連結重新開啟，或登入<a href="${escapeHtml(state.memberUrl)}">會員中心</a>，在「會員資料」關閉新品與優惠通知。</p>`
          : `<h1>沒有完成取消訂閱</h1>
<p>請回到取消訂閱頁面，按下「取消訂閱」按鈕。</p>`;
  return `<!doctype html>
<html lang="zh-Hant-TW"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="#F7F3EC"><meta name="robots" content="noindex"><meta name="referrer" content="no-referrer">
<title>取消訂閱｜${escapeHtml(BRAND.name)}</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"><style>${STYLE}</style></head>
<body><main><div class="card">
<p class="brand"><img src="/favicon.svg" alt="" width="32" height="32">${escapeHtml(BRAND.name)}</p>
${body}
</div></main></body></html>`;
}
