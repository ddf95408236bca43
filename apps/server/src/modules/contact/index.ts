import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BRAND } from '@shop/shared/brand';
import { ContactBody, ContactResponse } from '@shop/shared/site';
import { BadRequestError } from '../../lib/errors.ts';
import { renderMail } from '../../lib/mail-layout.ts';
import { enforceLimit } from '../../plugins/rate-limiter.ts';
import { storeMessage } from './service.ts';
import { taipeiDay } from '@shop/shared/taipei-time';

/** A person needs a few seconds to fill the form; faster than this is a script. */
export const MIN_FILL_MS = 3_000;
const HOUR = 3_600_000;

/**
 * POST /api/contact: stored, mailed to the shop, acknowledged to the sender by mail, answered with
 * a reference number. Bots meet a
 * honeypot field and a timing check (no third-party captcha); people meet a rate limit.
 */
const contact: FastifyPluginAsync = async (app) => {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      '/api/contact',
      { schema: { body: ContactBody, response: { 200: ContactResponse } } },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const body = request.body;
        await enforceLimit(app.limiter, `contact:ip:${request.ip}`, { max: 5, windowMs: HOUR });
        const now = Date.now();
        // Reference numbers carry the shop's (Taipei) calendar day; a fake one must look the same.
        const date = taipeiDay(now, '');
        const fake = () => ({ referenceNo: `C${date}${String(now % 100000).padStart(5, '0')}` });
        // A filled honeypot is a bot: answer as if all went well, keep nothing.
        if (body.website.trim() !== '') {
          request.log.info({ ip: request.ip }, 'contact form: honeypot filled, message dropped');
          return fake();
        }
        if (body.startedAt > now || now - body.startedAt < MIN_FILL_MS) {
          throw new BadRequestError('送出得太快了，請確認內容後再按一次送出。', undefined, 'too-fast');
        }
        // The message and its mail to the shop commit together; the mail then leaves through the outbox.
        const referenceNo = await app.db.transaction(async (tx) => {
          const no = await storeMessage(tx, date, {
            name: body.name,
            email: body.email.toLowerCase(),
            phone: body.phone || null,
            subject: body.subject,
            message: body.message,
            jobSlug: body.jobSlug ?? null,
            ip: request.ip,
          });
          await app.mailer.enqueue(tx, {
            to: app.config.shopNotifyEmail,
            // Answering the mail answers the person who wrote.
            replyTo: body.email.toLowerCase(),
            ...renderMail({
              title: `客服來信 ${no}：${body.subject}`,
              paragraphs: [
                `${body.name}（${body.email}${body.phone ? `，${body.phone}` : ''}）來信：`,
                body.message,
                ...(body.jobSlug ? [`應徵職缺：${body.jobSlug}`] : []),
                '直接回覆這封信，就會回到來信者的信箱。',
              ],
            }),
            meta: { kind: 'contact' },
          });
          // The sender hears that it arrived, with the number to quote. Their message is not
          // repeated: the form sends to any address typed, and must not carry a stranger's words.
          await app.mailer.enqueue(tx, {
            to: body.email.toLowerCase(),
            replyTo: app.config.shopNotifyEmail,
            ...renderMail({
              title: `已收到您的來信（${no}）`,
              paragraphs: [
                `${body.name} 您好，謝謝您來信詢問「${body.subject}」。`,
                `我們已收到您的訊息，客服會在 1 個工作天內（${BRAND.serviceHours}）回覆到這個信箱。`,
                `您的來信編號是 ${no}；之後來信或來電時提供這個編號，我們能更快為您處理。`,
              ],
            }),
            meta: { kind: 'contact-received' },
          });
          return no;
        });
        app.mailer.flush();
        return { referenceNo };
      },
    );
};

export default contact;
