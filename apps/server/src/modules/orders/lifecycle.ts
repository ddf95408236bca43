import { ACTION_TARGET, CARRIERS, ORDER_ACTION_LABELS, type OrderAction } from '@shop/shared/admin-orders';
import {
  HOLDS_STOCK,
  MEMBER_CANCELLABLE,
  OPEN_UNPAID,
  ORDER_STATUS_LABELS,
  moveBlock,
  type OrderStatus,
} from '@shop/shared/order-status';
import type { AdvanceOrderBody, CancelOrderResponse, OrderDetail } from '@shop/shared/orders';
import type { Tx } from '../../db/client.ts';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '../../lib/errors.ts';
import { enqueueOutbox } from '../../plugins/outbox.ts';
import * as cart from '../cart/service.ts';
import { stockChanged } from '../catalog/service.ts';
import * as stock from '../catalog/stock.ts';
import { recomputeTier, releaseRedemptions } from '../membership/service.ts';
import { enqueueOrderMails, type ChangeKind } from './notify.ts';
import { invoiceFollowUp } from '../invoices/service.ts';
import { refundFollowUp } from '../payments/refunds.ts';
import * as repo from './repo.ts';
import { clock, type OrderDeps, type ChangeDeps } from './order-deps.ts';
import { ownOrder, present, memberMayCancel, getOrder } from './read-models.ts';

/**
 * The one door for an order's status (docs/product-rules.md, "One door for orders"): every change,
 * whoever asks (staff, the member, a payment notice, the sweep), is checked by `moveRefusal` and
 * made by `applyTransition` on the locked row, with its stock, cart, coupon, invoice and refund
 * follow-ups. The console asks `actionRefusal` before it acts; it never words a refusal itself.
 */

/** Statuses whose goods came back to the shop without being held in stock: leaving them for cancelled or refunded puts the goods back on the shelf. */
const GOODS_RETURNED: readonly OrderStatus[] = ['returned'];

/**
 * After a change is committed: the member's open pages hear of it, the outbox worker wakes for the
 * mails the change wrote (enqueueOrderMails, inside its transaction), and a paid order's parcel
 * is prepared when that is set up.
 */
export async function afterChange(
  deps: Pick<OrderDeps, 'db' | 'mailer' | 'events'>,
  order: repo.OrderRow,
  kind: ChangeKind,
) {
  deps.mailer.flush();
  await deps.events.publish(order.userId, {
    type: 'order.updated',
    data: { orderNo: order.orderNo, status: order.status },
  });
  // The spend that counts for a tier may have changed (db/money-rules.ts): so may the tier,
  // published live when it does.
  if (kind === 'paid' || ['delivered', 'completed', 'cancelled', 'refunded'].includes(order.status))
    await recomputeTier(deps.db, deps.events, order.userId);
}

/** Tells the member's open pages that their order changed (money moved outside a status change). */
export async function announceOrder(
  deps: Pick<OrderDeps, 'db' | 'mailer' | 'events'>,
  orderId: string,
): Promise<void> {
  const order = await repo.findById(deps.db, orderId);
  if (order) await afterChange(deps, order, 'status');
}

/** The outbox kind that makes a paid order's logistics order ahead of shipping (ECPAY_LOGISTICS_AUTO_CREATE). */
export const PREPARE_PARCEL = 'logistics.prepare';

/**
 * With ECPAY_LOGISTICS_AUTO_CREATE, a paid order (a cash-on-delivery one when placed) has its
 * logistics order made ahead of shipping, through the outbox, in the transaction that made it
 * ready: a payment notice is answered at once and a crash loses nothing. A refusal (a name the
 * carriers do not take, cash on delivery to a door) is met again, with its reason, when staff ship.
 */
export async function prepareParcelLater(
  tx: Tx,
  deps: Pick<OrderDeps, 'autoParcel'>,
  order: Pick<repo.OrderRow, 'id' | 'orderNo'>,
): Promise<void> {
  if (!deps.autoParcel) return;
  await enqueueOutbox(tx, {
    kind: PREPARE_PARCEL,
    key: `${PREPARE_PARCEL}:${order.orderNo}`,
    payload: { orderId: order.id },
    summary: `建立物流單：訂單 ${order.orderNo}`,
  });
}

/**
 * A member cancels an order that has not shipped: its stock goes back; an unpaid one puts its
 * lines back in the cart, a paid one is refunded and its invoice voided (the same door as staff
 * cancelling, applyTransition). Decided on the locked row, so a shipment or a payment that lands
 * meanwhile wins and the cancel is refused or takes the paid path.
 */
export async function cancelByMember(
  deps: ChangeDeps,
  userId: string,
  orderNo: string,
): Promise<CancelOrderResponse> {
  const order = await ownOrder(deps.db, userId, orderNo);
  const moved = await transition(
    deps,
    order.id,
    { to: 'cancelled', note: '會員取消訂單', byMember: true },
    async (tx, locked) => {
      if (MEMBER_CANCELLABLE.includes(locked.status) && (await memberMayCancel(tx, locked))) return;
      const why = MEMBER_CANCELLABLE.includes(locked.status)
        ? '已建立物流單，無法自行取消'
        : `目前為「${ORDER_STATUS_LABELS[locked.status]}」，無法自行取消`;
      throw new ConflictError(`這筆訂單${why}，請與客服聯絡。`, 'not-cancellable');
    },
  );
  return { ...(await getOrder(deps.db, userId, orderNo)), cartNote: moved.cartReturn?.note ?? null };
}

/**
 * Moves an order to `to` if the state machine allows it from where it is now; returns stock when
 * the order stops holding it. Every decision is taken from the row as locked here: `allowed`
 * throws when the caller's own rule refuses it (a member may cancel only while unpaid), so a
 * change that landed since the caller last looked is never overwritten.
 */
async function transition(
  deps: ChangeDeps,
  orderId: string,
  move: OrderMove,
  allowed?: (tx: Tx, locked: repo.OrderRow) => Promise<void>,
): Promise<MovedOrder> {
  const now = clock(deps);
  const updated = await deps.db.transaction(async (tx) => {
    const order = await repo.findById(tx, orderId, { forUpdate: true });
    if (!order) throw new NotFoundError('找不到這筆訂單。');
    await allowed?.(tx, order);
    const moved = await applyTransition(tx, order, move, now);
    await enqueueOrderMails(tx, deps, moved, 'status', {
      note: move.note,
      byMember: move.byMember,
      cartReturn: moved.cartReturn,
    });
    return moved;
  });
  if (updated.stockProducts) stockChanged(updated.stockProducts);
  await afterChange(deps, updated, 'status');
  if (updated.cartChanged) await cartChanged(deps, updated.userId);
  return updated;
}

/** The member's open pages (the header's cart count) hear that their cart changed. */
export async function cartChanged(deps: Pick<OrderDeps, 'events'>, userId: string): Promise<void> {
  await deps.events.publish(userId, { type: 'cart.updated', data: {} });
}

/** What an order giving its stock back writes in the stock ledger. */
const RETURN_KIND: Partial<Record<OrderStatus, 'cancellation' | 'expiry' | 'refund'>> = {
  cancelled: 'cancellation',
  expired: 'expiry',
  refunded: 'refund',
};

/** One asked-for change of an order's status, whoever asks (staff, the member, a payment notice, the sweep). */
export interface OrderMove {
  readonly to: OrderStatus;
  readonly note?: string | undefined;
  readonly location?: string | undefined;
  /** The carrier named when shipping. */
  readonly carrier?: string | null | undefined;
  /** The staff member who asked, for the stock ledger. */
  readonly actorId?: string | null | undefined;
  /** A payment that arrived after the order expired may bring it back (docs/product-rules.md). */
  readonly latePayment?: boolean | undefined;
  /** The member asked for it themselves (their cancel), which their mail says. */
  readonly byMember?: boolean | undefined;
  readonly extra?: Parameters<typeof repo.setStatus>[4] | undefined;
}

/**
 * Why an order may not make this move, or null: the state machine, and the shop's own rules
 * (docs/product-rules.md; `moveBlock` in @shop/shared/order-status). The same answer for every door
 * an order can be moved through; `asked` words the move as the asker sees it (the console's action).
 */
export function moveRefusal(
  order: Pick<repo.OrderRow, 'status' | 'paymentMethod'>,
  move: Pick<OrderMove, 'to' | 'carrier' | 'latePayment'>,
  asked = `改為「${ORDER_STATUS_LABELS[move.to]}」`,
): AppError | null {
  const block = moveBlock(order, move.to, move.latePayment === true);
  if (block === 'state-machine') return statusRefusal(order, asked);
  if (block === 'cod-not-collected')
    return new ConflictError(
      '貨到付款訂單送達前尚未收款，不需要退款；請改用「取消訂單」。',
      'invalid-transition',
    );
  if (move.to === 'shipped' && move.carrier && !(CARRIERS as readonly string[]).includes(move.carrier)) {
    return new BadRequestError('請選擇物流業者。', { carrier: '請選擇物流業者' });
  }
  return null;
}

const statusRefusal = (order: Pick<repo.OrderRow, 'status'>, asked: string) =>
  new ConflictError(
    `訂單目前為「${ORDER_STATUS_LABELS[order.status]}」，不能${asked}。`,
    'invalid-transition',
  );

/**
 * Why the console may not run `action` on the order now, or null: the door's own refusals
 * (moveRefusal, shipmentEventRefusal), worded with the action's name.
 */
export function actionRefusal(
  order: Pick<repo.OrderRow, 'status' | 'paymentMethod' | 'shipping'>,
  action: OrderAction,
  shipmentEvent?: string,
): AppError | null {
  const asked = ORDER_ACTION_LABELS[action];
  if (action !== 'shipment-event') return moveRefusal(order, { to: ACTION_TARGET[action]! }, asked);
  if (order.status !== 'shipped') return statusRefusal(order, asked);
  return shipmentEvent ? shipmentEventRefusal(order, shipmentEvent) : null;
}

/** Why a shipment event may not be added to this order, or null. */
export function shipmentEventRefusal(order: Pick<repo.OrderRow, 'shipping'>, event: string): AppError | null {
  if (event === 'arrived_at_store' && order.shipping.method !== 'cvs') {
    return new BadRequestError('宅配訂單不會到達取貨門市。', {
      event: '宅配訂單不會到達取貨門市，請選擇其他配送事件',
    });
  }
  return null;
}

/**
 * The one door every change of an order's status goes through (console actions, the admin API
 * and `npm run order:advance`, the member's cancel, payment notices, the expiry sweep), inside
 * the caller's transaction on a row it has locked. It checks the move first (nothing is written
 * when it is refused), then changes the status, moves stock through the stock service (given
 * back when the order stops holding it, taken again when a late payment restores it) and writes
 * the order's history.
 */
export async function applyTransition(
  tx: Tx,
  order: repo.OrderRow,
  move: OrderMove,
  now: Date,
): Promise<MovedOrder> {
  const refusal = moveRefusal(order, move);
  if (refusal) throw refusal;
  const { to } = move;
  // Stock goes back only when the goods stay with the shop: shipping hands them over (it had
  // returned the stock of every shipped order, as if it were still for sale); a parcel that came
  // back brings them back.
  const returnKind = RETURN_KIND[to];
  const goodsAtShop = HOLDS_STOCK.includes(order.status) || GOODS_RETURNED.includes(order.status);
  const takes = !goodsAtShop && HOLDS_STOCK.includes(to);
  // An unpaid order that expires, or that its buyer cancels, puts its lines back in the cart.
  const backToCart =
    OPEN_UNPAID.includes(order.status) &&
    (to === 'expired' || (to === 'cancelled' && move.byMember === true));
  const items = takes || (goodsAtShop && returnKind) || backToCart ? await repo.itemsOf(tx, order.id) : [];
  if (goodsAtShop && returnKind) {
    await stock.giveBack(tx, items, { kind: returnKind, orderNo: order.orderNo, actorId: move.actorId });
  }
  // A parcel that came back and is shipped again goes out with the same goods: nothing is taken.
  if (takes) {
    for (const item of items) {
      if (
        !item.variantId ||
        !(await stock.takeStock(tx, item.variantId, item.quantity, { kind: 'sale', orderNo: order.orderNo }))
      ) {
        throw new AppError(
          409,
          'insufficient-stock',
          `「${item.productName}（${item.variantLabel}）」已售完。`,
        );
      }
    }
  }
  // After the stock went back, so the cart may take what was just freed (docs/product-rules.md).
  const returned = backToCart
    ? await cart.putBack(
        tx,
        order.userId,
        items.map((i) => ({
          variantId: i.variantId,
          name: i.productName,
          variantLabel: i.variantLabel,
          quantity: i.quantity,
        })),
      )
    : null;
  const cartReturn = returned
    ? { note: cart.describeCartReturn(returned), inCart: returned.inCart }
    : undefined;
  // A late payment: the lines expiry put back in the cart were bought after all.
  const cartTaken = takes && move.latePayment === true ? await cart.takeBack(tx, order.userId, items) : false;
  await repo.setStatus(tx, order.id, [order.status], to, move.extra ?? {});
  // An order that was never paid gives its coupon back.
  if ((to === 'cancelled' || to === 'expired') && OPEN_UNPAID.includes(order.status))
    await releaseRedemptions(tx, order.id);
  const note = [move.note, cartReturn?.note].filter(Boolean).join('；') || null;
  await repo.insertEvent(tx, {
    orderId: order.id,
    kind: 'status',
    status: to,
    note,
    location: move.location ?? null,
    createdAt: now,
  });
  // The uniform invoice follows the sale: issued when it is paid (delivered, for cash on delivery), voided when it is undone.
  await invoiceFollowUp(tx, order, to, move.note ?? null);
  // A paid card order that is cancelled or refunded gets its money back through ECPay.
  await refundFollowUp(tx, order, to, move.note ?? null);
  // The products whose stock moved, for the catalogue once this commits.
  const stockProducts =
    (goodsAtShop && returnKind) || takes
      ? items.flatMap((i) => (i.variantId && i.productId ? [i.productId] : []))
      : [];
  return {
    ...order,
    status: to,
    ...(cartReturn ? { cartReturn } : {}),
    ...(cartReturn || cartTaken ? { cartChanged: true } : {}),
    ...(stockProducts.length > 0 ? { stockProducts } : {}),
  };
}

/** An order after a move, with what the move did to its buyer's cart. */
export type MovedOrder = repo.OrderRow & {
  /** Lines went back to the cart (an unpaid order expired or was cancelled by its buyer): the sentence saying so. */
  readonly cartReturn?: { readonly note: string; readonly inCart: boolean };
  /** The cart changed: its open pages are told once the move commits. */
  readonly cartChanged?: true;
  /** Products whose stock the move gave back or took (the catalogue is told once it commits). */
  readonly stockProducts?: readonly string[];
};

/** What a staff change did, for the caller's own record in the same transaction (the console's audit row). */
export interface AdvanceChange {
  readonly before: OrderStatus;
  readonly after: OrderStatus;
}

/**
 * Staff move an order along (the operations console, the admin API and `npm run order:advance`).
 * The whole move (status, shipment events, stock) is one transaction on the locked order, and
 * `inTransaction` writes the caller's record inside it, so the change and its audit row commit
 * together or not at all; the member's live update and mail follow the commit.
 */
export async function advanceOrder(
  deps: ChangeDeps,
  orderNo: string,
  body: AdvanceOrderBody,
  inTransaction?: (tx: Tx, change: AdvanceChange) => Promise<void>,
  actorId: string | null = null,
): Promise<OrderDetail> {
  const found = await repo.findByOrderNo(deps.db, orderNo);
  if (!found) throw new NotFoundError('找不到這筆訂單。');
  const now = clock(deps);
  const shipment = { carrier: body.carrier ?? null, trackingNo: body.trackingNo ?? null };
  const { current, after, stockProducts } = await deps.db.transaction(async (tx) => {
    const stockProducts = new Set<string>();
    const order = await repo.findById(tx, found.id, { forUpdate: true });
    if (!order) throw new NotFoundError('找不到這筆訂單。');
    let current = order;
    // What to announce once committed, in order.
    const after: Array<{
      order: repo.OrderRow;
      kind: 'status' | 'shipped' | 'at-store' | 'returned' | 'store-closed';
    }> = [];
    if (body.status) {
      // Refused moves are refused before anything is written.
      const refusal = moveRefusal(order, { to: body.status, carrier: body.carrier });
      if (refusal) throw refusal;
      // The shipment slip is made before the parcel leaves: its event goes first, so 已出貨 is the
      // newest step (events are listed in the order they were written). A refused move rolls it back.
      if (body.status === 'shipped')
        await repo.insertEvent(tx, {
          orderId: order.id,
          kind: 'shipment',
          shipmentEvent: 'created',
          ...shipment,
          location: body.location ?? null,
          createdAt: now,
        });
      const moved = await applyTransition(
        tx,
        current,
        { to: body.status, note: body.note, location: body.location, carrier: body.carrier, actorId },
        now,
      );
      for (const id of moved.stockProducts ?? []) stockProducts.add(id);
      current = moved;
      after.push({ order: current, kind: body.status === 'returned' ? 'returned' : 'status' });
      if (body.status === 'shipped') after.push({ order: current, kind: 'shipped' });
    }
    if (body.shipmentEvent && !(body.status === 'shipped' && body.shipmentEvent === 'created')) {
      if (current.status !== 'shipped')
        throw new ConflictError('訂單出貨後才能加入配送事件。', 'invalid-transition');
      const refusal = shipmentEventRefusal(current, body.shipmentEvent);
      if (refusal) throw refusal;
      await repo.insertEvent(tx, {
        orderId: order.id,
        kind: 'shipment',
        shipmentEvent: body.shipmentEvent,
        location: body.location ?? null,
        note: body.status ? null : (body.note ?? null),
        ...shipment,
        createdAt: now,
      });
      if (body.shipmentEvent === 'delivered')
        current = await applyTransition(
          tx,
          current,
          { to: 'delivered', note: body.note ?? '包裹已送達', location: body.location, actorId },
          now,
        );
      // A parcel at its pickup store: the buyer is told where and until when.
      after.push({
        order: current,
        kind:
          body.shipmentEvent === 'arrived_at_store'
            ? 'at-store'
            : body.shipmentEvent === 'store_closed'
              ? 'store-closed'
              : 'status',
      });
    }
    await inTransaction?.(tx, { before: order.status, after: current.status });
    for (const change of after)
      await enqueueOrderMails(tx, deps, change.order, change.kind, {
        shipment,
        at: now,
        note: body.note,
        reason: body.reason,
      });
    return { current, after, stockProducts };
  });
  stockChanged(stockProducts);
  for (const change of after) await afterChange(deps, change.order, change.kind);
  return present(deps.db, (await repo.findById(deps.db, found.id)) ?? current);
}

/**
 * The sweep's move for one order: it expires (and gives its stock back) only while it is still
 * unpaid and past its deadline, decided on the locked row; otherwise it is refused and nothing changes.
 */
export async function expireOrder(deps: ChangeDeps, orderId: string): Promise<void> {
  await transition(
    deps,
    orderId,
    { to: 'expired', note: '超過付款期限，訂單已自動取消' },
    async (_tx, locked) => {
      if (!OPEN_UNPAID.includes(locked.status) || !locked.expiresAt || locked.expiresAt > clock(deps))
        throw new ConflictError('這筆訂單已付款或期限已延長，不會自動取消。', 'invalid-transition');
    },
  );
}

/** Gives back the stock of unpaid orders whose time ran out (card: 30 minutes; ATM: its deadline). */
export async function expireOverdueOrders(deps: ChangeDeps): Promise<number> {
  let expired = 0;
  for (const id of await repo.overdueOrderIds(deps.db, clock(deps))) {
    try {
      await expireOrder(deps, id);
      expired += 1;
    } catch (error) {
      // Paid or cancelled a moment ago: nothing to do.
      if (!(error instanceof AppError)) throw error;
    }
  }
  return expired;
}
