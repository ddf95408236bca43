import { CARRIERS } from '@shop/shared/admin-orders';
import { atmDeadline, bankLabel } from '@shop/shared/atm';
import type { CartLine } from '@shop/shared/cart';
import { carrierTracking } from '@shop/shared/carrier-tracking';
import {
  CVS_BRANDS,
  CVS_BRAND_NAMES,
  CheckoutErrorCode,
  cvsStoreLabel,
  type CvsBrandCode,
  type LastRecipientResponse,
  type PlaceOrderBody,
  type QuoteBody,
  type QuoteResponse,
} from '@shop/shared/checkout';
import { isOutlying } from '@shop/shared/data/tw-districts';
import { findDistrict } from '@shop/shared/data/tw-districts';
import { formatTwd } from '@shop/shared/money';
import {
  HOLDS_STOCK,
  MAX_OPEN_COD_ORDERS,
  MAX_OPEN_UNPAID_ORDERS,
  MEMBER_CANCELLABLE,
  OPEN_UNPAID,
  ORDER_STATUS_LABELS,
  UNPAID_HOLD_MS,
  canTransition,
  type OrderStatus,
  type ShipmentEvent,
} from '@shop/shared/order-status';
import type {
  AdvanceOrderBody,
  CancelOrderResponse,
  OrderDetail,
  OrderEventView,
  OrderListResponse,
  OrderSummary,
  PaymentForm,
} from '@shop/shared/orders';
import { SHIPPING_METHOD_LABELS, shippingFee } from '@shop/shared/shipping';
import { objectUrl, variantName } from '@shop/shared/storage-paths';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import type { InvoiceDetails, ShippingDetails } from '../../db/schema.ts';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '../../lib/errors.ts';
import type { EventBus } from '../../plugins/events.ts';
import type { Mailer } from '../../plugins/mail.ts';
import { enqueueOutbox } from '../../plugins/outbox.ts';
import * as cart from '../cart/service.ts';
import { catalogChanged, stockChanged } from '../catalog/service.ts';
import * as stock from '../catalog/stock.ts';
import type { DiscountProvider } from '../discounts/provider.ts';
import { reclaimCouponUses, recomputeTier, releaseRedemptions } from '../membership/service.ts';
import { saveOrderDestination } from '../membership/profile.ts';
import { shippingRules } from '../site/shipping-rules.ts';
import { parcelOf, type ParcelOrder, type ParcelShipped } from '../logistics/shipments.ts';
import { knownStore } from '../logistics/stores.ts';
import { mapChoice } from '../logistics/map.ts';
import { paymentForm, type GatewaySettings } from '../payments/gateway.ts';
import { CARRIER_NOT_FOUND } from '@shop/shared/carrier-check';
import { enqueueOrderMails, type ChangeKind } from './notify.ts';
import { orderRefundedMail } from './mails.ts';
import {
  invoiceFollowUp,
  invoiceView as issuedInvoiceView,
  type InvoiceSubject,
} from '../invoices/service.ts';
import { refundFollowUp, refundViews } from '../payments/refunds.ts';
import * as repo from './repo.ts';
import { returnsOfNewOrder, returnsOfOrder } from './returns.ts';
import { pageCount, pageWindow } from '@shop/shared/paging';

/** Statuses whose goods came back to the shop without being held in stock: leaving them for cancelled or refunded puts the goods back on the shelf. */
const GOODS_RETURNED: readonly OrderStatus[] = ['returned'];
import { taipeiDay } from '@shop/shared/taipei-time';
import { readTogether } from '../../db/reads.ts';

export interface OrderDeps {
  readonly db: Db;
  readonly mailer: Mailer;
  readonly events: EventBus;
  readonly discounts: DiscountProvider;
  readonly gateway: GatewaySettings;
  readonly publicUrl: string;
  /** The shop's own inbox, told of each order to fulfil. */
  readonly shopNotifyEmail?: string | undefined;
  /** Whether ECPay knows a mobile barcode or donation code (the invoices module's cached check). */
  readonly checkCarrier?: (
    kind: 'mobile' | 'donation',
    code: string,
  ) => Promise<'valid' | 'invalid' | 'unverified'>;
  readonly now?: () => Date;
  /** Makes the parcel's logistics order (ECPay, or the sandbox) when staff ship through it. */
  readonly shipParcel?: (order: ParcelOrder) => Promise<ParcelShipped>;
  /**
   * ECPAY_LOGISTICS_AUTO_CREATE: the parcel's logistics order is made as soon as the order is paid
   * (placed, for cash on delivery), so the label is ready; staff shipping then uses it.
   */
  readonly autoParcel?: boolean;
  /** Tells ECPay the parcel's new pickup store (its store closed). */
  readonly changeParcelStore?: (orderId: string, storeId: string) => Promise<void>;
}

const clock = (deps: Pick<OrderDeps, 'now'>) => (deps.now ? deps.now() : new Date());
const PAGE_SIZE = 10;

export function formatOrderNo(date: Date, seq: number): string {
  return `TW${taipeiDay(date, '')}${String(seq).padStart(6, '0')}`;
}

// ── pricing ─────────────────────────────────────────────────────────────────────────────────────

interface Pricing extends QuoteResponse {
  readonly lines: CartLine[];
  readonly rows: cart.CartRow[];
  commit?: ((tx: DbOrTx, orderId: string) => Promise<void>) | undefined;
}

/** Prices the member's cart on the server: subtotal, discounts, shipping and total. */
async function priceCart(
  db: DbOrTx,
  discounts: DiscountProvider,
  userId: string,
  input: QuoteBody,
): Promise<Pricing> {
  const rows = await cart.cartRows(db, userId);
  const lines = rows.map(cart.toLine);
  const buyable = lines.filter((l) => l.problem === null);
  const subtotal = buyable.reduce((n, l) => n + l.lineTotal, 0);
  const quote = await discounts.quote(db, {
    userId,
    subtotal,
    lines: buyable.map((l) => ({ productId: l.productId, variantId: l.variantId, lineTotal: l.lineTotal })),
    couponCode: input.couponCode,
  });
  const discountTotal = Math.min(
    subtotal,
    quote.discounts.reduce((n, d) => n + d.amount, 0),
  );
  const amount = subtotal - discountTotal;
  const outlying =
    input.shippingMethod === 'home'
      ? Boolean(input.city && input.district && isOutlying(input.city, input.district))
      : Boolean(
          input.cvsBrand && input.storeId && (await knownStore(db, input.cvsBrand, input.storeId))?.outlying,
        );
  const fee = shippingFee(await shippingRules(db), {
    method: input.shippingMethod,
    amount,
    outlying,
    cashOnDelivery: input.paymentMethod === 'cod',
    ...(quote.freeOverOverride !== undefined ? { freeOverOverride: quote.freeOverOverride } : {}),
  });
  const shippingLines = [
    {
      label:
        fee.base === 0
          ? `${SHIPPING_METHOD_LABELS[input.shippingMethod]}運費（滿 ${formatTwd(fee.freeOver)} 免運）`
          : `${SHIPPING_METHOD_LABELS[input.shippingMethod]}運費`,
      amount: fee.base,
    },
    ...(fee.outlyingSurcharge ? [{ label: '離島加收運費', amount: fee.outlyingSurcharge }] : []),
    ...(fee.codFee ? [{ label: '貨到付款手續費', amount: fee.codFee }] : []),
  ];
  return {
    lines,
    rows,
    subtotal,
    discounts: quote.discounts,
    discountTotal,
    shippingFee: fee.total,
    shippingLines,
    total: amount + fee.total,
    toFreeShipping: fee.toFree,
    outlyingSurcharge: fee.outlyingSurcharge,
    couponError: quote.couponError,
    itemCount: buyable.reduce((n, l) => n + l.quantity, 0),
    commit: quote.commit,
  };
}

export async function quote(
  deps: Pick<OrderDeps, 'db' | 'discounts'>,
  userId: string,
  input: QuoteBody,
): Promise<QuoteResponse> {
  const {
    lines: _lines,
    rows: _rows,
    commit: _commit,
    ...response
  } = await priceCart(deps.db, deps.discounts, userId, input);
  return response;
}

// ── placing an order ────────────────────────────────────────────────────────────────────────────

class DuplicateOrder extends Error {}

function problemMessage(lines: CartLine[]): string {
  const names = lines.map(
    (l) =>
      `「${l.name}（${l.variantLabel}）」${l.problem === 'insufficient-stock' ? `只剩 ${l.stock} 件` : l.problem === 'sold-out' ? '已售完' : '已下架'}`,
  );
  return `購物車有商品需要調整：${names.join('、')}。請回到購物車修改後再結帳。`;
}

async function shippingDetails(deps: OrderDeps, body: PlaceOrderBody): Promise<ShippingDetails> {
  const s = body.shipping;
  if (s.method === 'home') {
    const district = findDistrict(s.city, s.district);
    if (!district)
      throw new BadRequestError('請選擇正確的鄉鎮市區', { 'shipping.district': '請選擇正確的鄉鎮市區' });
    return {
      method: 'home',
      recipientName: s.recipientName,
      phone: s.phone,
      city: s.city,
      district: s.district,
      postalCode: district.zip,
      address: s.address,
    };
  }
  const store = await knownStore(deps.db, s.cvsBrand, s.storeId);
  if (!store)
    throw new BadRequestError('找不到這間門市，請重新選擇取貨門市。', {
      'shipping.storeId': '找不到這間門市，請重新選擇',
    });
  return {
    method: 'cvs',
    recipientName: s.recipientName,
    phone: s.phone,
    cvsBrand: s.cvsBrand,
    storeId: store.id,
    storeName: store.name,
    storeAddress: store.address,
    storePhone: store.phone,
    storeOutlying: store.outlying,
  };
}

/**
 * Who may place an order, checked on the account's locked row (docs/product-rules.md): a verified
 * e-mail address, and fewer open orders than the limits (counted under that lock). Throws the
 * refusal, with how to proceed.
 */
function assertMayOrder(
  account: Awaited<ReturnType<typeof repo.lockAccount>>,
  open: { unpaid: number; cod: number },
  paymentMethod: PlaceOrderBody['paymentMethod'],
): void {
  if (!account) throw new NotFoundError('找不到會員資料，請重新登入。');
  if (!account.emailVerifiedAt) {
    throw new AppError(
      403,
      CheckoutErrorCode.emailNotVerified,
      `請先完成電子郵件驗證再下單：請點選寄到 ${account.email} 的驗證信中的連結；沒收到或連結已過期，可以重新寄送驗證信。`,
    );
  }
  if (paymentMethod === 'cod' && open.cod >= MAX_OPEN_COD_ORDERS) {
    throw new AppError(
      409,
      CheckoutErrorCode.tooManyOpenOrders,
      `您已有 ${open.cod} 筆貨到付款訂單尚未出貨，暫時無法再以貨到付款下單。請等其中一筆出貨後再下單，或改用信用卡、ATM 轉帳付款。`,
    );
  }
  if (paymentMethod !== 'cod' && open.unpaid >= MAX_OPEN_UNPAID_ORDERS) {
    throw new AppError(
      409,
      CheckoutErrorCode.tooManyOpenOrders,
      `您已有 ${open.unpaid} 筆訂單尚未付款，無法再建立新訂單。請到「訂單查詢」完成其中一筆的付款，或取消不需要的訂單後再結帳。`,
    );
  }
}

/** Everything a new order is shown with, as its transaction wrote it (nothing needs reading again). */
interface PlacedOrder {
  readonly order: repo.OrderRow;
  readonly items: repo.OrderItemRow[];
  readonly event: repo.OrderEventRow;
  readonly payment: repo.PaymentRow | null;
}

/**
 * Places an order in one transaction: checks that the account may order (verified address, open
 * order limits, under the account's row lock so its checkouts take turns), takes stock with
 * conditional updates (concurrent buyers can never oversell), copies names, options and prices
 * onto the order, counts discounts, empties the bought lines from the cart. The idempotency key
 * makes a double-click or a retried request find the first order instead of making a second one.
 *
 * Every statement counts when a hundred buyers want the same tea (docs/decisions/022): the
 * transaction reads the account's state in one query, numbers the order in its insert, writes the
 * sale and its ledger row in one statement (the variant's row stays locked from there to the commit
 * only), and the answer is made from the rows it wrote.
 */
export async function placeOrder(
  deps: OrderDeps,
  userId: string,
  body: PlaceOrderBody,
): Promise<{ order: OrderDetail; payment: PaymentForm | null }> {
  // A retried request finds its order before anything is looked up again (a pickup store, an
  // invoice carrier at ECPay) that might refuse it now; with nothing to look up, the transaction's
  // own check under the account's lock finds it.
  if (body.shipping.method === 'cvs' || body.invoice.type === 'mobile' || body.invoice.type === 'donation') {
    const earlier = await repo.findByIdempotencyKey(deps.db, userId, body.idempotencyKey);
    if (earlier)
      return { order: await present(deps.db, earlier), payment: await continuePayment(deps, earlier) };
  }

  const shipping = await shippingDetails(deps, body);
  const invoice: InvoiceDetails = { ...body.invoice, ...(await carrierUnverified(deps, body.invoice)) };
  const now = clock(deps);
  let placed: PlacedOrder;
  try {
    placed = await deps.db.transaction(async (tx): Promise<PlacedOrder> => {
      // One account's checkouts take turns on its locked row.
      const account = await repo.lockAccount(tx, userId);
      // A request with the same key that held the lock before this one made the order.
      const state = await repo.checkoutState(tx, userId, body.idempotencyKey, now);
      if (state.earlierId) throw new DuplicateOrder();
      assertMayOrder(account, state, body.paymentMethod);
      const pricing = await priceCart(tx, deps.discounts, userId, {
        shippingMethod: body.shipping.method,
        ...(body.shipping.method === 'home'
          ? { city: body.shipping.city, district: body.shipping.district }
          : { cvsBrand: body.shipping.cvsBrand, storeId: body.shipping.storeId }),
        paymentMethod: body.paymentMethod,
        couponCode: body.couponCode,
      });
      if (pricing.lines.length === 0) throw new ConflictError('購物車是空的，請先挑選商品。', 'cart-empty');
      const problems = pricing.lines.filter((l) => l.problem !== null);
      if (problems.length > 0) throw new AppError(409, 'cart-changed', problemMessage(problems));
      if (body.couponCode && pricing.couponError)
        throw new BadRequestError(pricing.couponError, { couponCode: pricing.couponError }, 'coupon-refused');

      const status: OrderStatus = body.paymentMethod === 'cod' ? 'processing' : 'pending_payment';
      // Card and ATM alike get the short hold; an issued ATM account later sets its own deadline.
      // Cash on delivery is being fulfilled, not waiting: it has no deadline (docs/product-rules.md).
      const expiresAt = body.paymentMethod === 'cod' ? null : new Date(now.getTime() + UNPAID_HOLD_MS);
      // The order, its first event and payment attempt in one statement; the number is drawn by it,
      // before stock is taken (formatOrderNo's format).
      const { order, event, payment, nameOrder } = await repo.insertNewOrder(tx, {
        order: {
          userId,
          status,
          paymentMethod: body.paymentMethod,
          shipping,
          invoice,
          subtotal: pricing.subtotal,
          discountTotal: pricing.discountTotal,
          discounts: pricing.discounts,
          shippingFee: pricing.shippingFee,
          total: pricing.total,
          note: body.note ?? '',
          idempotencyKey: body.idempotencyKey,
          expiresAt,
          createdAt: now,
          updatedAt: now,
        },
        orderNoPrefix: orderNoPrefix(now),
        event: {
          kind: 'status',
          status,
          note: status === 'processing' ? '貨到付款訂單成立，開始備貨' : '訂單成立，等待付款',
          createdAt: now,
        },
        payment:
          body.paymentMethod !== 'cod'
            ? { method: body.paymentMethod, amount: pricing.total, createdAt: now, updatedAt: now }
            : null,
        itemNames: pricing.lines.map((l) => l.name),
      });
      const orderNo = order.orderNo;
      await cart.removeBought(
        tx,
        userId,
        pricing.lines.map((l) => l.variantId),
      );
      // 「儲存這個地址」: into the address book with the order (under the same account lock).
      if (body.saveAddress) await saveOrderDestination(tx, userId, shipping);
      await pricing.commit?.(tx, order.id);
      // The account was read under its lock a moment ago; the lines are listed as the order's page lists them.
      await enqueueOrderMails(
        tx,
        deps,
        order,
        'placed',
        {},
        {
          owner: account,
          items: nameOrder.map((i) => ({
            productName: pricing.lines[i]!.name,
            variantLabel: pricing.lines[i]!.variantLabel,
            quantity: pricing.lines[i]!.quantity,
            lineTotal: pricing.lines[i]!.lineTotal,
          })),
        },
      );
      if (body.paymentMethod === 'cod') await prepareParcelLater(tx, deps, order);
      // Stock is taken last: a variant's row stays locked from its update to the commit, so buyers
      // of the same variant wait for each other only that long (docs/decisions/021 and 022). In a
      // fixed order, so two orders never wait on each other's rows; each line writes its sale to the
      // stock ledger under the order's number, in the same statement. Not enough left rolls the
      // whole order back. The order's lines are written with the last sale: their foreign keys lock
      // the variants' rows, which this order holds by then. Written earlier, every buyer waiting for
      // the variant would hold that lock too, and PostgreSQL would share the row among them all (a
      // multixact per buyer and sale, which made the database the bottleneck).
      const sorted = [...pricing.lines].sort((a, b) => a.variantId.localeCompare(b.variantId));
      const lines = repo.insertItemsStatement(
        tx,
        pricing.lines.map((l) => ({
          orderId: order.id,
          productId: l.productId,
          variantId: l.variantId,
          productSlug: l.slug,
          productName: l.name,
          variantLabel: l.variantLabel,
          sku: l.sku,
          image: pricing.rows.find((r) => r.variantId === l.variantId)?.images[0] ?? null,
          unitPrice: l.unitPrice,
          quantity: l.quantity,
          lineTotal: l.lineTotal,
        })),
      );
      let written: Array<Record<string, unknown>> | null = null;
      for (const [n, line] of sorted.entries()) {
        const sale = { kind: 'sale' as const, orderNo };
        const taken =
          n < sorted.length - 1
            ? await stock.takeStock(tx, line.variantId, line.quantity, sale)
            : (written = await stock.takeStockWith(tx, line.variantId, line.quantity, sale, lines)) !== null;
        if (!taken)
          throw new AppError(
            409,
            'insufficient-stock',
            `「${line.name}（${line.variantLabel}）」剛好被買走了，庫存不足。請回到購物車調整數量。`,
          );
      }
      // In `itemsOf`'s order (by name, as the database sorts).
      const rank = new Map(nameOrder.map((i, k) => [pricing.lines[i]!.variantId, k]));
      const items = repo
        .itemsFromJson(written ?? [])
        .sort((a, b) => (rank.get(a.variantId ?? '') ?? 0) - (rank.get(b.variantId ?? '') ?? 0));
      return { order, items, event, payment };
    });
  } catch (error) {
    if (error instanceof DuplicateOrder) {
      const first = await repo.findByIdempotencyKey(deps.db, userId, body.idempotencyKey);
      if (first) return { order: await present(deps.db, first), payment: await continuePayment(deps, first) };
    }
    throw error;
  }

  const { order, items, event, payment } = placed;
  // A sale changes stock only: the catalogue puts the new stock in place (docs/decisions/022).
  stockChanged(items.flatMap((i) => (i.productId ? [i.productId] : [])));
  await afterChange(deps, order, 'placed');
  return {
    order: await present(deps.db, order, { items, events: [event], payment, isNew: true }),
    payment: continuePaymentWith(deps, order, payment, items),
  };
}

/** `TW` and the order's day in Taipei: an order number without its sequence number (formatOrderNo). */
const orderNoPrefix = (date: Date) => formatOrderNo(date, 0).slice(0, -6);

/** The payment form for an order that can still be paid, reusing its open attempt. */
async function continuePayment(deps: OrderDeps, order: repo.OrderRow): Promise<PaymentForm | null> {
  if (order.paymentMethod === 'cod' || !['pending_payment', 'payment_failed'].includes(order.status))
    return null;
  const attempt = await repo.latestPayment(deps.db, order.id);
  if (!attempt || attempt.status !== 'pending') return null;
  return continuePaymentWith(deps, order, attempt, await repo.itemsOf(deps.db, order.id));
}

/** `continuePayment` with the order's latest payment attempt and its items already in hand. */
function continuePaymentWith(
  deps: OrderDeps,
  order: repo.OrderRow,
  attempt: repo.PaymentRow | null,
  items: readonly repo.OrderItemRow[],
): PaymentForm | null {
  if (order.paymentMethod === 'cod' || !['pending_payment', 'payment_failed'].includes(order.status))
    return null;
  if (!attempt || attempt.status !== 'pending') return null;
  return paymentForm(
    deps.gateway,
    { ...attempt, method: attempt.method },
    {
      orderNo: order.orderNo,
      itemNames: items.map((i) => `${i.productName} ${i.variantLabel} x ${i.quantity}`),
    },
  );
}

/**
 * A new payment attempt for an unpaid order (after a failure, or to pay again). Decided on the
 * order's locked row, so an order paid a moment ago is refused, and the order's deadline stays
 * where it was: paying again never extends the hold (docs/product-rules.md).
 */
export async function payAgain(deps: OrderDeps, userId: string, orderNo: string): Promise<PaymentForm> {
  const now = clock(deps);
  const { order, attempt } = await deps.db.transaction(async (tx) => {
    const order = await repo.findByOrderNo(tx, orderNo, { forUpdate: true });
    // Someone else's order is answered exactly like a missing one.
    if (!order || order.userId !== userId) throw new NotFoundError('找不到這筆訂單。');
    if (order.paymentMethod === 'cod') throw new ConflictError('貨到付款訂單不需要線上付款。', 'not-payable');
    if (!OPEN_UNPAID.includes(order.status))
      throw new ConflictError(
        `這筆訂單目前為「${ORDER_STATUS_LABELS[order.status]}」，無法付款。`,
        'not-payable',
      );
    if (order.expiresAt && order.expiresAt <= now)
      throw new ConflictError('這筆訂單已超過付款期限，商品會放回庫存；請重新下單。', 'not-payable');
    const latest = await repo.latestPayment(tx, order.id);
    if (latest?.status === 'waiting_transfer')
      throw new ConflictError('這筆訂單已取得 ATM 虛擬帳號，請直接轉帳。', 'not-payable');
    const n = (await repo.countPayments(tx, order.id)) + 1;
    const attempt = await repo.insertPayment(tx, {
      orderId: order.id,
      merchantTradeNo: `${order.orderNo}P${n}`,
      method: order.paymentMethod,
      amount: order.total,
      createdAt: now,
      updatedAt: now,
    });
    return { order, attempt };
  });
  const items = await repo.itemsOf(deps.db, order.id);
  return paymentForm(
    deps.gateway,
    { ...attempt, method: attempt.method },
    {
      orderNo: order.orderNo,
      itemNames: items.map((i) => `${i.productName} ${i.variantLabel} x ${i.quantity}`),
    },
  );
}

// ── reading ─────────────────────────────────────────────────────────────────────────────────────

async function ownOrder(db: DbOrTx, userId: string, orderNo: string): Promise<repo.OrderRow> {
  const order = await repo.findByOrderNo(db, orderNo);
  // Someone else's order is answered exactly like a missing one.
  if (!order || order.userId !== userId) throw new NotFoundError('找不到這筆訂單。');
  return order;
}

/** A refused payment as one sentence: the gateway's reason when it gave one, ending in 。. */
function failedPaymentMessage(reason: string | null | undefined): string {
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
              ? failedPaymentMessage(payment.rtnMsg)
              : (PAYMENT_MESSAGES[payment.status] ?? null),
          atm: payment.atm
            ? {
                ...payment.atm,
                bank: bankLabel(payment.atm.bankCode),
                deadline: atmDeadline(payment.atm.expireDate),
              }
            : null,
          paidAt: payment.paidAt?.toISOString() ?? null,
        }
      : null,
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
function needsNewStore(
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

/**
 * A mobile barcode or donation code ECPay does not know is refused beside its field; one that
 * could not be checked (the service is down) is taken and marked, to be checked again before the
 * invoice is issued.
 */
async function carrierUnverified(
  deps: OrderDeps,
  invoice: PlaceOrderBody['invoice'],
): Promise<{ unverified?: true }> {
  if (!deps.checkCarrier || (invoice.type !== 'mobile' && invoice.type !== 'donation')) return {};
  const [kind, code, field] =
    invoice.type === 'mobile'
      ? (['mobile', invoice.mobileBarcode, 'invoice.mobileBarcode'] as const)
      : (['donation', invoice.donationCode, 'invoice.donationCode'] as const);
  const result = await deps.checkCarrier(kind, code);
  if (result === 'invalid')
    throw new BadRequestError(
      CARRIER_NOT_FOUND[kind],
      { [field]: CARRIER_NOT_FOUND[kind] },
      'carrier-not-found',
    );
  return result === 'unverified' ? { unverified: true } : {};
}

/**
 * The recipient and destination of the member's newest order, for a checkout that starts with
 * nothing typed and no saved address. A pickup store the maps no longer name is left out (the
 * member picks one again); the name and phone still come along.
 */
export async function lastRecipient(db: DbOrTx, userId: string): Promise<LastRecipientResponse> {
  const s = await repo.lastShipping(db, userId);
  if (!s) return { recipient: null };
  const store =
    s.method === 'cvs' && s.cvsBrand && s.storeId
      ? await knownStore(db, s.cvsBrand as CvsBrandCode, s.storeId)
      : null;
  return {
    recipient: {
      shippingMethod: s.method,
      recipientName: s.recipientName,
      phone: s.phone,
      city: s.method === 'home' ? (s.city ?? '') : '',
      district: s.method === 'home' ? (s.district ?? '') : '',
      address: s.method === 'home' ? (s.address ?? '') : '',
      cvsBrand:
        s.method === 'cvs' && (CVS_BRANDS as readonly string[]).includes(s.cvsBrand ?? '')
          ? (s.cvsBrand as CvsBrandCode)
          : null,
      storeId: store?.id ?? '',
      storeName: store?.name ?? '',
      storeAddress: store?.address ?? '',
      storePhone: store?.phone ?? '',
      storeOutlying: store?.outlying ?? false,
    },
  };
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

// ── changes ─────────────────────────────────────────────────────────────────────────────────────

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
  // Paid spending changed: the member's tier may have too (published live when it does).
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
async function prepareParcelLater(
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

export type ChangeDeps = Pick<
  OrderDeps,
  'db' | 'mailer' | 'events' | 'publicUrl' | 'now' | 'shopNotifyEmail' | 'autoParcel'
>;

/**
 * Whether the buyer may cancel the order themselves: until it ships, and while no logistics order
 * is made for it (the parcel would then have to be called back by the shop).
 */
async function memberMayCancel(db: DbOrTx, order: Pick<repo.OrderRow, 'id' | 'status'>): Promise<boolean> {
  if (!MEMBER_CANCELLABLE.includes(order.status)) return false;
  return OPEN_UNPAID.includes(order.status) || !(await parcelOf(db, order.id));
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
async function cartChanged(deps: Pick<OrderDeps, 'events'>, userId: string): Promise<void> {
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
 * (docs/product-rules.md). The same answer for every door an order can be moved through.
 */
export function moveRefusal(
  order: Pick<repo.OrderRow, 'status' | 'paymentMethod'>,
  move: Pick<OrderMove, 'to' | 'carrier' | 'latePayment'>,
): AppError | null {
  const restoring = move.latePayment === true && order.status === 'expired' && move.to === 'paid';
  if (!restoring && !canTransition(order.status, move.to)) {
    return new ConflictError(
      `訂單目前為「${ORDER_STATUS_LABELS[order.status]}」，不能改為「${ORDER_STATUS_LABELS[move.to]}」。`,
      'invalid-transition',
    );
  }
  // Cash on delivery collects nothing before delivery: such an order is cancelled, not refunded.
  if (
    move.to === 'refunded' &&
    order.paymentMethod === 'cod' &&
    !['delivered', 'completed'].includes(order.status)
  ) {
    return new ConflictError(
      '貨到付款訂單送達前尚未收款，不需要退款；請改用「取消訂單」。',
      'invalid-transition',
    );
  }
  if (move.to === 'shipped' && move.carrier && !(CARRIERS as readonly string[]).includes(move.carrier)) {
    return new BadRequestError('請選擇物流業者。', { carrier: '請選擇物流業者' });
  }
  return null;
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

// ── payment results (called by the ECPay notification handlers) ────────────────────────────────

export type PaymentOutcome = 'ok' | 'unknown-trade' | 'amount-mismatch';

export interface PaidNotice {
  merchantTradeNo: string;
  amount: number;
  tradeNo: string;
  rtnCode: string;
  rtnMsg: string;
  /** Card: the authorisation number (gwsr), for a later refund. */
  gwsr?: string | undefined;
}

/**
 * A successful payment notification. Idempotent: a repeated notice changes nothing. A payment
 * that arrives after its order expired takes the stock back if it is still there.
 */
export async function recordPaid(deps: ChangeDeps, notice: PaidNotice): Promise<PaymentOutcome> {
  const now = clock(deps);
  let cartTaken = false;
  const result = await deps.db
    .transaction(async (tx) => {
      cartTaken = false;
      const payment = await repo.findPayment(tx, notice.merchantTradeNo, { forUpdate: true });
      if (!payment) return { outcome: 'unknown-trade' as const };
      if (payment.amount !== notice.amount) return { outcome: 'amount-mismatch' as const };
      if (payment.status === 'paid') return { outcome: 'ok' as const };
      await repo.updatePayment(tx, payment.id, {
        status: 'paid',
        tradeNo: notice.tradeNo,
        rtnCode: notice.rtnCode,
        rtnMsg: notice.rtnMsg,
        paidAt: now,
        gwsr: notice.gwsr ?? null,
      });
      const order = await repo.findById(tx, payment.orderId, { forUpdate: true });
      if (!order) return { outcome: 'ok' as const };
      const latePayment = order.status === 'expired';
      // Through the one door like every other change: a paid notice for an order that can no longer
      // be paid (cancelled, refunded, already paid) is refused there and changes nothing but its note.
      const refusal = moveRefusal(order, { to: 'paid', latePayment });
      if (refusal) {
        await repo.insertEvent(tx, {
          orderId: order.id,
          kind: 'status',
          status: order.status,
          note: '訂單取消後收到款項，客服會為您辦理退款',
          createdAt: now,
        });
        return { outcome: 'ok' as const, order };
      }
      if (latePayment) {
        // Back to paid only by taking again everything expiry gave back: the stock, and the coupon
        // uses within their limits. Otherwise the whole attempt rolls back (docs/product-rules.md).
        let restored: MovedOrder;
        try {
          restored = await applyTransition(
            tx,
            order,
            {
              to: 'paid',
              latePayment,
              note: '逾期後收到款項，商品仍有庫存，訂單恢復成立',
              extra: { paidAt: now },
            },
            now,
          );
        } catch (error) {
          if (error instanceof AppError && error.code === 'insufficient-stock')
            throw new LatePaymentNotRestored(order.id, '逾期後收到款項，但商品已售完，客服會為您辦理退款');
          throw error;
        }
        if (!(await reclaimCouponUses(tx, order)))
          throw new LatePaymentNotRestored(
            order.id,
            '逾期後收到款項，但訂單使用的優惠券已無法再使用，客服會為您辦理退款',
          );
        cartTaken = restored.cartChanged === true;
      } else {
        await applyTransition(tx, order, { to: 'paid', note: '付款完成', extra: { paidAt: now } }, now);
      }
      await repo.addSoldCount(tx, order.id);
      const paid = { ...order, status: 'paid' as const, paidAt: now };
      await enqueueOrderMails(tx, deps, paid, 'paid');
      await prepareParcelLater(tx, deps, paid);
      return { outcome: 'ok' as const, order: paid, paid: true };
    })
    .catch(async (error: unknown) => {
      // Not restored: keep the payment on record (outside the failed transaction) for a refund.
      if (!(error instanceof LatePaymentNotRestored)) throw error;
      const payment = await repo.findPayment(deps.db, notice.merchantTradeNo);
      if (payment)
        await repo.updatePayment(deps.db, payment.id, {
          status: 'paid',
          tradeNo: notice.tradeNo,
          rtnCode: notice.rtnCode,
          rtnMsg: notice.rtnMsg,
          paidAt: now,
        });
      await repo.insertEvent(deps.db, {
        orderId: error.orderId,
        kind: 'status',
        status: 'expired',
        note: error.note,
        createdAt: now,
      });
      return { outcome: 'ok' as const };
    });
  if ('order' in result && result.order) {
    if ('paid' in result && result.paid) catalogChanged();
    await afterChange(deps, result.order, 'paid' in result && result.paid ? 'paid' : 'status');
    if (cartTaken) await cartChanged(deps, result.order.userId);
  }
  return result.outcome;
}

class LatePaymentNotRestored extends Error {
  constructor(
    readonly orderId: string,
    readonly note: string,
  ) {
    super('late payment could not restore the order');
  }
}

export async function recordFailed(deps: ChangeDeps, notice: PaidNotice): Promise<PaymentOutcome> {
  const now = clock(deps);
  const result = await deps.db.transaction(async (tx) => {
    const payment = await repo.findPayment(tx, notice.merchantTradeNo, { forUpdate: true });
    if (!payment) return { outcome: 'unknown-trade' as const };
    if (payment.amount !== notice.amount) return { outcome: 'amount-mismatch' as const };
    if (payment.status !== 'pending') return { outcome: 'ok' as const };
    await repo.updatePayment(tx, payment.id, {
      status: 'failed',
      tradeNo: notice.tradeNo,
      rtnCode: notice.rtnCode,
      rtnMsg: notice.rtnMsg,
    });
    const order = await repo.findById(tx, payment.orderId, { forUpdate: true });
    if (!order || order.status !== 'pending_payment') return { outcome: 'ok' as const };
    const failed = await applyTransition(
      tx,
      order,
      { to: 'payment_failed', note: failedPaymentMessage(notice.rtnMsg) },
      now,
    );
    await enqueueOrderMails(tx, deps, failed, 'status', { note: failedPaymentMessage(notice.rtnMsg) });
    return { outcome: 'ok' as const, order: failed };
  });
  if ('order' in result && result.order) await afterChange(deps, result.order, 'status');
  return result.outcome;
}

/**
 * ATM virtual account issued: shown to the member and mailed, and the account's own deadline
 * becomes the order's (until then the order had only the short hold). An account issued for an
 * order that is no longer waiting for payment changes nothing and is not mailed: a transfer to it
 * is handled as a late payment (docs/product-rules.md).
 */
export async function recordAtmInfo(
  deps: ChangeDeps,
  notice: PaidNotice & { bankCode: string; account: string; expireDate: string },
): Promise<PaymentOutcome> {
  const result = await deps.db.transaction(async (tx) => {
    const payment = await repo.findPayment(tx, notice.merchantTradeNo, { forUpdate: true });
    if (!payment) return { outcome: 'unknown-trade' as const };
    if (payment.amount !== notice.amount) return { outcome: 'amount-mismatch' as const };
    if (payment.status !== 'pending') return { outcome: 'ok' as const };
    const order = await repo.findById(tx, payment.orderId, { forUpdate: true });
    if (!order || !OPEN_UNPAID.includes(order.status)) return { outcome: 'ok' as const };
    const atm = { bankCode: notice.bankCode, account: notice.account, expireDate: notice.expireDate };
    await repo.updatePayment(tx, payment.id, {
      status: 'waiting_transfer',
      tradeNo: notice.tradeNo,
      rtnCode: notice.rtnCode,
      rtnMsg: notice.rtnMsg,
      atm,
    });
    // ExpireDate is a Taiwan date (yyyy/MM/dd): the account closes at the end of that day. One we
    // cannot read leaves the short hold in place.
    const deadline = new Date(`${notice.expireDate.replaceAll('/', '-').slice(0, 10)}T23:59:59+08:00`);
    if (!Number.isNaN(deadline.getTime())) await repo.setDeadline(tx, order.id, deadline);
    await repo.insertEvent(tx, {
      orderId: order.id,
      kind: 'status',
      status: order.status,
      note: `已取得 ATM 虛擬帳號，請於 ${atmDeadline(notice.expireDate)} 前轉帳`,
      createdAt: clock(deps),
    });
    await enqueueOrderMails(tx, deps, order, 'atm-info', { atm });
    return { outcome: 'ok' as const, order, atm };
  });
  if ('order' in result && result.order && 'atm' in result) await afterChange(deps, result.order, 'atm-info');
  return result.outcome;
}

/** The member's mail once money went back to them (the payments module sends it when ECPay confirms). */
export async function refundDoneMail(db: DbOrTx, orderId: string, amount: number, publicUrl: string) {
  const order = await repo.findById(db, orderId);
  const owner = order && (await repo.ownerOf(db, order.userId));
  if (!order || !owner?.emailVerifiedAt) return null;
  return orderRefundedMail(
    {
      orderNo: order.orderNo,
      email: owner.email,
      name: owner.name,
      total: order.total,
      paymentMethod: order.paymentMethod,
      items: [],
    },
    amount,
    publicUrl,
  );
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

/** The order of a payment attempt, for the browser's return from the gateway. */
export async function orderNoOfTrade(db: DbOrTx, merchantTradeNo: string): Promise<string | null> {
  const payment = await repo.findPayment(db, merchantTradeNo);
  if (!payment) return null;
  return (await repo.findById(db, payment.orderId))?.orderNo ?? null;
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
