import { BRAND } from '@shop/shared/brand';

export interface MailContent {
  /** Heading and subject line. */
  readonly title: string;
  readonly greeting?: string;
  /**
   * Paragraphs before the button. `{action}` says how to take the action in each part: 「按下方按鈕」
   * in the HTML, 「開啟下方連結」 in the plain text, which has the link written out and no button.
   */
  readonly paragraphs: readonly string[];
  readonly action?: { readonly label: string; readonly url: string };
  /** Small print after the button. */
  readonly notes?: readonly string[];
  /**
   * Marketing mail only: why the reader gets it and the link that unsubscribes them, in the footer
   * (the same link as the List-Unsubscribe header).
   */
  readonly unsubscribeUrl?: string;
}

/**
 * The shop's own facts in every mail's footer: the owner's footer settings when the mail goes out
 * (`withShopFacts`, called by the mail plugin at delivery), the brand's until then.
 */
export interface ShopFacts {
  readonly companyName: string;
  readonly taxId: string;
  readonly address: string;
  readonly phone: string;
  readonly lineUrl: string;
  readonly facebookUrl: string;
  /** The payment and delivery marks' words, e.g. VISA, 7-ELEVEN. */
  readonly marks: readonly string[];
}

/** The brand's own facts: what a mail says until the owner saves theirs (and the footer's default). */
export const BRAND_FACTS: ShopFacts = {
  companyName: BRAND.name,
  taxId: '',
  address: BRAND.address,
  phone: BRAND.phone,
  lineUrl: '',
  facebookUrl: '',
  marks: [],
};

// Where the facts sit in a rendered mail, so delivery can put the current ones in.
const HTML_START = '<!--shop-facts-->';
const HTML_END = '<!--/shop-facts-->';
const TEXT_START = '—— 店家資訊 ——';

function factsHtml(f: ShopFacts): string {
  const link = (href: string, label: string) =>
    `<a href="${escape(href)}" style="color:#3F6B4F;">${escape(label)}</a>`;
  const links = [
    f.lineUrl && link(f.lineUrl, 'LINE 官方帳號'),
    f.facebookUrl && link(f.facebookUrl, 'Facebook 粉絲專頁'),
  ].filter(Boolean);
  return [
    `這封信由系統自動寄出，請勿直接回覆。如需協助，請來信 ${escape(BRAND.email)} 或來電 ${escape(f.phone)}（${escape(BRAND.serviceHours)}）。`,
    [f.companyName, f.taxId && `統一編號 ${f.taxId}`, f.address].filter(Boolean).map(escape).join('・'),
    links.join('・'),
    f.marks.length > 0 ? `付款與配送：${f.marks.map(escape).join('・')}` : '',
  ]
    .filter(Boolean)
    .join('<br>');
}

function factsText(f: ShopFacts): string {
  return [
    TEXT_START,
    `這封信由系統自動寄出，請勿直接回覆。如需協助，請來信 ${BRAND.email} 或來電 ${f.phone}。`,
    [f.companyName, f.taxId && `統一編號 ${f.taxId}`, f.address].filter(Boolean).join('・'),
    f.lineUrl && `LINE 官方帳號：${f.lineUrl}`,
    f.facebookUrl && `Facebook 粉絲專頁：${f.facebookUrl}`,
    f.marks.length > 0 ? `付款與配送：${f.marks.join('・')}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** A rendered mail with the shop's current facts in its footer (a mail without the marks is left as it is). */
export function withShopFacts<M extends { html: string; text: string }>(mail: M, facts: ShopFacts): M {
  const start = mail.html.indexOf(HTML_START);
  const end = mail.html.indexOf(HTML_END);
  const cut = mail.text.lastIndexOf(TEXT_START);
  if (start < 0 || end < start || cut < 0) return mail;
  return {
    ...mail,
    html: mail.html.slice(0, start + HTML_START.length) + factsHtml(facts) + mail.html.slice(end),
    text: mail.text.slice(0, cut) + factsText(facts),
  };
}

const UNSUBSCRIBE_WHY = `您收到這封信，是因為您同意接收${BRAND.name}的新品與優惠通知。`;

const escape = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/**
 * Renders a zh-TW mail in the brand's look: HTML with inline styles (mail clients ignore
 * stylesheets) and a plain-text part with the same words and the link written out.
 */
export function renderMail(content: MailContent): { subject: string; html: string; text: string } {
  const subject = `【${BRAND.name}】${content.title}`;
  const htmlParagraphs = content.paragraphs.map((t) => t.replaceAll('{action}', '按下方按鈕'));
  const textParagraphs = content.paragraphs.map((t) => t.replaceAll('{action}', '開啟下方連結'));
  const p = (t: string) =>
    `<p style="margin:0 0 16px;font-size:16px;line-height:1.7;color:#1F2A24;white-space:pre-line;">${escape(t)}</p>`;
  const button = content.action
    ? `<table role="presentation" cellspacing="0" cellpadding="0" style="margin:8px 0 24px;"><tr><td style="border-radius:8px;background:#3F6B4F;">
<a href="${escape(content.action.url)}" style="display:inline-block;padding:12px 28px;font-size:16px;color:#FFFFFF;text-decoration:none;font-weight:600;letter-spacing:1px;">${escape(content.action.label)}</a>
</td></tr></table>
<p style="margin:0 0 16px;font-size:13px;line-height:1.6;color:#5B665F;">如果按鈕無法點選，請複製以下網址到瀏覽器開啟：<br><a href="${escape(content.action.url)}" style="color:#3F6B4F;word-break:break-all;">${escape(content.action.url)}</a></p>`
    : '';
  const notes = (content.notes ?? [])
    .map((n) => `<p style="margin:0 0 8px;font-size:13px;line-height:1.6;color:#5B665F;">${escape(n)}</p>`)
    .join('');
  const html = `<!doctype html><html lang="zh-Hant-TW"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escape(subject)}</title></head>
<body style="margin:0;padding:0;background:#F7F3EC;font-family:'PingFang TC','Noto Sans TC','Microsoft JhengHei',sans-serif;">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="background:#F7F3EC;padding:24px 12px;"><tr><td align="center">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="max-width:560px;background:#FFFFFF;border:1px solid #E3DCD0;border-radius:12px;">
<tr><td style="padding:24px 32px;border-bottom:1px solid #E3DCD0;"><span style="font-family:'Noto Serif TC','Songti TC',serif;font-size:20px;letter-spacing:4px;color:#2E5039;font-weight:600;">${escape(BRAND.name)}</span></td></tr>
<tr><td style="padding:28px 32px 12px;">
<h1 style="margin:0 0 20px;font-size:22px;line-height:1.4;color:#1F2A24;">${escape(content.title)}</h1>
${content.greeting ? p(content.greeting) : ''}${htmlParagraphs.map(p).join('')}${button}${notes}
</td></tr>
<tr><td style="padding:20px 32px;border-top:1px solid #E3DCD0;font-size:12px;line-height:1.6;color:#5B665F;">
${content.unsubscribeUrl ? `${escape(UNSUBSCRIBE_WHY)}不想再收到的話，可以<a href="${escape(content.unsubscribeUrl)}" style="color:#3F6B4F;">取消訂閱</a>。<br>` : ''}${HTML_START}${factsHtml(BRAND_FACTS)}${HTML_END}
</td></tr></table></td></tr></table></body></html>`;
  const text = [
    `${BRAND.name}｜${content.title}`,
    '',
    ...(content.greeting ? [content.greeting, ''] : []),
    ...textParagraphs.flatMap((t) => [t, '']),
    ...(content.action ? [`${content.action.label}：`, content.action.url, ''] : []),
    ...(content.notes ?? []).flatMap((t) => [t]),
    '',
    '——',
    ...(content.unsubscribeUrl
      ? [`${UNSUBSCRIBE_WHY}不想再收到的話，請開啟以下連結取消訂閱：`, content.unsubscribeUrl]
      : []),
    factsText(BRAND_FACTS),
  ].join('\n');
  return { subject, html, text };
}
