import fp from 'fastify-plugin';
import { expireOverdueOrders } from '../modules/orders/service.ts';
import { issueBirthdayCoupons } from '../modules/membership/service.ts';

const SWEEP_EVERY_MS = 30_000;

/**
 * Background work kept in the database, so it survives restarts: every 30 seconds (and at start)
 * unpaid orders past their deadline expire and give their stock back. Several instances may run
 * it at once: each order changes state once, through a conditional update.
 */
export default fp(
  async (app) => {
    let running: Promise<unknown> | null = null;
    const sweep = () => {
      running ??= expireOverdueOrders({ db: app.db, mailer: app.mailer, events: app.events, publicUrl: app.config.publicUrl })
        .then((n) => n > 0 && app.log.info({ expired: n }, 'unpaid orders expired; stock returned'))
        .catch((error: unknown) => app.log.error({ err: error }, 'order expiry sweep failed'))
        .finally(() => (running = null));
      return running;
    };
    app.decorate('sweepExpiredOrders', sweep);
    if (app.config.isTest) return; // tests call sweepExpiredOrders themselves
    let timer: NodeJS.Timeout | undefined;
    let birthdays: NodeJS.Timeout | undefined;
    // Birthday-month coupons: at start, then every 6 hours (issuing twice is a no-op).
    const birthdayRun = () =>
      issueBirthdayCoupons(app.db)
        .then((n) => n > 0 && app.log.info({ issued: n }, 'birthday coupons issued'))
        .catch((error: unknown) => app.log.error({ err: error }, 'birthday coupons failed'));
    app.addHook('onReady', async () => {
      void sweep();
      void birthdayRun();
      timer = setInterval(() => void sweep(), SWEEP_EVERY_MS);
      timer.unref();
      birthdays = setInterval(() => void birthdayRun(), 6 * 3600_000);
      birthdays.unref();
    });
    app.addHook('preClose', async () => {
      clearInterval(timer);
      clearInterval(birthdays);
      await running;
    });
  },
  { name: 'jobs', dependencies: ['db', 'mail', 'events'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    sweepExpiredOrders(): Promise<unknown>;
  }
}
