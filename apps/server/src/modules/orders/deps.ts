import type { FastifyInstance } from 'fastify';
import { formPoster } from '../../lib/form-post.ts';
import { changeParcelStore, shipParcel, type ShipmentDeps } from '../logistics/shipments.ts';
import type { OrderDeps } from './order-deps.ts';

/** What making and changing ECPay logistics orders needs, from the app's settings. */
export const shipmentDeps = (app: FastifyInstance): ShipmentDeps => ({
  db: app.db,
  settings: app.config.logistics,
  sender: app.config.logistics.sender,
  publicUrl: app.config.publicUrl,
  post: formPoster(app, app.config.publicUrl),
});

/** The order service's dependencies, from the app's plugins. */
export function orderDeps(app: FastifyInstance): OrderDeps {
  return {
    db: app.db,
    mailer: app.mailer,
    events: app.events,
    discounts: app.discounts,
    publicUrl: app.config.publicUrl,
    shopNotifyEmail: app.config.shopNotifyEmail,
    checkCarrier: (kind, code) => app.checkCarrier(kind, code),
    gateway: { ...app.config.ecpay, publicUrl: app.config.publicUrl },
    linePayOffered: app.config.linePay !== undefined,
    shipParcel: (order) => shipParcel(shipmentDeps(app), order),
    changeParcelStore: (orderId, storeId) => changeParcelStore(shipmentDeps(app), orderId, storeId),
    autoParcel: app.config.logistics.autoCreate,
  };
}
