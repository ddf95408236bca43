import fp from 'fastify-plugin';
import { expireOverdueOrders } from '../modules/orders/service.ts';

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
    app.addHook('onReady', async () => {
      void sweep();
      timer = setInterval(() => void sweep(), SWEEP_EVERY_MS);
      timer.unref();
    });
    app.addHook('preClose', async () => {
      clearInterval(timer);
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
