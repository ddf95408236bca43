import { CVS_BRAND_NAMES, cvsStoreLabel, type CvsBrandCode } from '@shop/shared/checkout';
import { formatTwd } from '@shop/shared/money';
import { type ShipmentEvent } from '@shop/shared/order-status';
import type { AdvanceOrderBody, OrderDetail } from '@shop/shared/orders';
import type { Tx } from '../../db/client.ts';
import { BadRequestError, ConflictError } from '../../lib/errors.ts';
import { mapChoice } from '../logistics/map.ts';
import * as repo from './repo.ts';
import { type OrderDeps, type ChangeDeps } from './order-deps.ts';
import { ownOrder, needsNewStore, getOrder } from './read-models.ts';
import { shipmentEventRefusal, advanceOrder } from './lifecycle.ts';

/**
 * A parcel's steps reported by the logistics provider, and the buyer choosing a new pickup store
 * when theirs closed: both add shipment events through the one door (lifecycle.ts).
 */

/**
 * The buyer picks a new store for a parcel whose store closed: a store of the same chain, chosen
 * on the map (its trip's token), sent to ECPay first; the order then names it, with a shipment
 * event saying so.
 */
export async function changePickupStore(
  deps: OrderDeps,
  userId: string,
  orderNo: string,
  token: string,
): Promise<OrderDetail> {
  const order = await ownOrder(deps.db, userId, orderNo);
  if (!needsNewStore(order, await repo.eventsOf(deps.db, order.id)))
    throw new ConflictError('這筆訂單不需要更換取件門市。', 'invalid-transition');
  const store = await mapChoice({ db: deps.db }, userId, token);
  if (store.brand !== order.shipping.cvsBrand) {
    const chain = CVS_BRAND_NAMES[order.shipping.cvsBrand as CvsBrandCode] ?? order.shipping.cvsBrand ?? '';
    throw new BadRequestError(`包裹只能改到同一家超商（${chain}）的門市，請重新選擇。`, {
      storeId: `請選擇${chain}的門市`,
    });
  }
  if (!deps.changeParcelStore)
    throw new ConflictError('這筆訂單的門市需由客服協助更換，請與我們聯絡。', 'invalid-transition');
  await deps.changeParcelStore(order.id, store.id);
  const shipping = {
    ...order.shipping,
    storeId: store.id,
    storeName: store.name,
    storeAddress: store.address,
    storePhone: store.phone,
    storeOutlying: store.outlying,
  };
  await advanceOrder(
    deps,
    orderNo,
    {
      shipmentEvent: 'store_changed',
      note: `新取件門市：${cvsStoreLabel(store.brand, store.name)}（${store.address}）`,
    },
    (tx) => repo.setShipping(tx, order.id, shipping),
  );
  return getOrder(deps.db, userId, orderNo);
}

/** Where a parcel is, as the logistics provider reports it (logistics/status-codes.ts). */
export type ParcelProgress =
  | 'handed_over'
  | 'in_transit'
  | 'arrived_at_store'
  | 'collected'
  | 'not_collected'
  | 'refused'
  | 'returned'
  | 'store_closed';

const PROGRESS_EVENTS: Readonly<Record<ParcelProgress, ShipmentEvent | null>> = {
  handed_over: 'picked_up',
  in_transit: 'in_transit',
  arrived_at_store: 'arrived_at_store',
  collected: 'delivered',
  not_collected: null,
  refused: null,
  returned: null,
  store_closed: 'store_closed',
};

/** What the order's history says of a parcel on its way back. */
function returnNote(step: ParcelProgress, method: string): string {
  if (step === 'refused') return '收件人拒收，包裹退回中';
  if (step === 'not_collected')
    return method === 'cvs' ? '買家逾期未取貨，包裹退回中' : '包裹逾期未取，退回中';
  return '包裹已退回';
}

/**
 * A parcel step reported by the logistics provider, through the same door as staff's shipment
 * events: a shipped order gets the event (collected: delivered, with the cash the store took for
 * cash on delivery said on it), and `inTransaction` runs in the order's transaction. Answers false,
 * changing nothing, when the order is not (or no longer) shipped, or the step does not fit it.
 */
export async function recordParcelProgress(
  deps: ChangeDeps,
  orderId: string,
  step: ParcelProgress,
  collected: number,
  inTransaction: (tx: Tx) => Promise<void>,
): Promise<boolean> {
  const order = await repo.findById(deps.db, orderId);
  if (!order || order.status !== 'shipped') return false;
  const event = PROGRESS_EVENTS[step];
  if (event && shipmentEventRefusal(order, event)) return false;
  // The same step reported again (at the store once more, ECPay's 2098 re-delivery to the same
  // store) is no news: the parcel's own history keeps the notice, the order gets no second event or mail.
  if (
    event &&
    (await repo.eventsOf(deps.db, order.id)).findLast((e) => e.kind === 'shipment')?.shipmentEvent === event
  )
    return false;
  const collectedNote =
    collected > 0
      ? `買家已到店取貨，門市代收貨款 ${formatTwd(collected)}`
      : order.shipping.method === 'cvs'
        ? '買家已到店取貨'
        : undefined;
  const move: AdvanceOrderBody = event
    ? { shipmentEvent: event, ...(step === 'collected' && collectedNote ? { note: collectedNote } : {}) }
    : // Not collected, refused, or back with the sender: the order waits for staff to reship or refund.
      { status: 'returned', note: returnNote(step, order.shipping.method) };
  try {
    await advanceOrder(deps, order.orderNo, move, (tx) => inTransaction(tx));
    return true;
  } catch (error) {
    // Moved meanwhile (delivered by staff, say): the notice is kept on its own.
    if (error instanceof ConflictError) return false;
    throw error;
  }
}
