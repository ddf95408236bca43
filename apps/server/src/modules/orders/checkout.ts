import type { CartLine } from '@shop/shared/cart';
import {
  CVS_BRANDS,
  CheckoutErrorCode,
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
  MAX_OPEN_COD_ORDERS,
  MAX_OPEN_UNPAID_ORDERS,
  OPEN_UNPAID,
  ORDER_STATUS_LABELS,
  UNPAID_HOLD_MS,
  type OrderStatus,
} from '@shop/shared/order-status';
import type { OrderDetail, PaymentForm } from '@shop/shared/orders';
import { SHIPPING_METHOD_LABELS, shippingFee } from '@shop/shared/shipping';
import type { DbOrTx } from '../../db/client.ts';
import type { InvoiceDetails, ShippingDetails } from '../../db/schema.ts';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '../../lib/errors.ts';
import * as cart from '../cart/service.ts';
import { stockChanged } from '../catalog/service.ts';
import * as stock from '../catalog/stock.ts';
import type { DiscountProvider } from '../discounts/provider.ts';
import { saveOrderDestination } from '../membership/profile.ts';
import { shippingRules } from '../site/shipping-rules.ts';
import { knownStore } from '../logistics/stores.ts';
import { paymentForm } from '../payments/gateway.ts';
import { currentStorePaymentSettings, storePaymentSettings } from '../site/admin-service.ts';
import {
  storePaymentOffer,
  storePaymentRefusal,
  type StorePaymentSettings,
} from '@shop/shared/store-payments';
import { CARRIER_NOT_FOUND } from '@shop/shared/carrier-check';
import { enqueueOrderMails } from './notify.ts';
import * as repo from './repo.ts';
import { taipeiDay } from '@shop/shared/taipei-time';
import { clock, type OrderDeps } from './order-deps.ts';
import { present } from './read-models.ts';
import { afterChange, prepareParcelLater } from './lifecycle.ts';

/**
 * Checkout: pricing a cart (the quote), placing an order in one transaction, and the payment form
 * for an order that can still be paid (paying again). Where a new checkout starts (lastRecipient)
 * is here too. Status changes after placing go through lifecycle.ts.
 */

export function formatOrderNo(date: Date, seq: number): string {
  return `TW${taipeiDay(date, '')}${String(seq).padStart(6, '0')}`;
}

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
    storePayments: storePaymentOffer(await currentStorePaymentSettings(db), amount + fee.total),
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

  if (body.paymentMethod === 'line_pay' && !deps.linePayOffered)
    throw new BadRequestError(
      '目前無法使用 LINE Pay 付款，請改用其他付款方式。',
      { paymentMethod: '目前無法使用 LINE Pay 付款，請改用其他付款方式' },
      'payment-method-unavailable',
    );
  const shipping = await shippingDetails(deps, body);
  const invoice: InvoiceDetails = { ...body.invoice, ...(await carrierUnverified(deps, body.invoice)) };
  const now = clock(deps);
  let placed: PlacedOrder;
  let store: StorePaymentSettings | undefined;
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
      // A store payment outside its range, or a term not offered for this total, is refused here
      // too: the checkout hides them, but a stale page or a hand-made request could still ask.
      store = await storePaymentSettings(tx);
      const refusal = storePaymentRefusal(store, body.paymentMethod, pricing.total, body.installments);
      if (refusal)
        throw new BadRequestError(
          refusal,
          body.installments !== undefined ? { installments: refusal } : { paymentMethod: refusal },
          'payment-method-refused',
        );

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
          installments: body.installments ?? null,
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
            ? {
                method: body.paymentMethod,
                provider: body.paymentMethod === 'line_pay' ? 'linepay' : 'ecpay',
                amount: pricing.total,
                installments: body.installments ?? null,
                createdAt: now,
                updatedAt: now,
              }
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
      // of the same variant wait for each other only that long (docs/decisions/021 and 022). The
      // stock service writes the order's lines with the sales (takeStockForOrderLines says why).
      // Not enough left rolls the whole order back.
      const taken = await stock.takeStockForOrderLines(
        tx,
        orderNo,
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
      if ('short' in taken)
        throw new AppError(
          409,
          'insufficient-stock',
          `「${taken.short.productName}（${taken.short.variantLabel}）」剛好被買走了，庫存不足。請回到購物車調整數量。`,
        );
      // In `itemsOf`'s order (by name, as the database sorts).
      const rank = new Map(nameOrder.map((i, k) => [pricing.lines[i]!.variantId, k]));
      const items = repo
        .itemsFromJson(taken.written)
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
    payment: continuePaymentWith(deps, order, payment, items, store ?? (await storePaymentSettings(deps.db))),
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
  return continuePaymentWith(
    deps,
    order,
    attempt,
    await repo.itemsOf(deps.db, order.id),
    await storePaymentSettings(deps.db),
  );
}

/** `continuePayment` with the order's latest payment attempt and its items already in hand. */
function continuePaymentWith(
  deps: OrderDeps,
  order: repo.OrderRow,
  attempt: repo.PaymentRow | null,
  items: readonly repo.OrderItemRow[],
  store: StorePaymentSettings,
): PaymentForm | null {
  if (order.paymentMethod === 'cod' || !['pending_payment', 'payment_failed'].includes(order.status))
    return null;
  if (!attempt || attempt.status !== 'pending') return null;
  return paymentForm(deps.gateway, attempt, { orderNo: order.orderNo, itemNames: itemNames(items) }, store);
}

const itemNames = (items: readonly repo.OrderItemRow[]) =>
  items.map((i) => `${i.productName} ${i.variantLabel} x ${i.quantity}`);

/**
 * A new payment attempt for an unpaid order (after a failure, or to pay again). Decided on the
 * order's locked row, so an order paid a moment ago is refused, and the order's deadline stays
 * where it was: paying again never extends the hold (docs/product-rules.md).
 */
export async function payAgain(deps: OrderDeps, userId: string, orderNo: string): Promise<PaymentForm> {
  const now = clock(deps);
  const { order, attempt } = await deps.db.transaction((tx) => openAttempt(tx, userId, orderNo, now));
  const items = await repo.itemsOf(deps.db, order.id);
  return paymentForm(
    deps.gateway,
    attempt,
    { orderNo: order.orderNo, itemNames: itemNames(items) },
    await storePaymentSettings(deps.db),
  );
}

/**
 * The payment attempt an unpaid order is paid with now, on the order's locked row: a new one
 * (numbered after the others), or the latest when `reuse` accepts it. Refuses someone else's order
 * (as a missing one), cash on delivery, an order that can no longer be paid, one past its deadline
 * and one waiting for an ATM transfer or a payment at a store; `method`, when given, is the only one accepted.
 */
export async function openAttempt(
  tx: DbOrTx,
  userId: string,
  orderNo: string,
  now: Date,
  opts: { method?: 'line_pay'; reuse?: (latest: repo.PaymentRow) => boolean } = {},
): Promise<{ order: repo.OrderRow; attempt: repo.PaymentRow }> {
  const order = await repo.findByOrderNo(tx, orderNo, { forUpdate: true });
  // Someone else's order is answered exactly like a missing one.
  if (!order || order.userId !== userId) throw new NotFoundError('找不到這筆訂單。');
  if (order.paymentMethod === 'cod') throw new ConflictError('貨到付款訂單不需要線上付款。', 'not-payable');
  if (opts.method && order.paymentMethod !== opts.method)
    throw new ConflictError('這筆訂單不是用 LINE Pay 付款。', 'not-payable');
  if (!OPEN_UNPAID.includes(order.status))
    throw new ConflictError(
      `這筆訂單目前為「${ORDER_STATUS_LABELS[order.status]}」，無法付款。`,
      'not-payable',
    );
  if (order.expiresAt && order.expiresAt <= now)
    throw new ConflictError('這筆訂單已超過付款期限，商品會放回庫存；請重新下單。', 'not-payable');
  const latest = await repo.latestPayment(tx, order.id);
  if (latest?.status === 'waiting_transfer')
    throw new ConflictError(
      latest.store
        ? '這筆訂單已取得超商繳費代碼，請直接到超商繳費。'
        : '這筆訂單已取得 ATM 虛擬帳號，請直接轉帳。',
      'not-payable',
    );
  if (latest && opts.reuse?.(latest)) return { order, attempt: latest };
  const n = (await repo.countPayments(tx, order.id)) + 1;
  const attempt = await repo.insertPayment(tx, {
    orderId: order.id,
    merchantTradeNo: `${order.orderNo}P${n}`,
    method: order.paymentMethod,
    provider: order.paymentMethod === 'line_pay' ? 'linepay' : 'ecpay',
    amount: order.total,
    installments: order.installments,
    createdAt: now,
    updatedAt: now,
  });
  return { order, attempt };
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
