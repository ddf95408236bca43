import { z } from 'zod';
import { AuditEntry, PagingQuery } from './admin.ts';
import { MobilePhone } from './checkout.ts';
import { ORDER_STATUSES, type OrderStatus, moveBlock } from './order-status.ts';
import { IssuedInvoiceView, OrderEventView, OrderStatusSchema, RefundView } from './orders.ts';
import { ONLINE_PAYMENT_METHODS, PAYMENT_METHODS, PAYMENT_METHOD_SHORT } from './payment-methods.ts';
import { StoreCodeView } from './store-payments.ts';
import { SHIPPING_METHODS, SHIPPING_METHOD_LABELS } from './shipping.ts';
import { ReturnView } from './returns.ts';

export { PAYMENT_METHODS, PAYMENT_METHOD_SHORT, SHIPPING_METHODS, SHIPPING_METHOD_LABELS };

/**
 * The operations console's order API: the list with its filters, the full detail, and the
 * fulfilment actions (each one a move of the order state machine).
 */

export const PAYMENT_STATES = ['pending', 'waiting_transfer', 'paid', 'failed'] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

export const PAYMENT_STATE_LABELS: Readonly<Record<PaymentState, string>> = {
  pending: '等待付款',
  waiting_transfer: '等待轉帳',
  paid: '已收款',
  failed: '付款失敗',
};

/**
 * How a list shows an order's payment: the latest attempt's state, except that an attempt still
 * open on an order that was cancelled or ran out of time reads 「未付款」; cash on delivery has none.
 */
export function paymentStateText(
  method: (typeof PAYMENT_METHODS)[number],
  state: PaymentState | null,
  status: OrderStatus,
): string {
  if (method === 'cod') return '到貨收款';
  if (!state) return '未付款';
  if (
    (state === 'pending' || state === 'waiting_transfer') &&
    (status === 'cancelled' || status === 'expired')
  )
    return '未付款';
  return paymentStateLabel(method, state);
}

/** An attempt's state in the console: a store code waits to be paid at the store, not for a transfer. */
export function paymentStateLabel(method: string, state: PaymentState): string {
  if (state === 'waiting_transfer' && (method === 'cvs_code' || method === 'cvs_barcode'))
    return '等待超商繳費';
  return PAYMENT_STATE_LABELS[state];
}

/** Carriers the shop hands parcels to. */
export const CARRIERS = [
  '黑貓宅急便',
  '新竹物流',
  '中華郵政',
  '7-ELEVEN 交貨便',
  '全家店到店',
  '萊爾富',
  'OK超商',
] as const;
export type Carrier = (typeof CARRIERS)[number];
/** The carrier a store-pickup order usually goes with (the brand's own service). */
export const CARRIER_FOR_CVS_BRAND: Readonly<Record<string, Carrier>> = {
  '7-ELEVEN': '7-ELEVEN 交貨便',
  FAMILY: '全家店到店',
  HILIFE: '萊爾富',
  OK: 'OK超商',
};

export const TRACKING_NO = /^[A-Za-z0-9-]{6,30}$/;

/** Shipment events staff add by hand while a parcel travels (「已送達」 is the deliver action). */
export const MANUAL_SHIPMENT_EVENTS = ['picked_up', 'in_transit', 'arrived_at_store'] as const;
export type ManualShipmentEvent = (typeof MANUAL_SHIPMENT_EVENTS)[number];

const taipeiDate = (label: string) => z.iso.date({ message: `${label}格式不正確（例如 2026-11-21）` });

/** Filters shared by the list and the CSV export. Dates are Taipei calendar days, both ends included. */
const filterShape = {
  status: z.enum(ORDER_STATUSES, { message: '訂單狀態不正確' }).optional(),
  payment: z.enum(PAYMENT_METHODS, { message: '付款方式不正確' }).optional(),
  shipping: z.enum(SHIPPING_METHODS, { message: '配送方式不正確' }).optional(),
  from: taipeiDate('開始日期').optional(),
  to: taipeiDate('結束日期').optional(),
  /** Order number (or part of it), the customer's e-mail, the recipient's phone or name. */
  q: z.string().trim().max(100, '搜尋文字最多 100 個字').optional(),
};
const datesInOrder = (v: { from?: string | undefined; to?: string | undefined }) =>
  !v.from || !v.to || v.from <= v.to;
const datesMessage = { message: '結束日期不能早於開始日期', path: ['to'] };

export const AdminOrderListQuery = PagingQuery.extend(filterShape)
  .strict()
  .refine(datesInOrder, datesMessage);
export type AdminOrderListQuery = z.infer<typeof AdminOrderListQuery>;
export const AdminOrderExportQuery = z.object(filterShape).strict().refine(datesInOrder, datesMessage);
export type AdminOrderExportQuery = z.infer<typeof AdminOrderExportQuery>;
export type AdminOrderFilters = Omit<AdminOrderListQuery, 'page' | 'pageSize'>;

export const AdminOrderRow = z.object({
  orderNo: z.string(),
  placedAt: z.string(),
  customerName: z.string(),
  customerEmail: z.string(),
  recipientName: z.string(),
  recipientPhone: z.string(),
  itemCount: z.number().int(),
  total: z.number().int(),
  status: OrderStatusSchema,
  paymentMethod: z.enum(PAYMENT_METHODS),
  /** The latest payment attempt's state; null for cash on delivery. */
  paymentState: z.enum(PAYMENT_STATES).nullable(),
  shippingMethod: z.enum(SHIPPING_METHODS),
});
export type AdminOrderRow = z.infer<typeof AdminOrderRow>;

// ── actions ─────────────────────────────────────────────────────────────────────────────────────

export const ORDER_ACTIONS = [
  'process',
  'ship',
  'ship-ecpay',
  'shipment-event',
  'deliver',
  'complete',
  'cancel',
  'refund',
] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

export const ORDER_ACTION_LABELS: Readonly<Record<OrderAction, string>> = {
  process: '開始備貨',
  ship: '出貨',
  'ship-ecpay': '以綠界物流出貨',
  'shipment-event': '新增配送事件',
  deliver: '標記已送達',
  complete: '完成訂單',
  cancel: '取消訂單',
  refund: '退款',
};

/** The status each action moves the order to (a shipment event keeps it shipped). */
export const ACTION_TARGET: Readonly<Record<OrderAction, OrderStatus | null>> = {
  process: 'processing',
  ship: 'shipped',
  'ship-ecpay': 'shipped',
  'shipment-event': null,
  deliver: 'delivered',
  complete: 'completed',
  cancel: 'cancelled',
  refund: 'refunded',
};

/**
 * What staff may do with an order now: the moves the orders' one door would make (`moveBlock`),
 * and shipment events while it is shipped.
 */
export function allowedOrderActions(order: {
  status: OrderStatus;
  paymentMethod: (typeof PAYMENT_METHODS)[number];
}): OrderAction[] {
  return ORDER_ACTIONS.filter((action) =>
    action === 'shipment-event'
      ? order.status === 'shipped'
      : moveBlock(order, ACTION_TARGET[action]!) === null,
  );
}

/** The ship dialog's fields (the console's form validates with the same rules as the server). */
export const ShipOrderFields = z.object({
  carrier: z.enum(CARRIERS, { error: '請選擇物流業者' }),
  trackingNo: z
    .string({ error: '請填寫追蹤編號' })
    .trim()
    .min(1, '請填寫追蹤編號')
    .max(30, { message: '追蹤編號須為 6–30 個英文字母、數字或連字號', abort: true })
    .regex(TRACKING_NO, '追蹤編號須為 6–30 個英文字母、數字或連字號'),
});
export type ShipOrderFields = z.infer<typeof ShipOrderFields>;

export const ShipmentEventFields = z.object({
  event: z.enum(MANUAL_SHIPMENT_EVENTS, { error: '請選擇配送事件' }),
  location: z.string().trim().max(60, '地點最多 60 個字').optional(),
});
export type ShipmentEventFields = z.infer<typeof ShipmentEventFields>;

/** Why an order is cancelled or refunded (shown to the member on the order's history). */
export const reasonField = (label: string) =>
  z
    .string({ error: `請填寫${label}` })
    .trim()
    .min(1, `請填寫${label}`)
    .max(200, `${label}最多 200 個字`);
export const ReasonFields = (label: string) => z.object({ reason: reasonField(label) });

export const OrderActionBody = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('process') }).strict(),
    ShipOrderFields.extend({ action: z.literal('ship') }).strict(),
    // The logistics order is made with ECPay: the carrier and number come from it.
    z.object({ action: z.literal('ship-ecpay') }).strict(),
    ShipmentEventFields.extend({ action: z.literal('shipment-event') }).strict(),
    z.object({ action: z.literal('deliver') }).strict(),
    z.object({ action: z.literal('complete') }).strict(),
    z.object({ action: z.literal('cancel'), reason: reasonField('取消原因') }).strict(),
    z.object({ action: z.literal('refund'), reason: reasonField('退款原因') }).strict(),
  ],
  { error: '請選擇要執行的操作' },
);
export type OrderActionBody = z.infer<typeof OrderActionBody>;

/**
 * Staff correct the recipient of an order not yet shipped (a name the carriers refuse, a wrong
 * number). The name is checked by the carriers' rule for the order's way of delivery, on the server.
 */
export const RecipientCorrectionBody = z
  .object({
    recipientName: z
      .string({ error: '請填寫收件人姓名' })
      .trim()
      .min(1, '請填寫收件人姓名')
      .max(30, { message: '收件人姓名不能超過 30 個字元', abort: true }),
    phone: MobilePhone,
  })
  .strict();
export type RecipientCorrectionBody = z.infer<typeof RecipientCorrectionBody>;

// ── detail ──────────────────────────────────────────────────────────────────────────────────────

export const AdminPaymentView = z.object({
  merchantTradeNo: z.string(),
  provider: z.string(),
  method: z.enum(ONLINE_PAYMENT_METHODS),
  amount: z.number().int(),
  status: z.enum(PAYMENT_STATES),
  /** The gateway's own trade number and its last answer. */
  tradeNo: z.string().nullable(),
  rtnCode: z.string().nullable(),
  rtnMsg: z.string().nullable(),
  atm: z.object({ bankCode: z.string(), account: z.string(), expireDate: z.string() }).nullable(),
  /** A store code or the three barcodes ECPay issued, with their deadline. */
  store: StoreCodeView.nullable(),
  /** Card: the instalment term asked of ECPay; null when paid at once. */
  installments: z.number().int().nullable(),
  paidAt: z.string().nullable(),
  createdAt: z.string(),
  /**
   * Still open (等待付款, 等待轉帳) while a later attempt was made for the order: the shopper paid,
   * or is paying, with that one, so this one will not be used. Shown as 「已由後續付款取代」.
   */
  replaced: z.boolean(),
});
export type AdminPaymentView = z.infer<typeof AdminPaymentView>;

/** The console's words for an attempt a later one replaced (AdminPaymentView.replaced). */
export const REPLACED_PAYMENT_LABEL = '已由後續付款取代';

export const AdminOrderDetail = z.object({
  orderNo: z.string(),
  status: OrderStatusSchema,
  placedAt: z.string(),
  updatedAt: z.string(),
  paidAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  paymentMethod: z.enum(PAYMENT_METHODS),
  /** Card instalments (分期期數); null when paid at once. */
  installments: z.number().int().nullable(),
  customer: z.object({ id: z.string(), name: z.string(), email: z.string(), phone: z.string().nullable() }),
  items: z.array(
    z.object({
      id: z.string(),
      productName: z.string(),
      productSlug: z.string(),
      variantLabel: z.string(),
      sku: z.string(),
      imageSrc: z.string().nullable(),
      unitPrice: z.number().int(),
      quantity: z.number().int(),
      lineTotal: z.number().int(),
    }),
  ),
  itemCount: z.number().int(),
  amounts: z.object({
    subtotal: z.number().int(),
    discounts: z.array(
      z.object({
        kind: z.enum(['tier', 'coupon']),
        label: z.string(),
        amount: z.number().int(),
        code: z.string().nullable(),
      }),
    ),
    discountTotal: z.number().int(),
    /**
     * Shipping (with any outlying-island surcharge), without the cash-on-delivery fee. The order
     * keeps one amount for both; when the fee rules changed since, so that the split cannot be
     * told, `codFee` is null and `shipping` is the whole amount.
     */
    shipping: z.number().int(),
    codFee: z.number().int().nullable(),
    total: z.number().int(),
  }),
  payments: z.array(AdminPaymentView),
  shipping: z.object({
    method: z.enum(SHIPPING_METHODS),
    recipientName: z.string(),
    phone: z.string(),
    postalCode: z.string().nullable(),
    /** Home delivery: city, district and street in one line. */
    address: z.string().nullable(),
    cvsBrand: z.string().nullable(),
    /** Store pickup: 「7-ELEVEN 鹿谷門市」. */
    storeName: z.string().nullable(),
    storeId: z.string().nullable(),
    storeAddress: z.string().nullable(),
  }),
  invoice: z.object({
    type: z.enum(['member', 'mobile', 'certificate', 'donation', 'company']),
    label: z.string(),
    mobileBarcode: z.string().nullable(),
    /** 自然人憑證條碼. */
    certificate: z.string().nullable(),
    donationCode: z.string().nullable(),
    taxId: z.string().nullable(),
    companyTitle: z.string().nullable(),
  }),
  issuedInvoice: IssuedInvoiceView.nullable(),
  refunds: z.array(RefundView),
  returns: z.array(ReturnView),
  note: z.string(),
  /** The latest carrier and tracking number, once shipped. */
  shipment: z.object({ carrier: z.string().nullable(), trackingNo: z.string().nullable() }).nullable(),
  /** The parcel made through ECPay logistics (the newest), with ECPay's latest status; null when shipped by hand or not yet. */
  parcel: z
    .object({
      logisticsId: z.string(),
      subType: z.string(),
      statusCode: z.number().int(),
      statusMessage: z.string(),
      collectionAmount: z.number().int(),
    })
    .nullable(),
  events: z.array(OrderEventView),
  /** Console writes on this order, newest first; only for roles that may read the audit trail. */
  operations: z.array(AuditEntry).nullable(),
  allowedActions: z.array(z.enum(ORDER_ACTIONS)),
  /** Shipment events that make sense for this order now (store arrival only for store pickup). */
  shipmentEvents: z.array(z.enum(MANUAL_SHIPMENT_EVENTS)),
});
export type AdminOrderDetail = z.infer<typeof AdminOrderDetail>;

/** Column headings of the CSV export, in order. */
export const ORDER_CSV_HEADERS = [
  '訂單編號',
  '成立時間',
  '訂單狀態',
  '會員姓名',
  '會員電子郵件',
  '收件人',
  '收件人電話',
  '配送方式',
  '配送地址或門市',
  '付款方式',
  '付款狀態',
  '商品件數',
  '商品小計',
  '折扣',
  '運費與手續費',
  '訂單總額',
  '物流業者',
  '追蹤編號',
  '備註',
] as const;
