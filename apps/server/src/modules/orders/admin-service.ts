import type { PageOf } from '@shop/shared/admin';
import {
  ORDER_CSV_HEADERS,
  PAYMENT_METHOD_SHORT,
  SHIPPING_METHOD_LABELS,
  allowedOrderActions,
  paymentStateText,
  type AdminOrderDetail,
  type AdminOrderFilters,
  type AdminOrderListQuery,
  type AdminOrderRow,
  type OrderActionBody,
  type RecipientCorrectionBody,
} from '@shop/shared/admin-orders';
import { LOGISTICS_NAME_MESSAGES, cvsStoreLabel, isLogisticsName } from '@shop/shared/checkout';
import { toCsv } from '@shop/shared/csv';
import { ORDER_STATUS_LABELS, type OrderStatus } from '@shop/shared/order-status';
import type { AdvanceOrderBody } from '@shop/shared/orders';
import { objectUrl, variantName } from '@shop/shared/storage-paths';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import type { InvoiceDetails, ShippingDetails } from '../../db/schema.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../lib/errors.ts';
import * as adminRepo from './admin-repo.ts';
import * as repo from './repo.ts';
import { actionRefusal, advanceOrder } from './lifecycle.ts';
import type { ChangeDeps, OrderDeps } from './order-deps.ts';
import { orderEventView, storeCodeView } from './read-models.ts';
import { shippingRules } from '../site/shipping-rules.ts';
import { parcelOf } from '../logistics/shipments.ts';
import { CAME_BACK, parcelStep } from '../logistics/status-codes.ts';
import { invoiceView } from '../invoices/service.ts';
import { refundViews } from '../payments/refunds.ts';
import { returnsOfOrderForStaff } from './returns-views.ts';
import { pageCount, pageWindow } from '@shop/shared/paging';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';
import { readTogether } from '../../db/reads.ts';

/**
 * The console's view of orders: a filtered, paged list (and the same rows as CSV), the whole
 * detail, and the fulfilment actions. Status changes go through the order service's
 * `advanceOrder`, so stock, tiers, mails and the member's live tracking page behave exactly as
 * for every other change.
 */

/** Orders newest first, one page, with the customer, item count and payment state. */
export async function listAdminOrders(
  db: DbOrTx,
  query: AdminOrderListQuery,
): Promise<PageOf<AdminOrderRow>> {
  const { limit, offset } = pageWindow(query.page, query.pageSize);
  const { rows, total: n } = await adminRepo.listPage(db, query, limit, offset);
  return {
    items: rows.map((r) => ({
      orderNo: r.orderNo,
      placedAt: r.createdAt.toISOString(),
      customerName: r.customerName,
      customerEmail: r.customerEmail,
      recipientName: r.shipping.recipientName,
      recipientPhone: r.shipping.phone,
      itemCount: Number(r.itemCount),
      total: r.total,
      status: r.status,
      paymentMethod: r.paymentMethod,
      paymentState: r.paymentMethod === 'cod' ? null : (r.paymentState ?? null),
      shippingMethod: r.shipping.method,
    })),
    page: query.page,
    pageSize: query.pageSize,
    total: n,
    totalPages: pageCount(n, query.pageSize),
  };
}

// ── CSV ─────────────────────────────────────────────────────────────────────────────────────────

/** The most rows one export writes (a filter narrows a bigger shop's list). */
export const EXPORT_LIMIT = 20_000;

function destination(s: ShippingDetails): string {
  if (s.method === 'home')
    return `${s.postalCode ?? ''} ${s.city ?? ''}${s.district ?? ''}${s.address ?? ''}`.trim();
  return `${cvsStoreLabel(s.cvsBrand, s.storeName)}（${s.storeId ?? ''}）`;
}

/**
 * The filtered orders as a CSV file (UTF-8 with a BOM, CRLF), one row per order, newest first;
 * toCsv puts an apostrophe before text a spreadsheet would run as a formula.
 */
export async function exportAdminOrdersCsv(db: DbOrTx, filters: AdminOrderFilters): Promise<string> {
  const rows = await adminRepo.exportRows(db, filters, EXPORT_LIMIT);
  return toCsv([
    ORDER_CSV_HEADERS,
    ...rows.map((r) => [
      r.orderNo,
      formatTaipeiDateTime(r.createdAt),
      ORDER_STATUS_LABELS[r.status],
      r.customerName,
      r.customerEmail,
      r.shipping.recipientName,
      r.shipping.phone,
      SHIPPING_METHOD_LABELS[r.shipping.method],
      destination(r.shipping),
      PAYMENT_METHOD_SHORT[r.paymentMethod],
      paymentStateText(r.paymentMethod, r.paymentState, r.status),
      Number(r.itemCount),
      r.subtotal,
      r.discountTotal,
      r.shippingFee,
      r.total,
      r.carrier ?? '',
      r.trackingNo ?? '',
      r.note,
    ]),
  ]);
}

// ── detail ──────────────────────────────────────────────────────────────────────────────────────

const INVOICE_LABELS: Record<InvoiceDetails['type'], string> = {
  member: '會員載具（電子發票存於會員帳號）',
  mobile: '手機條碼載具',
  certificate: '自然人憑證載具',
  donation: '捐贈發票',
  company: '公司戶發票（三聯式）',
};

/**
 * The cash-on-delivery fee inside an order's one shipping amount. The order does not keep the
 * split, so it is taken from the current rules when what is left is a shipping amount those rules
 * could charge (base fee or free, plus or minus the island surcharge); otherwise null.
 */
async function codFeeOf(db: DbOrTx, order: repo.OrderRow): Promise<number | null> {
  if (order.paymentMethod !== 'cod') return 0;
  const rules = await shippingRules(db);
  const rest = order.shippingFee - rules.codFee;
  const base = rules[order.shipping.method].fee;
  // Home delivery to an island, or pickup at an island store, carries the surcharge.
  const surcharge =
    order.shipping.method === 'home' || order.shipping.storeOutlying ? rules.outlyingSurcharge : 0;
  return [0, base, surcharge, base + surcharge].includes(rest) ? rules.codFee : null;
}

async function findOrder(db: DbOrTx, orderNo: string): Promise<repo.OrderRow> {
  const order = await repo.findByOrderNo(db, orderNo);
  if (!order) throw new NotFoundError('找不到這筆訂單。');
  return order;
}

/** Everything about one order for the console; `withOperations` adds the audit rows (owner only). */
export async function getAdminOrder(
  db: DbOrTx,
  orderNo: string,
  options: { withOperations: boolean },
): Promise<AdminOrderDetail> {
  const order = await findOrder(db, orderNo);
  const [items, events, paymentRows, customer, operations] = await readTogether(db, [
    () => repo.itemsOf(db, order.id),
    () => repo.eventsOf(db, order.id),
    () => adminRepo.paymentsOf(db, order.id),
    () => adminRepo.customerOf(db, order.userId),
    async () => (options.withOperations ? adminRepo.auditOf(db, order.orderNo, 100) : null),
  ]);
  const parcel = await parcelOf(db, order.id);
  const issuedInvoice = await invoiceView(db, order);
  const s = order.shipping;
  const i = order.invoice;
  const codFee = await codFeeOf(db, order);
  const shipment = [...events].reverse().find((e) => e.kind === 'shipment' && (e.carrier || e.trackingNo));
  return {
    orderNo: order.orderNo,
    status: order.status,
    placedAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
    paidAt: order.paidAt?.toISOString() ?? null,
    expiresAt: order.expiresAt?.toISOString() ?? null,
    paymentMethod: order.paymentMethod,
    installments: order.installments,
    customer: customer ?? { id: order.userId, name: '', email: '', phone: null },
    items: items.map((item) => ({
      id: item.id,
      productName: item.productName,
      productSlug: item.productSlug,
      variantLabel: item.variantLabel,
      sku: item.sku,
      imageSrc: item.image ? objectUrl(item.image.bucket, variantName(item.image.name, 320)) : null,
      unitPrice: item.unitPrice,
      quantity: item.quantity,
      lineTotal: item.lineTotal,
    })),
    itemCount: items.reduce((n, item) => n + item.quantity, 0),
    amounts: {
      subtotal: order.subtotal,
      discounts: order.discounts.map((d) => ({
        kind: d.kind,
        label: d.label,
        amount: d.amount,
        code: d.code ?? null,
      })),
      discountTotal: order.discountTotal,
      shipping: order.shippingFee - (codFee ?? 0),
      codFee,
      total: order.total,
    },
    // Oldest first: an attempt left open before the last one was replaced by a later one.
    payments: paymentRows.map((p, i) => ({
      merchantTradeNo: p.merchantTradeNo,
      provider: p.provider,
      method: p.method,
      amount: p.amount,
      status: p.status,
      tradeNo: p.tradeNo,
      rtnCode: p.rtnCode,
      rtnMsg: p.rtnMsg,
      atm: p.atm ?? null,
      store: p.store ? storeCodeView(p.store) : null,
      installments: p.installments,
      paidAt: p.paidAt?.toISOString() ?? null,
      createdAt: p.createdAt.toISOString(),
      replaced: (p.status === 'pending' || p.status === 'waiting_transfer') && i < paymentRows.length - 1,
    })),
    shipping: {
      method: s.method,
      recipientName: s.recipientName,
      phone: s.phone,
      postalCode: s.method === 'home' ? (s.postalCode ?? null) : null,
      address: s.method === 'home' ? `${s.city ?? ''}${s.district ?? ''}${s.address ?? ''}` : null,
      cvsBrand: s.method === 'cvs' ? (s.cvsBrand ?? null) : null,
      storeName: s.method === 'cvs' ? cvsStoreLabel(s.cvsBrand, s.storeName) : null,
      storeId: s.method === 'cvs' ? (s.storeId ?? null) : null,
      storeAddress: s.method === 'cvs' ? (s.storeAddress ?? null) : null,
    },
    invoice: {
      type: i.type,
      label: INVOICE_LABELS[i.type],
      mobileBarcode: i.mobileBarcode ?? null,
      certificate: i.certificate ?? null,
      donationCode: i.donationCode ?? null,
      taxId: i.taxId ?? null,
      companyTitle: i.companyTitle ?? null,
    },
    issuedInvoice,
    refunds: await refundViews(db, order.id),
    returns: await returnsOfOrderForStaff(db, order, items),
    note: order.note,
    shipment: shipment ? { carrier: shipment.carrier, trackingNo: shipment.trackingNo } : null,
    parcel: parcel
      ? {
          logisticsId: parcel.logisticsId,
          subType: parcel.subType,
          statusCode: parcel.statusCode,
          statusMessage: parcel.statusMessage,
          collectionAmount: parcel.collectionAmount,
        }
      : null,
    events: events.map(orderEventView),
    operations:
      operations?.map((r) => ({
        id: String(r.id),
        at: r.at.toISOString(),
        actorEmail: r.actorEmail,
        actorRole: r.actorRole,
        action: r.action,
        entity: r.entity,
        entityId: r.entityId,
        before: r.before,
        after: r.after,
      })) ?? null,
    allowedActions: allowedOrderActions(order),
    shipmentEvents:
      order.status !== 'shipped'
        ? []
        : s.method === 'cvs'
          ? ['picked_up', 'in_transit', 'arrived_at_store']
          : ['picked_up', 'in_transit'],
  };
}

// ── actions ─────────────────────────────────────────────────────────────────────────────────────

/** What the audit trail keeps of an action besides the status: carrier, reason, place. */
function actionDetails(body: OrderActionBody): Record<string, string> {
  const { action: _action, ...rest } = body;
  return Object.fromEntries(
    Object.entries(rest).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''),
  );
}

function toAdvance(body: OrderActionBody): AdvanceOrderBody {
  switch (body.action) {
    case 'process':
      return { status: 'processing' };
    case 'ship':
      return { status: 'shipped', carrier: body.carrier, trackingNo: body.trackingNo };
    case 'ship-ecpay':
      throw new Error('ship-ecpay is turned into ship once its logistics order exists');
    case 'shipment-event':
      return { shipmentEvent: body.event, ...(body.location ? { location: body.location } : {}) };
    case 'deliver':
      // As a shipment event, so the member's tracking timeline shows the delivery too.
      return { shipmentEvent: 'delivered' };
    case 'complete':
      return { status: 'completed' };
    case 'cancel':
      return { status: 'cancelled', note: `店家取消訂單：${body.reason}`, reason: body.reason };
    case 'refund':
      return { status: 'refunded', note: `已辦理退款：${body.reason}`, reason: body.reason };
  }
}

export interface ActionResult {
  readonly before: OrderStatus;
  readonly after: OrderStatus;
  readonly details: Record<string, string>;
}

/**
 * Runs one fulfilment action. Refuses (409, nothing changed) what the state machine does not
 * allow from the order's current status; the order service checks again under a row lock, so two
 * staff members acting at once cannot both win. `record` runs inside the order's transaction with
 * the status before and after as locked there (the console writes its audit row with it), so the
 * change and its record commit together or not at all.
 */
export async function runOrderAction(
  deps: ChangeDeps & Pick<OrderDeps, 'shipParcel'>,
  orderNo: string,
  body: OrderActionBody,
  record?: (tx: Tx, result: ActionResult) => Promise<void>,
  actorId: string | null = null,
): Promise<ActionResult> {
  const order = await findOrder(deps.db, orderNo);
  // The door's own refusals, asked before ECPay is called; the door asks again on the locked row.
  const refusal = actionRefusal(
    order,
    body.action,
    body.action === 'shipment-event' ? body.event : undefined,
  );
  if (refusal) throw refusal;
  let move: OrderActionBody = body;
  if (body.action === 'ship-ecpay') {
    // The logistics order is made first (a call to ECPay, outside any transaction); an earlier try
    // that made it is found again, so a retry never makes a second parcel.
    if (!deps.shipParcel)
      throw new ConflictError(
        '這個商店沒有設定綠界物流，請改為手動填寫物流業者與追蹤編號。',
        'invalid-transition',
      );
    const owner = await repo.ownerOf(deps.db, order.userId);
    const shipped = await deps.shipParcel({
      id: order.id,
      orderNo: order.orderNo,
      createdAt: order.createdAt,
      total: order.total,
      cashOnDelivery: order.paymentMethod === 'cod',
      shipping: order.shipping,
      email: owner?.email ?? null,
    });
    move = { action: 'ship', carrier: shipped.carrier, trackingNo: shipped.trackingNo };
  }
  const details = actionDetails(move);
  let result: ActionResult | undefined;
  await advanceOrder(
    deps,
    orderNo,
    toAdvance(move),
    async (tx, change) => {
      result = { ...change, details };
      await record?.(tx, result);
    },
    actorId,
  );
  return result!;
}

/** Before the parcel leaves: the recipient is still the shop's to correct. */
const RECIPIENT_EDITABLE: readonly OrderStatus[] = [
  'pending_payment',
  'payment_failed',
  'paid',
  'processing',
  'returned',
];

export interface RecipientChange {
  readonly before: { readonly recipientName: string; readonly phone: string };
  readonly after: { readonly recipientName: string; readonly phone: string };
}

/**
 * Staff correct an order's recipient before it ships: a name the carriers refuse (placed before
 * checkout checked it), or a wrong number. The name is held to the carriers' rule for the order's
 * way of delivery; a parcel already made with ECPay (made at payment) carries the old name, so the
 * order is then refused too. `record` (the audit row) commits with the change.
 */
export async function correctRecipient(
  db: Db,
  orderNo: string,
  body: RecipientCorrectionBody,
  record: (tx: Tx, change: RecipientChange) => Promise<void>,
): Promise<void> {
  const found = await findOrder(db, orderNo);
  const method = found.shipping.method === 'cvs' ? 'cvs' : 'home';
  if (!isLogisticsName(body.recipientName))
    throw new BadRequestError(LOGISTICS_NAME_MESSAGES[method], {
      recipientName: LOGISTICS_NAME_MESSAGES[method],
    });
  await db.transaction(async (tx) => {
    const order = await repo.findById(tx, found.id, { forUpdate: true });
    if (!order) throw new NotFoundError('找不到這筆訂單。');
    if (!RECIPIENT_EDITABLE.includes(order.status)) {
      throw new ConflictError(
        `訂單目前為「${ORDER_STATUS_LABELS[order.status]}」，包裹已交給物流業者，收件人無法在這裡修改。`,
        'invalid-transition',
      );
    }
    const parcel = await parcelOf(tx, order.id);
    const step = parcel ? parcelStep(parcel.statusCode) : null;
    if (parcel && !(step && CAME_BACK.includes(step))) {
      throw new ConflictError(
        '這筆訂單已建立綠界物流單，物流單上的收件人需在綠界後台修改。',
        'invalid-transition',
      );
    }
    const before = { recipientName: order.shipping.recipientName, phone: order.shipping.phone };
    const after = { recipientName: body.recipientName, phone: body.phone };
    await repo.setShipping(tx, order.id, { ...order.shipping, ...after });
    await record(tx, { before, after });
  });
}
