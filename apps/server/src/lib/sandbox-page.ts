/**
 * The look of the built-in stand-ins for ECPay (the payment and the logistics sandboxes): plain
 * server-rendered pages, in ECPay's blue rather than the shop's colours, each with a notice that it
 * is a test gateway. No inline script (the shop's CSP): a page that must post on by itself loads
 * /sandbox/ecpay/auto-submit.js.
 */

import type { FastifyReply } from 'fastify';

export const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export function hiddenFields(fields: Readonly<Record<string, string>>): string {
  return Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('');
}

const STYLE = `body{margin:0;background:#eef1f4;color:#1c2430;font-family:"PingFang TC","Noto Sans TC",sans-serif;line-height:1.7}
main{max-width:560px;margin:32px auto;padding:0 16px}main.wide{max-width:880px}.card{background:#fff;border:1px solid #d5dbe3;border-radius:12px;padding:24px}
.test{background:#fff4d6;border:1px solid #e0b84d;color:#6b4e00;border-radius:8px;padding:10px 14px;margin-bottom:16px;font-weight:600}
h1{font-size:20px;margin:0 0 12px}dl{display:grid;grid-template-columns:auto 1fr;gap:6px 16px;margin:16px 0}dt{color:#5d6b7a}dd{margin:0}
.amount{font-size:28px;font-weight:700}.row{display:flex;gap:12px;flex-wrap:wrap;margin-top:20px}
button{min-height:44px;padding:0 20px;border-radius:8px;border:1px solid #1f5fa8;background:#1f5fa8;color:#fff;font-size:16px;cursor:pointer}
button.secondary{background:#fff;color:#a02a2a;border-color:#a02a2a}.account{font-family:monospace;font-size:22px;letter-spacing:2px}
table{width:100%;border-collapse:collapse}td,th{padding:8px;border-bottom:1px solid #e3e7ec;text-align:left;vertical-align:top}
input[type=search]{min-height:44px;flex:1;min-width:0;padding:0 12px;border:1px solid #b8c2cf;border-radius:8px;font-size:16px}
.muted{color:#5d6b7a;font-size:14px}.stores{list-style:none;margin:16px 0 0;padding:0}.stores li{border-top:1px solid #e3e7ec;padding:12px 0}
.store{display:flex;gap:12px;align-items:center;justify-content:space-between;flex-wrap:wrap}.store strong{display:block}
.tag{display:inline-block;margin-left:6px;padding:0 8px;border-radius:999px;background:#fde8e8;color:#a02a2a;font-size:13px}
fieldset{border:1px solid #d5dbe3;border-radius:8px;margin:16px 0;padding:8px 16px 16px}legend{font-weight:600;padding:0 6px}
form>label,fieldset>label{display:block;margin-top:12px}label.choice{display:flex;gap:8px;align-items:center;min-height:44px;margin-top:0;flex-wrap:wrap}
input[type=text],input[type=email],select{display:block;box-sizing:border-box;width:100%;min-height:44px;margin-top:4px;padding:0 12px;border:1px solid #b8c2cf;border-radius:8px;font-size:16px;background:#fff}
.mobile main{margin:0 auto;padding:12px}.mobile .card{padding:16px}.mobile .store button{width:100%}`;

export interface SandboxPage {
  /** 付款, 物流 or 登入: which gateway this page stands in for. */
  readonly gateway: '付款' | '物流' | '登入';
  readonly title: string;
  readonly body: string;
  /** Posts the page's first form as soon as it loads. */
  readonly autoSubmit?: boolean;
  readonly wide?: boolean;
  /** ECPay's phone layout (the store map's Device 1). */
  readonly mobile?: boolean;
}

export function sandboxPage({
  gateway,
  title,
  body,
  autoSubmit = false,
  wide = false,
  mobile = false,
}: SandboxPage): string {
  const notice =
    gateway === '付款'
      ? '這是測試用付款閘道（ECPay 協定相容），不會實際扣款。'
      : gateway === '物流'
        ? '這是測試用物流閘道（ECPay 協定相容），門市與貨態都是模擬的。'
        : '這是測試用登入服務（OpenID Connect 協定相容），身分都是模擬的。';
  return `<!doctype html><html lang="zh-Hant-TW"${mobile ? ' class="mobile"' : ''}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}｜測試用${gateway}閘道</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"><style>${STYLE}</style></head><body><main${wide ? ' class="wide"' : ''}>
<p class="test" role="note">${notice}正式環境不會出現這個頁面。</p>
<div class="card">${body}</div></main>${autoSubmit ? '<script src="/sandbox/ecpay/auto-submit.js"></script>' : ''}</body></html>`;
}

/** Sends a sandbox page, never cached. */
export function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}
