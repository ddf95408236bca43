import { z } from 'zod';
import { ORDER_STATUSES, SHIPMENT_EVENTS } from './order-status.ts';
import { PAYMENT_METHODS } from './payment-methods.ts';
import { StoreCodeView } from './store-payments.ts';
import { ReturnView, Returnable } from './returns.ts';

export const OrderStatusSchema = z.enum(ORDER_STATUSES);

export const PaymentForm = z.object({
  /** Where the browser posts the form: ECPay's cashier or the built-in sandbox gateway. */
  action: z.string(),
  fields: z.record(z.string(), z.string()),
});
export type PaymentForm = z.infer<typeof PaymentForm>;

export const OrderItemView = z.object({
  id: z.string(),
  productSlug: z.string(),
  productName: z.string(),
  variantLabel: z.string(),
  sku: z.string(),
  imageSrc: z.string().nullable(),
  unitPrice: z.number().int(),
  quantity: z.number().int(),
  lineTotal: z.number().int(),
});

export const OrderEventView = z.object({
  kind: z.enum(['status', 'shipment']),
  status: OrderStatusSchema.nullable(),
  shipmentEvent: z.enum(SHIPMENT_EVENTS).nullable(),
  location: z.string().nullable(),
  note: z.string().nullable(),
  carrier: z.string().nullable(),
  trackingNo: z.string().nullable(),
  /** The carrier's tracking page for this parcel (see carrier-tracking.ts), or null. */
  tracking: z.object({ url: z.string(), opensParcel: z.boolean() }).nullable(),
  at: z.string(),
});
export type OrderEventView = z.infer<typeof OrderEventView>;

export const OrderSummary = z.object({
  orderNo: z.string(),
  status: OrderStatusSchema,
  paymentMethod: z.enum(PAYMENT_METHODS),
  shippingMethod: z.enum(['home', 'cvs']),
  total: z.number().int(),
  itemCount: z.number().int(),
  firstItemName: z.string(),
  createdAt: z.string(),
});
export type OrderSummary = z.infer<typeof OrderSummary>;

/**
 * The order's uniform e-invoice: being issued, issued (number, date and random code as ECPay gave
 * them, with any allowances), or voided.
 */
export const IssuedInvoiceView = z.union([
  z.object({ status: z.literal('pending') }),
  z.object({
    status: z.enum(['issued', 'void']),
    invoiceNo: z.string(),
    invoiceDate: z.string(),
    randomNumber: z.string(),
    amount: z.number().int(),
    voidReason: z.string().nullable(),
    /** After its period's draw, a winning invoice: 已中獎, the prize (頭獎…) and its amount, and the last day to claim it. */
    award: z
      .object({
        label: z.literal('已中獎'),
        prize: z.string(),
        amount: z.number().int().nullable(),
        claimUntil: z.string(),
      })
      .nullable(),
    /**
     * Credits on the invoice. An allowance is asked for online: ECPay mails the buyer, who has 72
     * hours to agree; `pending` (待買受人同意, until `expiresAt`) until then, `issued` (已開立, at
     * `issuedAt`) once agreed, `expired` (逾期未同意, nothing credited) if not.
     */
    allowances: z.array(
      z.object({
        allowanceNo: z.string(),
        amount: z.number().int(),
        reason: z.string(),
        state: z.enum(['pending', 'issued', 'expired']),
        createdAt: z.string(),
        expiresAt: z.string().nullable(),
        issuedAt: z.string().nullable(),
      }),
    ),
  }),
]);
export type IssuedInvoiceView = z.infer<typeof IssuedInvoiceView>;

/** Money given back on the order: by card through ECPay (pending until ECPay confirms), or by transfer. */
export const RefundView = z.object({
  method: z.enum(['card', 'transfer', 'line_pay']),
  amount: z.number().int(),
  reason: z.string(),
  status: z.enum(['pending', 'done', 'failed']),
  createdAt: z.string(),
  doneAt: z.string().nullable(),
  /** A transfer still waiting for the member's bank account. */
  needsAccount: z.boolean(),
});
export type RefundView = z.infer<typeof RefundView>;

export const OrderDetail = z.object({
  orderNo: z.string(),
  status: OrderStatusSchema,
  paymentMethod: z.enum(PAYMENT_METHODS),
  payment: z
    .object({
      status: z.enum(['pending', 'waiting_transfer', 'paid', 'failed']),
      message: z.string().nullable(),
      /** `bank` is the code with the bank's name (「812 台新銀行」), `deadline` ECPay's date with its time (「2026/11/26 23:59」). */
      atm: z
        .object({
          bankCode: z.string(),
          bank: z.string(),
          account: z.string(),
          expireDate: z.string(),
          deadline: z.string(),
        })
        .nullable(),
      /** A store code or barcodes, with their deadline, while they wait to be paid (and after). */
      store: StoreCodeView.nullable(),
      paidAt: z.string().nullable(),
    })
    .nullable(),
  /** Card instalments (分期期數); null when paid at once or by another method. */
  installments: z.number().int().nullable(),
  shipping: z.record(z.string(), z.string()),
  invoice: z.record(z.string(), z.string()),
  issuedInvoice: IssuedInvoiceView.nullable(),
  refunds: z.array(RefundView),
  items: z.array(OrderItemView),
  subtotal: z.number().int(),
  discounts: z.array(z.object({ label: z.string(), amount: z.number().int(), code: z.string().optional() })),
  discountTotal: z.number().int(),
  shippingFee: z.number().int(),
  total: z.number().int(),
  note: z.string(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  events: z.array(OrderEventView),
  canCancel: z.boolean(),
  canPay: z.boolean(),
  /** The pickup store closed while the parcel was on its way: the buyer picks another on the map. */
  needsNewStore: z.boolean(),
  returns: z.array(ReturnView),
  /** What may still be returned and until when; null when nothing may. */
  returnable: Returnable.nullable(),
});
export type OrderDetail = z.infer<typeof OrderDetail>;

/** A member's cancel: the order as it is now, and what went back to the cart (null when nothing was to go back). */
export const CancelOrderResponse = OrderDetail.extend({ cartNote: z.string().nullable() });
export type CancelOrderResponse = z.infer<typeof CancelOrderResponse>;

export const PlaceOrderResponse = z.object({ order: OrderDetail, payment: PaymentForm.nullable() });
export type PlaceOrderResponse = z.infer<typeof PlaceOrderResponse>;

export const OrderListQuery = z
  .object({
    status: z.enum([...ORDER_STATUSES, 'all', 'in-transit'], { message: '訂單狀態不正確' }).default('all'),
    page: z
      .string()
      .max(5, { message: '頁碼必須是整數', abort: true })
      .regex(/^\d{1,5}$/, '頁碼必須是整數')
      .transform(Number)
      .refine((n) => n >= 1, '頁碼至少為 1')
      .default(1),
  })
  .strict();
export const OrderListResponse = z.object({
  items: z.array(OrderSummary),
  page: z.number().int(),
  totalPages: z.number().int(),
  total: z.number().int(),
});
export type OrderListResponse = z.infer<typeof OrderListResponse>;

export const OrderNoParams = z.object({
  orderNo: z
    .string()
    .max(16, { message: '訂單編號格式不正確', abort: true })
    .regex(/^TW\d{14}$/, '訂單編號格式不正確'),
});

export const AdvanceOrderBody = z
  .object({
    status: z
      .enum(['processing', 'shipped', 'returned', 'delivered', 'completed', 'cancelled', 'refunded'])
      .optional(),
    shipmentEvent: z.enum(SHIPMENT_EVENTS).optional(),
    location: z.string().trim().max(60).optional(),
    note: z.string().trim().max(200).optional(),
    /** Staff's own words for a cancel or refund, which the member's mail quotes (the note adds who did it). */
    reason: z.string().trim().max(200).optional(),
    carrier: z.string().trim().max(40).optional(),
    trackingNo: z.string().trim().max(40).optional(),
  })
  .strict()
  .refine((v) => v.status !== undefined || v.shipmentEvent !== undefined, {
    message: '請提供新狀態或配送事件',
    path: ['status'],
  });
export type AdvanceOrderBody = z.infer<typeof AdvanceOrderBody>;
