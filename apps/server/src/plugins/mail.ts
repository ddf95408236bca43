import fp from 'fastify-plugin';
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { DbOrTx } from '../db/client.ts';
import { mailOutbox, outboxMessages } from '../db/schema.ts';
import { withShopFacts, type ShopFacts } from '../lib/mail-layout.ts';
import { PermanentDeliveryError, enqueueOutbox, type OutboxEntry } from './outbox.ts';

export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly html: string;
  readonly text: string;
  /** Where a reply goes when it is not the shop's own address (a contact message: the sender). */
  readonly replyTo?: string | undefined;
  /**
   * Extra header fields, for marketing mail only: `List-Unsubscribe` and `List-Unsubscribe-Post`
   * (RFC 8058). Transactional mail carries none.
   */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** The mail's main link and kind, logged and shown in the dev mailbox. */
  readonly meta?: { link?: string; kind?: string };
}

export interface Mailer {
  /** `mailbox`: no SMTP server; mail is kept in the database and read at /dev/mailbox. */
  readonly kind: 'smtp' | 'mailbox';
  /**
   * Writes the mail to the outbox in the caller's transaction: it is sent once the change commits,
   * retried until it is, and never sent for a change that rolled back. `key` keeps a mail that
   * could be asked for twice (a repeated notice, a daily digest) to one.
   */
  enqueue(db: DbOrTx, message: MailMessage, key?: string): Promise<void>;
  /** The same for a mail that follows no change of its own (a resent link): enqueued now, sent next. */
  queue(message: MailMessage, key?: string): Promise<void>;
  /** Wakes the outbox worker after a commit that enqueued mail. */
  flush(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

/** SMTP connections kept open per instance (nodemailer's pool). */
const SMTP_CONNECTIONS = 10;

/** The outbox entry of a mail (exported for the code that enqueues a mail with other work). */
export function mailEntry(message: MailMessage, key?: string): OutboxEntry {
  return {
    kind: 'mail',
    key: key && mailKey(key),
    payload: { ...message },
    summary: `${message.to}：${message.subject}`,
  };
}

/** The outbox key of a mail enqueued with `key`. */
export const mailKey = (key: string) => `mail:${key}`;

/** A nodemailer failure that another try will not mend: the receiving server refused the address. */
function permanent(error: unknown): boolean {
  const e = error as { responseCode?: number; command?: string };
  return typeof e.responseCode === 'number' && e.responseCode >= 500 && /^RCPT/i.test(e.command ?? '');
}

/**
 * Mail is delivered by the outbox worker (plugins/outbox.ts): through SMTP (nodemailer) when
 * SMTP_URL is set; otherwise (never in production) into the dev mailbox table, its link printed in
 * the log and listed at /dev/mailbox. Every message carries a Message-ID made from its outbox key,
 * the same on every try, so a receiving server or client can tell a repeat from a new mail.
 */
export interface MailOptions {
  /** The shop's facts for every mail's footer as they are now (the owner's settings; app.ts wires it in). */
  shopFacts?: () => ShopFacts;
}

export default fp<MailOptions>(
  async (app, options) => {
    let deliver: (m: MailMessage, messageId: string) => Promise<void>;
    let kind: Mailer['kind'];
    const host = new URL(app.config.publicUrl).hostname || 'localhost';
    if (app.config.smtpUrl) {
      // Time-outs well inside the outbox lease, so a stalled server fails the try rather than let a
      // second worker send the same mail while this one still waits. Pooled: a few connections
      // kept open and reused (a new one for each mail gave about 9 mails/s), each for at most 100
      // mails; the outbox delivers up to 20 mails at once, and they queue for a free connection.
      const transport = nodemailer.createTransport({
        url: app.config.smtpUrl,
        pool: true,
        maxConnections: SMTP_CONNECTIONS,
        maxMessages: 100,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      });
      kind = 'smtp';
      deliver = async (m, messageId) => {
        try {
          await transport.sendMail({
            from: app.config.mailFrom,
            to: m.to,
            replyTo: m.replyTo,
            subject: m.subject,
            html: m.html,
            text: m.text,
            messageId,
            ...(m.headers ? { headers: { ...m.headers } } : {}),
          });
        } catch (error) {
          if (permanent(error))
            throw new PermanentDeliveryError(error instanceof Error ? error.message : String(error));
          throw error;
        }
      };
      app.addHook('onClose', async () => transport.close());
    } else {
      if (app.config.isProduction) throw new Error('SMTP_URL is required in production');
      kind = 'mailbox';
      if (!app.config.isTest)
        app.log.info(
          `mail: no SMTP_URL, so mail goes to the dev mailbox; read it at ${app.config.publicUrl}/dev/mailbox`,
        );
      deliver = async (m) => {
        await app.db.insert(mailOutbox).values({
          toAddress: m.to,
          subject: m.subject,
          html: m.html,
          text: m.text,
          meta: {
            ...(m.meta ?? {}),
            ...(m.replyTo ? { replyTo: m.replyTo } : {}),
            ...(m.headers ? { headers: { ...m.headers } } : {}),
          },
        });
        app.log.info({ to: m.to, link: m.meta?.link }, `mail kept in the dev mailbox: ${m.subject}`);
      };
    }
    app.outbox.handle(
      'mail',
      async (payload, message) => {
        const mail = payload as unknown as MailMessage;
        await deliver(
          options.shopFacts ? withShopFacts(mail, options.shopFacts()) : mail,
          `<${message.key.replace(/[^A-Za-z0-9.-]/g, '.')}@${host}>`,
        );
      },
      { concurrent: true },
    );
    const mailer: Mailer = {
      kind,
      enqueue: (db, message, key) => enqueueOutbox(db, mailEntry(message, key)),
      async queue(message, key) {
        await enqueueOutbox(app.db, mailEntry(message, key));
        app.outbox.kick();
      },
      flush: () => app.outbox.kick(),
    };
    app.decorate('mailer', mailer);
  },
  { name: 'mail', dependencies: ['config', 'db', 'outbox'] },
);

/** The dev mailbox's latest mails, newest first (what `deliver` keeps when no SMTP server is set). */
export async function latestMailboxMails(db: DbOrTx, limit: number) {
  return db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(limit);
}

/**
 * Blanks the delivered and failed mails to an address in the outbox's record (a deleted account):
 * their words and the address. A mail still waiting is left to go out.
 */
export async function forgetMailsTo(db: DbOrTx, address: string): Promise<void> {
  await db
    .update(outboxMessages)
    .set({ payload: { to: '' }, summary: '（寄給已刪除會員的信）' })
    .where(
      and(
        eq(outboxMessages.kind, 'mail'),
        sql`${outboxMessages.payload} ->> 'to' = ${address}`,
        ne(outboxMessages.status, 'pending'),
      ),
    );
}

/** One dev-mailbox mail by its id, or null. */
export async function mailboxMail(db: DbOrTx, id: number) {
  const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id)).limit(1);
  return row ?? null;
}
