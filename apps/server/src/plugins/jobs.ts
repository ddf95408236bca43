import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import { rows } from '../db/rows.ts';
import type { Db, DbOrTx } from '../db/client.ts';
import type { EventBus } from './events.ts';
import type { Mailer } from './mail.ts';

const SWEEP_EVERY_MS = 30_000;
const BIRTHDAYS_EVERY_MS = 6 * 3600_000;
/** The digest is looked at every 20 minutes; its key lets it out once a day. */
const DIGEST_EVERY_MS = 20 * 60_000;
/** Winning invoices are looked for every 6 hours; the job itself knows which periods are drawn. */
const AWARDS_EVERY_MS = 6 * 3600_000;
/** The card reminder is looked for every minute (its lead time is minutes), the others less often. */
const CARD_REMINDERS_EVERY_MS = 60_000;
const ATM_REMINDERS_EVERY_MS = 10 * 60_000;
const CART_REMINDERS_EVERY_MS = 15 * 60_000;

/**
 * The advisory-lock keys of the scheduled jobs: (JOB_LOCK_CLASS, job number). The class keeps them
 * apart from any other lock taken in the same database (the migration lock uses a single key).
 */
const JOB_LOCK_CLASS = 0x5348; // "SH"
const JOB_NUMBERS = {
  'expire-orders': 1,
  'birthday-coupons': 2,
  'daily-digest': 3,
  'invoice-awards': 4,
  'card-payment-reminders': 5,
  'atm-transfer-reminders': 6,
  'abandoned-cart-reminders': 7,
} as const;
type JobName = keyof typeof JOB_NUMBERS;

/**
 * Background work kept in the database, so it survives restarts: every 30 seconds (and at start)
 * unpaid orders past their deadline expire and give their stock back; at start and every 6 hours
 * members born this month get their birthday coupon, and after a draw the winning invoices are
 * found and their members told; every minute, 10 and 15 minutes the card, ATM and abandoned-cart
 * reminders go out (each claimed once per order or cart, docs/decisions/041).
 *
 * With several instances on one PostgreSQL each run happens on one of them: a run takes a
 * transaction-level advisory lock first and is skipped where another instance holds it. Each job
 * is also safe to run twice (an order changes state once, through a conditional update; a unique
 * index allows one birthday coupon per member and Taipei year), so a run cut short by a crash or a
 * lost connection is simply done again next time.
 */
export interface JobsOptions {
  /** Expires unpaid orders past their deadline through the orders' one door, returning how many (orders'; app.ts wires it in). */
  expireOverdueOrders(deps: {
    db: Db;
    mailer: Mailer;
    events: EventBus;
    publicUrl: string;
    shopNotifyEmail: string;
  }): Promise<number>;
  /** Issues this month's birthday coupons, returning how many (membership's; app.ts wires it in). */
  birthdayCoupons(db: DbOrTx): Promise<number>;
  /** Writes the shop's morning digest once a day, from 08:00 Taipei (orders'; app.ts wires it in). */
  dailyDigest(deps: { db: Db; mailer: Mailer; publicUrl: string; shopNotifyEmail: string }): Promise<boolean>;
  /** After each bimonthly draw, records which invoices won and mails the winners, returning how many (invoices'; app.ts wires it in). */
  invoiceAwards(): Promise<number>;
  /** Reminds unpaid card orders shortly before their hold ends, returning how many (orders'; app.ts wires it in). */
  cardPaymentReminders(deps: ReminderJobDeps): Promise<number>;
  /** Reminds unpaid ATM orders a day before their account closes, returning how many (orders'). */
  atmTransferReminders(deps: ReminderJobDeps): Promise<number>;
  /** Reminds consenting members of carts left alone, returning how many (cart's). */
  abandonedCartReminders(deps: ReminderJobDeps): Promise<number>;
}

/** What a reminder job is given: where to write its mail, the links' base and the unsubscribe key. */
export interface ReminderJobDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  mailLinkSecret: string;
}

export default fp<JobsOptions>(
  async (app, options) => {
    /**
     * Runs `work` unless another instance is running the same job. PGlite belongs to one process,
     * so there the in-process guard is enough (and an open transaction would hold its only
     * connection, which the work itself needs).
     */
    const runOnce = async <T>(
      job: JobName,
      work: () => Promise<T>,
    ): Promise<{ ran: true; result: T } | { ran: false }> => {
      if (app.database.engine === 'pglite') return { ran: true, result: await work() };
      return app.db.transaction(async (tx) => {
        // The lock's transaction sits idle while the work runs on other connections: exempt it from
        // the idle-in-transaction time-out meant for requests.
        await tx.execute(sql`set local idle_in_transaction_session_timeout = 0`);
        const [lock] = rows<{ locked: boolean }>(
          await tx.execute(
            sql`select pg_try_advisory_xact_lock(${JOB_LOCK_CLASS}::int, ${JOB_NUMBERS[job]}::int) as locked`,
          ),
        );
        if (!lock?.locked) return { ran: false as const };
        return { ran: true as const, result: await work() };
      });
    };

    const running = new Map<JobName, Promise<void>>();
    /** One run of a job at a time in this process, once across instances; failures are logged, never thrown. */
    const schedule = (
      job: JobName,
      work: () => Promise<number>,
      done: (n: number) => void,
    ): Promise<void> => {
      const current = running.get(job);
      if (current) return current;
      const run = runOnce(job, work)
        .then((outcome) => {
          if (outcome.ran) done(outcome.result);
          else app.log.debug({ job }, 'job skipped: another instance is running it');
        })
        .catch((error: unknown) =>
          app.log.error({ err: error, job }, 'job failed; it runs again at its next time'),
        )
        .finally(() => running.delete(job));
      running.set(job, run);
      return run;
    };

    const sweep = () =>
      schedule(
        'expire-orders',
        () =>
          options.expireOverdueOrders({
            db: app.db,
            mailer: app.mailer,
            events: app.events,
            publicUrl: app.config.publicUrl,
            shopNotifyEmail: app.config.shopNotifyEmail,
          }),
        (n) => n > 0 && app.log.info({ expired: n }, 'unpaid orders expired; stock returned'),
      );
    const birthdays = () =>
      schedule(
        'birthday-coupons',
        () => options.birthdayCoupons(app.db),
        (n) => n > 0 && app.log.info({ issued: n }, 'birthday coupons issued'),
      );
    const digest = () =>
      schedule(
        'daily-digest',
        async () =>
          Number(
            await options.dailyDigest({
              db: app.db,
              mailer: app.mailer,
              publicUrl: app.config.publicUrl,
              shopNotifyEmail: app.config.shopNotifyEmail,
            }),
          ),
        () => undefined,
      );
    const awards = () =>
      schedule(
        'invoice-awards',
        () => options.invoiceAwards(),
        (n) => n > 0 && app.log.info({ winners: n }, 'winning invoices recorded'),
      );
    const reminderDeps = (): ReminderJobDeps => ({
      db: app.db,
      mailer: app.mailer,
      publicUrl: app.config.publicUrl,
      mailLinkSecret: app.config.mailLinkSecret,
    });
    const cardReminders = () =>
      schedule(
        'card-payment-reminders',
        () => options.cardPaymentReminders(reminderDeps()),
        (n) => n > 0 && app.log.info({ reminded: n }, 'card payment reminders written'),
      );
    const atmReminders = () =>
      schedule(
        'atm-transfer-reminders',
        () => options.atmTransferReminders(reminderDeps()),
        (n) => n > 0 && app.log.info({ reminded: n }, 'ATM transfer reminders written'),
      );
    const cartReminders = () =>
      schedule(
        'abandoned-cart-reminders',
        () => options.abandonedCartReminders(reminderDeps()),
        (n) => n > 0 && app.log.info({ reminded: n }, 'abandoned cart reminders written'),
      );
    app.decorate('sweepExpiredOrders', sweep);
    app.decorate('runReminderJobs', async () => {
      await Promise.all([cardReminders(), atmReminders(), cartReminders()]);
    });
    if (app.config.isTest) return; // tests call sweepExpiredOrders themselves

    const timers: NodeJS.Timeout[] = [];
    app.addHook('onReady', async () => {
      void sweep();
      void birthdays();
      void digest();
      void awards();
      void cardReminders();
      void atmReminders();
      void cartReminders();
      timers.push(
        setInterval(() => void cardReminders(), CARD_REMINDERS_EVERY_MS),
        setInterval(() => void atmReminders(), ATM_REMINDERS_EVERY_MS),
        setInterval(() => void cartReminders(), CART_REMINDERS_EVERY_MS),
        setInterval(() => void sweep(), SWEEP_EVERY_MS),
        setInterval(() => void birthdays(), BIRTHDAYS_EVERY_MS),
        setInterval(() => void digest(), DIGEST_EVERY_MS),
        setInterval(() => void awards(), AWARDS_EVERY_MS),
      );
      for (const timer of timers) timer.unref();
    });
    app.addHook('preClose', async () => {
      for (const timer of timers) clearInterval(timer);
      await Promise.all(running.values());
    });
  },
  { name: 'jobs', dependencies: ['db', 'mail', 'events'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs the unpaid-order sweep now (or joins the run under way); never throws. */
    sweepExpiredOrders(): Promise<unknown>;
    /** Runs the three reminder jobs now (or joins the runs under way), once across instances; never throws. */
    runReminderJobs(): Promise<void>;
  }
}
