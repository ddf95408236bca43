import fp from 'fastify-plugin';
import nodemailer from 'nodemailer';
import { mailOutbox } from '../db/schema.ts';

export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly html: string;
  readonly text: string;
  /** The mail's main link and kind, logged and shown in the dev mailbox. */
  readonly meta?: { link?: string; kind?: string };
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
  /** Sends without making the caller wait; failures are logged. */
  queue(message: MailMessage): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

/**
 * SMTP through nodemailer when SMTP_URL is set. Otherwise (never in production) each mail is
 * stored in the outbox table, its link printed in the log, and listed at /dev/mailbox.
 */
export default fp(
  async (app) => {
    let deliver: (m: MailMessage) => Promise<void>;
    let kind: Mailer['kind'];
    if (app.config.smtpUrl) {
      const transport = nodemailer.createTransport(app.config.smtpUrl);
      kind = 'smtp';
      deliver = async (m) => {
        await transport.sendMail({ from: app.config.mailFrom, to: m.to, subject: m.subject, html: m.html, text: m.text });
      };
      app.addHook('onClose', async () => transport.close());
    } else {
      if (app.config.isProduction) throw new Error('SMTP_URL is required in production');
      kind = 'outbox';
      if (!app.config.isTest) app.log.info(`mail: no SMTP_URL, so mail goes to the outbox; read it at ${app.config.publicUrl}/dev/mailbox`);
      deliver = async (m) => {
        await app.db.insert(mailOutbox).values({ toAddress: m.to, subject: m.subject, html: m.html, text: m.text, meta: m.meta ?? {} });
        app.log.info({ to: m.to, link: m.meta?.link }, `mail kept in outbox: ${m.subject}`);
      };
    }
    const mailer: Mailer = {
      kind,
      send: deliver,
      queue(message) {
        deliver(message).catch((error: unknown) => app.log.error({ err: error, to: message.to, subject: message.subject }, 'mail could not be sent'));
      },
    };
    app.decorate('mailer', mailer);
  },
  { name: 'mail', dependencies: ['config', 'db'] },
);
