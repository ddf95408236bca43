/**
 * Order and payment states (the spec leaves them to us; see the checkout issue). One table of
 * allowed transitions; every change of an order's status goes through `canTransition`.
 */
export const ORDER_STATUSES = [
  'pending_payment',
  'payment_failed',
  'paid',
  'processing',
  'shipped',
  /** The parcel was not collected (or came back): staff reship it or refund and restock. */
  'returned',
  'delivered',
  'completed',
  'expired',
  'cancelled',
  'refunded',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  pending_payment: ['paid', 'payment_failed', 'expired', 'cancelled'],
  payment_failed: ['paid', 'expired', 'cancelled'],
  paid: ['processing', 'cancelled', 'refunded'],
  processing: ['shipped', 'cancelled', 'refunded'],
  shipped: ['delivered', 'returned'],
  returned: ['processing', 'cancelled', 'refunded'],
  delivered: ['completed', 'refunded'],
  completed: ['refunded'],
  expired: [],
  cancelled: [],
  refunded: [],
};

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/**
 * Money collected, for cash on delivery: the money changes hands when the parcel is delivered, so
 * a cash-on-delivery order in one of these statuses has paid (a refunded one was delivered first:
 * it cannot be refunded before). docs/product-rules.md, "Money words".
 */
export const COD_COLLECTED: readonly OrderStatus[] = ['delivered', 'completed', 'refunded'];

/** The status by whose move the buyer's money reaches the shop: paid for card and ATM, delivered for cash on delivery. */
export function moneyArrivesAt(paymentMethod: string): OrderStatus {
  return paymentMethod === 'cod' ? 'delivered' : 'paid';
}

/**
 * Paid: the buyer's money reached the shop (a card or ATM payment recorded on the order; cash on
 * delivery once collected), whatever happened to the order since. The SQL twin is db/money-rules.ts.
 */
export function moneyReceived(order: {
  paymentMethod: string;
  status: OrderStatus;
  paidAt: Date | string | null;
}): boolean {
  return order.paymentMethod === 'cod' ? COD_COLLECTED.includes(order.status) : order.paidAt !== null;
}

/**
 * Why an order may not move from its status to `to`, or null: `state-machine` (TRANSITIONS; a
 * payment after expiry, `latePayment`, is the one move the table does not list), or
 * `cod-not-collected` (cash on delivery is refunded only once its money was collected; before
 * that it is cancelled). The one rule behind the server's refusals and the console's buttons.
 */
export function moveBlock(
  order: { status: OrderStatus; paymentMethod: string },
  to: OrderStatus,
  latePayment = false,
): 'state-machine' | 'cod-not-collected' | null {
  const restoring = latePayment && order.status === 'expired' && to === 'paid';
  if (!restoring && !canTransition(order.status, to)) return 'state-machine';
  if (to === 'refunded' && order.paymentMethod === 'cod' && !COD_COLLECTED.includes(order.status))
    return 'cod-not-collected';
  return null;
}

/** Statuses whose stock is still held by the order (leaving them for cancelled/expired/refunded returns it). */
export const HOLDS_STOCK: readonly OrderStatus[] = [
  'pending_payment',
  'payment_failed',
  'paid',
  'processing',
];

/**
 * Orders a member may cancel themselves: until they ship, and while no logistics order is made
 * for them (a paid one is refunded; docs/product-rules.md, "Cancelling").
 */
export const MEMBER_CANCELLABLE: readonly OrderStatus[] = [
  'pending_payment',
  'payment_failed',
  'paid',
  'processing',
];

/** Orders "on the way" for the tracking page. */
export const IN_TRANSIT: readonly OrderStatus[] = ['paid', 'processing', 'shipped'];

export const ORDER_STATUS_LABELS: Readonly<Record<OrderStatus, string>> = {
  pending_payment: '待付款',
  payment_failed: '付款失敗',
  paid: '已付款',
  processing: '備貨中',
  shipped: '已出貨',
  returned: '包裹退回',
  delivered: '已送達',
  completed: '已完成',
  expired: '逾期未付款',
  cancelled: '已取消',
  refunded: '已退款',
};

export const SHIPMENT_EVENTS = [
  'created',
  'picked_up',
  'in_transit',
  'arrived_at_store',
  'store_closed',
  'store_changed',
  'delivered',
] as const;
export type ShipmentEvent = (typeof SHIPMENT_EVENTS)[number];

export const SHIPMENT_EVENT_LABELS: Readonly<Record<ShipmentEvent, string>> = {
  created: '已建立出貨單',
  picked_up: '物流已取件',
  in_transit: '配送中',
  arrived_at_store: '已到達取貨門市',
  store_closed: '取件門市關轉，請重新選擇門市',
  store_changed: '已更換取件門市',
  delivered: '已送達',
};

export { PAYMENT_METHOD_LABELS, type PaymentMethod } from './payment-methods.ts';

/** Days a parcel waits at the pickup store before it goes back (the chains' usual 7). */
export const PICKUP_DAYS = 7;

/** The last day to collect a parcel that reached its store at `arrivedAt`. */
export function pickupDeadline(arrivedAt: Date): Date {
  return new Date(arrivedAt.getTime() + PICKUP_DAYS * 86_400_000);
}

/**
 * An unpaid order gives its stock back after this long: a card order, and an ATM order until its
 * virtual account is issued (then the account's own deadline counts). Paying again never extends
 * it. The rules: docs/product-rules.md.
 */
export const UNPAID_HOLD_MS = 30 * 60_000;
/** Days an ATM virtual account stays open. */
export const ATM_EXPIRE_DAYS = 3;

/** At most this many unpaid card or ATM orders per account hold stock at once. */
export const MAX_OPEN_UNPAID_ORDERS = 3;
/** At most this many cash-on-delivery orders per account wait to be shipped at once. */
export const MAX_OPEN_COD_ORDERS = 3;
/** Unpaid orders (card, ATM) that still hold stock and count towards MAX_OPEN_UNPAID_ORDERS. */
export const OPEN_UNPAID: readonly OrderStatus[] = ['pending_payment', 'payment_failed'];
/** Cash-on-delivery orders not yet shipped: they hold stock and count towards MAX_OPEN_COD_ORDERS. */
export const OPEN_COD: readonly OrderStatus[] = ['processing'];
