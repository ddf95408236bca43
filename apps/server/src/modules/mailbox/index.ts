import type { FastifyPluginAsync } from 'fastify';
import { BRAND } from '@shop/shared/brand';
import { NotFoundError } from '../../lib/errors.ts';
import { fromThisMachine } from '../../lib/this-machine.ts';
import { latestMailboxMails, mailboxMail } from '../../plugins/mail.ts';

const escape = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** A mail's extra header fields (List-Unsubscribe on marketing mail), as the receiving app sees them. */
const headerList = (headers: Record<string, string> | undefined) =>
  headers && Object.keys(headers).length > 0
    ? `<dl class="headers">${Object.entries(headers)
        .map(([k, v]) => `<dt>${escape(k)}</dt><dd>${escape(v)}</dd>`)
        .join('')}</dl>`
    : '';

/**
 * The development mailbox: the outbox as a page (/dev/mailbox) and as JSON (/api/dev/mailbox).
 * Registered only outside production, and only useful when no SMTP server is configured. It holds
 * working reset links, so it answers only on this machine: to anyone else it does not exist.
 */
const mailbox: FastifyPluginAsync = async (app) => {
  if (app.config.isProduction) throw new Error('the mailbox must never exist in production');

  app.addHook('onRequest', async (request) => {
    if (!fromThisMachine(request)) throw new NotFoundError('找不到這個頁面。');
  });

  const latest = () => latestMailboxMails(app.db, 50);

  app.get('/api/dev/mailbox', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { mailer: app.mailer.kind, messages: await latest() };
  });

  // One mail as its HTML part renders (the layout a mail app shows).
  app.get('/dev/mailbox/:id', async (request, reply) => {
    const id = Number((request.params as { id: string }).id);
    const mail = Number.isSafeInteger(id) ? await mailboxMail(app.db, id) : null;
    if (!mail) throw new NotFoundError('找不到這封信。');
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(mail.html);
  });

  app.get('/dev/mailbox', async (_request, reply) => {
    const messages = await latest();
    const items = messages
      .map(
        (
          m,
        ) => `<article><header><strong>${escape(m.subject)}</strong><span>收件人：${escape(m.toAddress)}・${m.createdAt.toISOString().replace('T', ' ').slice(0, 16)} UTC</span></header>
${m.meta.link ? `<p><a href="${escape(m.meta.link)}">${escape(m.meta.link)}</a></p>` : ''}${headerList(m.meta.headers)}<p class="note"><a href="/dev/mailbox/${m.id}">以信件版面開啟</a></p><details><summary>信件內容</summary><pre>${escape(m.text)}</pre></details></article>`,
      )
      .join('');
    const note =
      app.mailer.kind === 'smtp' ? '<p class="note">已設定 SMTP_URL，信件會直接寄出，不會留在這裡。</p>' : '';
    // Returned: an async handler that only calls send() ends before the compressor's stream does.
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8')
      .send(`<!doctype html><html lang="zh-Hant-TW"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>開發用信箱｜${BRAND.name}</title>
<style>body{margin:0;background:#F7F3EC;color:#1F2A24;font-family:"PingFang TC","Noto Sans TC",sans-serif;line-height:1.7}main{max-width:760px;margin:0 auto;padding:32px 16px}
h1{font-size:24px;margin:0 0 4px}article{background:#fff;border:1px solid #E3DCD0;border-radius:12px;padding:16px 20px;margin:16px 0}header{display:flex;flex-direction:column}
header span,.note{color:#5B665F;font-size:14px}.headers{font-size:13px;margin:8px 0;display:grid;grid-template-columns:auto 1fr;gap:2px 12px}.headers dt{color:#5B665F}.headers dd{margin:0;word-break:break-all;font-family:monospace}a{color:#3F6B4F;word-break:break-all}pre{white-space:pre-wrap;font-size:14px}</style></head>
<body><main><h1>開發用信箱</h1><p class="note">沒有設定 SMTP_URL 時，系統寄出的信會保存在這裡（最新 50 封）。正式環境不會有這個頁面。</p>${note}
${items || '<p>目前沒有信件。</p>'}</main></body></html>`);
  });
};

export default mailbox;
