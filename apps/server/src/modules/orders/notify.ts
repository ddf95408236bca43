import { refundsThroughGateway } from '@shop/shared/payment-methods';
import { cvsStoreLabel } from '@shop/shared/checkout';
import { pickupDeadline } from '@shop/shared/order-status';
import { formatTaipeiLongDate } from '@shop/shared/taipei-time';
import type { Tx } from '../../db/client.ts';
import type { Mailer } from '../../plugins/mail.ts';
import {
  atmInfoMail,
  storeCodeMail,
  newOrderMail,
  orderCancelledMail,
  orderDeliveredMail,
  orderExpiredMail,
  orderPaidMail,
  orderPlacedMail,
  refundByTransferMail,
  orderShippedMail,
  parcelAtStoreMail,
  parcelReturnedMail,
  paymentFailedMail,
  storeClosedMail,
  destinationWords,
  type MailOrder,
} from './mails.ts';
import * as repo from './repo.ts';
import type { StoreCode } from '../../db/schema.ts';
import { notificationSettings } from '../site/admin-service.ts';

/** What happened to an order, as far as anyone is told about it. */
export type ChangeKind =
  | 'placed'
  | 'paid'
  | 'shipped'
  | 'atm-info'
  | 'store-code'
  | 'at-store'
  | 'returned'
  | 'store-closed'
  | 'status';

export interface ChangeExtra {
  readonly atm?: { bankCode: string; account: string; expireDate: string };
  /** A CVS code or barcodes issued, with their deadline. */
  readonly store?: StoreCode;
  readonly shipment?: { carrier: string | null; trackingNo: string | null };
  readonly at?: Date;
  /** Why the order moved (a staff cancel's reason, a card's refusal). */
  readonly note?: string | null | undefined;
  /** Staff's own words for a cancel or refund, without the history's "who did it". */
  readonly reason?: string | null | undefined;
  /** A member's own cancel rather than staff's. */
  readonly byMember?: boolean | undefined;
  /** An unpaid order's lines went back to the cart: what the buyer is told about it. */
  readonly cartReturn?: { readonly note: string; readonly inCart: boolean } | undefined;
}

/** What the caller read already in the same transaction (placing an order): the account, the order's lines in `itemsOf`'s order. */
export interface KnownForMail {
  readonly owner?: {
    readonly email: string;
    readonly name: string;
    readonly emailVerifiedAt: Date | null;
  } | null;
  readonly items?: MailOrder['items'];
}

export interface NotifyDeps {
  readonly mailer: Mailer;
  readonly publicUrl: string;
  /** The shop's own inbox: told of each order to fulfil (none when unset). */
  readonly shopNotifyEmail?: string | undefined;
}

/**
 * Writes the mails an order change sends into the outbox, in the change's own transaction: they
 * go out once it commits and never for one that rolled back (docs/decisions/014-outbox.md).
 * Member mail goes only to the account's own verified address, never to one nobody has proven to
 * own (docs/product-rules.md); the member still sees everything on the order pages. A plain status
 * change mails only for the statuses a member must hear of.
 */
export async function enqueueOrderMails(
  tx: Tx,
  deps: NotifyDeps,
  order: repo.OrderRow,
  kind: ChangeKind,
  extra: ChangeExtra = {},
  known: KnownForMail = {},
): Promise<void> {
  const toShop =
    Boolean(deps.shopNotifyEmail) &&
    (kind === 'paid' || (kind === 'placed' && order.paymentMethod === 'cod')) &&
    (await notificationSettings(tx)).newOrderMail;
  const owner = known.owner !== undefined ? known.owner : await repo.ownerOf(tx, order.userId);
  const toMember = Boolean(owner?.emailVerifiedAt);
  if (!owner || (!toShop && !toMember)) return;
  const items = known.items ?? (await repo.itemsOf(tx, order.id));
  const pickupStore =
    order.shipping.method === 'cvs' ? cvsStoreLabel(order.shipping.cvsBrand, order.shipping.storeName) : null;
  const o: MailOrder = {
    orderNo: order.orderNo,
    email: owner.email,
    name: owner.name,
    total: order.total,
    paymentMethod: order.paymentMethod,
    installments: order.installments,
    items,
    paid: order.paidAt !== null,
    pickupStore,
    summary: {
      subtotal: order.subtotal,
      discounts: order.discounts.map((d) => ({ label: d.label, amount: d.amount })),
      shippingFee: order.shippingFee,
      destination: destinationWords({ ...order.shipping, store: pickupStore }),
    },
  };
  if (toShop && deps.shopNotifyEmail) {
    // Keyed by order: a late payment that restores an expired order does not announce it twice.
    await deps.mailer.enqueue(
      tx,
      newOrderMail(
        { ...o, shippingMethod: order.shipping.method, note: order.note },
        deps.shopNotifyEmail,
        deps.publicUrl,
      ),
      `shop-new-order:${order.orderNo}`,
    );
  }
  if (!toMember) return;
  const message = memberMail(deps.publicUrl, order, o, kind, extra);
  if (message) await deps.mailer.enqueue(tx, message);
}

function memberMail(
  publicUrl: string,
  order: repo.OrderRow,
  o: MailOrder,
  kind: ChangeKind,
  extra: ChangeExtra,
) {
  const s = order.shipping;
  switch (kind) {
    case 'placed':
      return orderPlacedMail(o, publicUrl);
    case 'paid':
      return orderPaidMail(o, publicUrl);
    case 'atm-info':
      return extra.atm ? atmInfoMail(o, extra.atm, publicUrl) : null;
    case 'store-code':
      return extra.store ? storeCodeMail(o, extra.store, publicUrl) : null;
    case 'shipped':
      return orderShippedMail(o, extra.shipment ?? { carrier: null, trackingNo: null }, publicUrl);
    case 'returned':
      return parcelReturnedMail(o, publicUrl, s.method === 'home');
    case 'store-closed':
      return storeClosedMail(o, cvsStoreLabel(s.cvsBrand, s.storeName), publicUrl);
    case 'at-store':
      return parcelAtStoreMail(
        o,
        { label: cvsStoreLabel(s.cvsBrand, s.storeName), address: s.storeAddress ?? '' },
        formatTaipeiLongDate(pickupDeadline(extra.at ?? new Date())),
        publicUrl,
      );
    case 'status':
      switch (order.status) {
        case 'payment_failed':
          return paymentFailedMail(o, extra.note ?? null, publicUrl);
        case 'expired':
          return orderExpiredMail(o, publicUrl, extra.cartReturn ?? null);
        case 'cancelled':
          // The mail says who cancelled in its own words, and quotes staff's reason as they gave it.
          return orderCancelledMail(
            o,
            extra.byMember ? 'member' : 'staff',
            extra.byMember ? null : extra.reason || null,
            publicUrl,
            extra.cartReturn ?? null,
          );
        case 'refunded':
          // The money's own mail follows it moving: the gateway's answer (card, LINE Pay), staff's transfer otherwise
          // (payments/refunds.ts); a transfer first needs the member's account, which this mail asks for.
          return refundsThroughGateway(order.paymentMethod) ? null : refundByTransferMail(o, publicUrl);
        case 'delivered':
          return orderDeliveredMail(o, publicUrl);
        default:
          return null;
      }
  }
}
