import type { FastifyInstance } from 'fastify';
import { formPoster } from '../../lib/form-post.ts';
import { shipParcel } from '../logistics/shipments.ts';
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
    shipParcel: (order) => shipParcel({ db: app.db, settings: app.config.logistics, sender: app.config.logistics.sender, publicUrl: app.config.publicUrl, post: formPoster(app, app.config.publicUrl) }, order),
  };
}
