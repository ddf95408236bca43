import type { FastifyInstance } from 'fastify';
import type { OrderDeps } from './service.ts';

/** The order service's dependencies, from the app's plugins. */
export function orderDeps(app: FastifyInstance): OrderDeps {
  return {
    db: app.db,
    mailer: app.mailer,
    events: app.events,
    discounts: app.discounts,
    publicUrl: app.config.publicUrl,
    gateway: { ...app.config.ecpay, publicUrl: app.config.publicUrl },
  };
}
