import { LINE_PAY_CANCELLED } from '@shop/shared/line-pay';
import { atmDeadline, bankLabel } from '@shop/shared/atm';
import { storeDeadline, type StoreCodeView } from '@shop/shared/store-payments';
import type { StoreCode } from '../../db/schema.ts';
import { carrierTracking } from '@shop/shared/carrier-tracking';
import { cvsStoreLabel } from '@shop/shared/checkout';
import { MEMBER_CANCELLABLE, OPEN_UNPAID, type OrderStatus } from '@shop/shared/order-status';
import type { OrderDetail, OrderEventView, OrderListResponse, OrderSummary } from '@shop/shared/orders';
import { SHIPPING_METHOD_LABELS } from '@shop/shared/shipping';
import { objectUrl, variantName } from '@shop/shared/storage-paths';
import type { DbOrTx } from '../../db/client.ts';
import type { InvoiceDetails, ShippingDetails } from '../../db/schema.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { parcelOf, type ParcelOrder } from '../logistics/shipments.ts';
import { invoiceView as issuedInvoiceView, type InvoiceSubject } from '../invoices/service.ts';
import { refundViews } from '../payments/refunds.ts';
import * as repo from './repo.ts';
import { pageCount, pageWindow } from '@shop/shared/paging';
import { readTogether } from '../../db/reads.ts';
import { returnsOfNewOrder, returnsOfOrder } from './returns-views.ts';

/**
 * Orders as they are read: the member's order page and list, the history rows the console shows
 * too, and what other modules read of an order (its invoice subject, the parcel to prepare).
 * Reads only; no status changes here.
 */

const PAGE_SIZE = 10;

export async function ownOrder(db: DbOrTx, userId: string, orderNo: string): Promise<repo.OrderRow> {
  const order = await repo.findByOrderNo(db, orderNo);
  // Someone else's order is answered exactly like a missing one.
  if (!order || order.userId !== userId) throw new NotFoundError('找不到這筆訂單。');
  return order;
}

/** A refused payment as one sentence: the gateway's reason when it gave one, ending in 。. */
export function failedPaymentMessage(reason: string | null | undefined): string {
  const why = (reason ?? '').trim().replace(/[。.!！]+$/, '');
  return why ? `付款未成功：${why}。` : '付款未成功。';
}

function shippingView(s: ShippingDetails): Record<string, string> {
  const base = {
    method: s.method,
    methodLabel: SHIPPING_METHOD_LABELS[s.method],
    recipientName: s.recipientName,
    phone: s.phone,
  };
  if (s.method === 'home')
    return {
      ...base,
      postalCode: s.postalCode ?? '',
      address: `${s.city ?? ''}${s.district ?? ''}${s.address ?? ''}`,
    };
  return {
    ...base,
    store: cvsStoreLabel(s.cvsBrand, s.storeName),
    cvsBrand: s.cvsBrand ?? '',
    storeId: s.storeId ?? '',
    storeAddress: s.storeAddress ?? '',
  };
}

function invoiceView(i: InvoiceDetails): Record<string, string> {
  switch (i.type) {
    case 'member':
      return { type: 'member', label: '會員載具（電子發票存於會員帳號）' };
    case 'mobile':
      return { type: 'mobile', label: '手機條碼載具', carrier: i.mobileBarcode ?? '' };
    case 'certificate':
      return { type: 'certificate', label: '自然人憑證載具', carrier: i.certificate ?? '' };
    case 'donation':
      return { type: 'donation', label: '捐贈發票', donationCode: i.donationCode ?? '' };
    case 'company':
      return {
        type: 'company',
        label: '公司戶發票（三聯式）',
        taxId: i.taxId ?? '',
        companyTitle: i.companyTitle ?? '',
      };
  }
}

/** A store code or barcodes as the pages show them, with the deadline worded (「2026/11/26 14:05」). */
export const storeCodeView = (store: StoreCode): StoreCodeView => ({
  paymentNo: store.paymentNo,
  barcodes: store.barcodes,
  expireDate: store.expireDate,
  deadline: storeDeadline(store.expireDate),
});

const PAYMENT_MESSAGES: Record<string, string> = {
  pending: '等待付款',
  waiting_transfer: '等待 ATM 轉帳',
  paid: '付款完成',
  failed: '付款未成功',
};

/** One row of an order's history as members and the console see it. */
export const orderEventView = (e: repo.OrderEventRow): OrderEventView => ({
  kind: e.kind,
  status: (e.status as OrderStatus | null) ?? null,
  shipmentEvent: (e.shipmentEvent as OrderEventView['shipmentEvent']) ?? null,
  location: e.location,
  note: e.note,
  carrier: e.carrier,
  trackingNo: e.trackingNo,
  tracking: carrierTracking(e.carrier, e.trackingNo),
  at: e.createdAt.toISOString(),
});

/**
 * What `present` would read, when the caller has it: an order just placed, whose transaction wrote
 * its items, its one event and its payment attempt. A new order has no invoice, refund or return
 * yet (an invoice is issued on payment or delivery), so nothing is read at all.
 */
export interface KnownOrderParts {
  readonly items: repo.OrderItemRow[];
  readonly events: repo.OrderEventRow[];
  readonly payment: repo.PaymentRow | null;
  readonly isNew: true;
}

export async function present(
  db: DbOrTx,
  order: repo.OrderRow,
  known?: KnownOrderParts,
): Promise<OrderDetail> {
  const [items, events, payment] = known
    ? [known.items, known.events, known.payment]
    : await readTogether(db, [
        () => repo.itemsOf(db, order.id),
        () => repo.eventsOf(db, order.id),
        () => repo.latestPayment(db, order.id),
      ]);
  return {
    orderNo: order.orderNo,
    status: order.status,
    paymentMethod: order.paymentMethod,
    payment: payment
      ? {
          status: payment.status,
          message:
            payment.status === 'failed'
              ? payment.rtnMsg === LINE_PAY_CANCELLED
                ? LINE_PAY_CANCELLED
                : failedPaymentMessage(payment.rtnMsg)
              : payment.status === 'waiting_transfer' && payment.store
                ? '等待超商繳費'
                : (PAYMENT_MESSAGES[payment.status] ?? null),
          atm: payment.atm
            ? {
                ...payment.atm,
                bank: bankLabel(payment.atm.bankCode),
                deadline: atmDeadline(payment.atm.expireDate),
              }
            : null,
          store: payment.store ? storeCodeView(payment.store) : null,
          paidAt: payment.paidAt?.toISOString() ?? null,
        }
      : null,
    installments: order.installments,
    shipping: shippingView(order.shipping),
    invoice: invoiceView(order.invoice),
    issuedInvoice: known?.isNew ? null : await issuedInvoiceView(db, order),
    refunds: known?.isNew ? [] : await refundViews(db, order.id),
    items: items.map((i) => ({
      id: i.id,
      productSlug: i.productSlug,
      productName: i.productName,
      variantLabel: i.variantLabel,
      sku: i.sku,
      imageSrc: i.image ? objectUrl(i.image.bucket, variantName(i.image.name, 320)) : null,
      unitPrice: i.unitPrice,
      quantity: i.quantity,
      lineTotal: i.lineTotal,
    })),
    subtotal: order.subtotal,
    discounts: order.discounts.map((d) => ({
      label: d.label,
      amount: d.amount,
      ...(d.code ? { code: d.code } : {}),
    })),
    discountTotal: order.discountTotal,
    shippingFee: order.shippingFee,
    total: order.total,
    note: order.note,
    createdAt: order.createdAt.toISOString(),
    expiresAt: order.expiresAt?.toISOString() ?? null,
    events: events.map(orderEventView),
    canCancel: await memberMayCancel(db, order),
    canPay:
      order.paymentMethod !== 'cod' &&
      ['pending_payment', 'payment_failed'].includes(order.status) &&
      payment?.status !== 'waiting_transfer',
    needsNewStore: needsNewStore(order, events),
    ...(known?.isNew
      ? await returnsOfNewOrder(db, order, items, events)
      : await returnsOfOrder(db, order, new Date(), { items, events })),
  };
}

/** A shipped store parcel whose store closed, with no new store chosen since. */
export function needsNewStore(
  order: Pick<repo.OrderRow, 'status' | 'shipping'>,
  events: ReadonlyArray<{ kind: string; shipmentEvent: string | null }>,
): boolean {
  if (order.status !== 'shipped' || order.shipping.method !== 'cvs') return false;
  const last = [...events]
    .reverse()
    .find(
      (e) =>
        e.kind === 'shipment' &&
        ['store_closed', 'store_changed', 'arrived_at_store'].includes(e.shipmentEvent ?? ''),
    );
  return last?.shipmentEvent === 'store_closed';
}

/**
 * Whether the buyer may cancel the order themselves: until it ships, and while no logistics order
 * is made for it (the parcel would then have to be called back by the shop).
 */
export async function memberMayCancel(
  db: DbOrTx,
  order: Pick<repo.OrderRow, 'id' | 'status'>,
): Promise<boolean> {
  if (!MEMBER_CANCELLABLE.includes(order.status)) return false;
  return OPEN_UNPAID.includes(order.status) || !(await parcelOf(db, order.id));
}

export async function getOrder(db: DbOrTx, userId: string, orderNo: string): Promise<OrderDetail> {
  return present(db, await ownOrder(db, userId, orderNo));
}

const IN_TRANSIT_STATUSES: OrderStatus[] = ['paid', 'processing', 'shipped'];

export async function listOrders(
  db: DbOrTx,
  userId: string,
  filter: OrderStatus | 'all' | 'in-transit',
  page: number,
): Promise<OrderListResponse> {
  const statuses = filter === 'all' ? null : filter === 'in-transit' ? IN_TRANSIT_STATUSES : [filter];
  const { limit, offset } = pageWindow(page, PAGE_SIZE);
  const rows = await repo.listForUser(db, userId, statuses, limit, offset);
  const total = rows[0] ? Number(rows[0].total) : await repo.countForUser(db, userId, statuses);
  const items: OrderSummary[] = rows.map((r) => ({
    orderNo: r.order.orderNo,
    status: r.order.status,
    paymentMethod: r.order.paymentMethod,
    shippingMethod: r.order.shipping.method,
    total: r.order.total,
    itemCount: Number(r.itemCount),
    firstItemName: r.firstItemName ?? '',
    createdAt: r.order.createdAt.toISOString(),
  }));
  return { items, page, total, totalPages: pageCount(total, PAGE_SIZE) };
}

/** The parcel a prepared logistics order is made for, while the order still waits to be shipped. */
export async function parcelToPrepare(db: DbOrTx, orderId: string): Promise<ParcelOrder | null> {
  const order = await repo.findById(db, orderId);
  if (!order || !['paid', 'processing'].includes(order.status)) return null;
  const owner = await repo.ownerOf(db, order.userId);
  return {
    id: order.id,
    orderNo: order.orderNo,
    createdAt: order.createdAt,
    total: order.total,
    cashOnDelivery: order.paymentMethod === 'cod',
    shipping: order.shipping,
    email: owner?.email ?? null,
  };
}

/** What an order's uniform invoice is made from (the invoices module issues it). */
export async function invoiceSubject(db: DbOrTx, orderId: string): Promise<InvoiceSubject | null> {
  const order = await repo.findById(db, orderId);
  if (!order) return null;
  const [items, owner] = await readTogether(db, [
    () => repo.itemsOf(db, order.id),
    () => repo.ownerOf(db, order.userId),
  ]);
  const s = order.shipping;
  return {
    orderId: order.id,
    orderNo: order.orderNo,
    status: order.status,
    invoice: order.invoice,
    lines: items.map((i) => ({
      name: `${i.productName}（${i.variantLabel}）`,
      quantity: i.quantity,
      unitPrice: i.unitPrice,
    })),
    shippingFee: order.shippingFee,
    discountTotal: order.discountTotal,
    total: order.total,
    installments: order.paymentMethod === 'credit_card' ? order.installments : null,
    buyer: {
      name: owner?.name || s.recipientName,
      email: owner?.email ?? '',
      verified: Boolean(owner?.emailVerifiedAt),
      phone: s.phone.replace(/\D/g, ''),
      // A printed (company) invoice travels with the parcel: to the door, or to the pickup store.
      address:
        s.method === 'home'
          ? `${s.postalCode ?? ''}${s.city ?? ''}${s.district ?? ''}${s.address ?? ''}`
          : `${cvsStoreLabel(s.cvsBrand, s.storeName)}（${s.storeAddress ?? ''}）`,
    },
  };
}
