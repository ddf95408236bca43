import { CARRIER_FOR_CVS_BRAND, type Carrier } from '@shop/shared/admin-orders';
import { isLogisticsName, type CvsBrandCode } from '@shop/shared/checkout';
import { isOutlying } from '@shop/shared/data/tw-districts';
import { formatTwd } from '@shop/shared/money';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { ShippingDetails } from '../../db/schema.ts';
import { ecpayDate } from '../../lib/ecpay-date.ts';
import { checkMacValue } from '../../lib/ecpay-check-mac.ts';
import { AppError, BadRequestError, ConflictError } from '../../lib/errors.ts';
import { FormPostError, type FormPost } from '../../lib/form-post.ts';
import {
  CVS_MAX_AMOUNT,
  labelForms,
  logisticsHost,
  parseCreateReply,
  shipmentFields,
  type LogisticsSettings,
  type Sender,
} from './ecpay.ts';
import * as repo from './shipments-repo.ts';
import { CAME_BACK, parcelStep } from './status-codes.ts';

/**
 * Logistics orders (ECPay's /Express/Create, or the sandbox's) for an order's parcel: made when
 * staff ship through ECPay, kept with what the store or carrier needs, and turned into the carrier
 * and tracking number the order's shipment shows (docs/decisions/013-ecpay-logistics.md).
 */

export interface ShipmentDeps {
  readonly db: Db;
  readonly settings: LogisticsSettings;
  readonly sender: Sender;
  readonly publicUrl: string;
  readonly post: FormPost;
  readonly now?: () => Date;
}

/** What the logistics order needs to know of the shop's order. */
export interface ParcelOrder {
  readonly id: string;
  readonly orderNo: string;
  readonly createdAt: Date;
  readonly total: number;
  /** Cash on delivery: the store collects the total at the counter. */
  readonly cashOnDelivery: boolean;
  readonly shipping: ShippingDetails;
  readonly email: string | null;
}

export interface ParcelShipped {
  readonly carrier: Carrier;
  readonly trackingNo: string;
}

export const NOTICE_PATH = '/api/logistics/notify';
export const STORE_NOTICE_PATH = '/api/logistics/store-notice';

const clock = (deps: ShipmentDeps) => (deps.now ? deps.now() : new Date());

/** The carrier and number staff and the buyer track the parcel by. */
function shippedAs(row: repo.ShipmentRow, shipping: ShippingDetails): ParcelShipped {
  if (row.logisticsType === 'HOME')
    return { carrier: '黑貓宅急便', trackingNo: row.bookingNote || row.logisticsId };
  const carrier = CARRIER_FOR_CVS_BRAND[shipping.cvsBrand ?? ''] ?? '7-ELEVEN 交貨便';
  return { carrier, trackingNo: `${row.cvsPaymentNo}${row.cvsValidationNo}` || row.logisticsId };
}

/** Why ECPay would refuse this parcel, in words staff can act on; null when it can go. */
function refusal(order: ParcelOrder): { message: string; field?: string } | null {
  const s = order.shipping;
  if (!isLogisticsName(s.recipientName)) {
    return {
      message: `物流規定收件人姓名須為 2–5 個中文字或 4–10 個英文字母（不含空白、數字與符號）；這筆訂單的「${s.recipientName}」不符合，請先與買家確認正確姓名。`,
    };
  }
  if (!/^09\d{8}$/.test(s.phone)) return { message: '物流需要收件人的手機號碼（09 開頭 10 碼）。' };
  if (s.method === 'cvs') {
    if (!s.cvsBrand || !s.storeId) return { message: '這筆訂單沒有取貨門市。' };
    if (order.total > CVS_MAX_AMOUNT)
      return {
        message: `超商取貨的商品金額上限為 ${formatTwd(CVS_MAX_AMOUNT)}，這筆訂單超過了，請與買家改用宅配。`,
      };
  } else if (!s.postalCode || !s.address) {
    return { message: '這筆訂單缺少郵遞區號或地址。' };
  } else if (order.cashOnDelivery) {
    // ECPay's home delivery collects no cash: the parcel would go out and the money never come in.
    return {
      message:
        '綠界的宅配不代收貨款。這筆宅配貨到付款訂單請以能代收的物流寄出，並手動填寫物流業者與追蹤編號。',
    };
  }
  return null;
}

/**
 * Makes (or finds, when an earlier try already made it) the logistics order for an order's parcel.
 * A refusal from ECPay changes nothing on the order and says why (502 `logistics-error`).
 */
export async function shipParcel(deps: ShipmentDeps, order: ParcelOrder): Promise<ParcelShipped> {
  // A parcel already made and still on its way is this shipment; one that came back is not.
  const made = await repo.latestForOrder(deps.db, order.id);
  const step = made ? parcelStep(made.statusCode) : null;
  if (made && !(step && CAME_BACK.includes(step))) return shippedAs(made, order.shipping);
  const problem = refusal(order);
  if (problem) throw new BadRequestError(problem.message);

  const s = order.shipping;
  const collectionAmount = s.method === 'cvs' && order.cashOnDelivery ? order.total : 0;
  const attempt = (await repo.attemptsForOrder(deps.db, order.id)) + 1;
  const merchantTradeNo = `${order.orderNo}L${attempt}`;
  const fields = shipmentFields(
    deps.settings,
    deps.sender,
    {
      merchantTradeNo,
      orderedAt: order.createdAt,
      goodsAmount: order.total,
      collectionAmount,
      goodsName: `山嵐茶事訂單${order.orderNo}`,
      receiver: { name: s.recipientName, cellPhone: s.phone, ...(order.email ? { email: order.email } : {}) },
      destination:
        s.method === 'cvs'
          ? { kind: 'CVS', brand: s.cvsBrand as CvsBrandCode, storeId: s.storeId! }
          : {
              kind: 'HOME',
              zip: s.postalCode!,
              address: `${s.city ?? ''}${s.district ?? ''}${s.address ?? ''}`,
              sameCity: deps.sender.address.startsWith(s.city ?? '\u0000'),
              // The rule the quote charged the island surcharge by (Distance 02, 離島).
              outlying: isOutlying(s.city ?? '', s.district ?? ''),
            },
      serverReplyUrl: `${deps.publicUrl}${NOTICE_PATH}`,
      storeNoticeUrl: `${deps.publicUrl}${STORE_NOTICE_PATH}`,
    },
    ecpayDate(order.createdAt),
  );

  let text: string;
  try {
    text = await deps.post(`${logisticsHost(deps.settings, deps.publicUrl)}/Express/Create`, fields);
  } catch (error) {
    if (error instanceof FormPostError)
      throw new AppError(502, 'logistics-error', '無法連線到綠界物流，物流單沒有建立，請稍後再試。');
    throw error;
  }
  const reply = parseCreateReply(deps.settings, text);
  if (!reply.ok)
    throw new AppError(502, 'logistics-error', `綠界物流沒有接受這張物流單：${reply.message.slice(0, 120)}`);
  const f = reply.fields;
  const row = await repo.insertShipment(deps.db, {
    orderId: order.id,
    merchantTradeNo,
    logisticsId: f.AllPayLogisticsID!,
    logisticsType: s.method === 'cvs' ? 'CVS' : 'HOME',
    subType: fields.LogisticsSubType!,
    goodsAmount: order.total,
    collectionAmount,
    cvsPaymentNo: f.CVSPaymentNo ?? '',
    cvsValidationNo: f.CVSValidationNo ?? '',
    bookingNote: f.BookingNote ?? '',
    statusCode: Number(f.RtnCode ?? 300) || 300,
    statusMessage: f.RtnMsg ?? '',
    createdAt: clock(deps),
    updatedAt: clock(deps),
  });
  return shippedAs(row, s);
}

/**
 * The print forms for these orders' labels (their newest parcels), in the order asked; orders
 * without a parcel made through ECPay are named so staff know to print those by hand.
 */
export async function labelsFor(
  deps: Pick<ShipmentDeps, 'db' | 'settings' | 'publicUrl'>,
  orderNos: readonly string[],
) {
  const found = await repo.latestForOrders(deps.db, orderNos);
  const byOrder = new Map(found.map((s) => [s.orderNo, s]));
  const parcels = orderNos.flatMap((n) => (byOrder.has(n) ? [byOrder.get(n)!] : []));
  return {
    forms: labelForms(deps.settings, deps.publicUrl, parcels),
    missing: orderNos.filter((n) => !byOrder.has(n)),
  };
}

/** The order's newest parcel made through ECPay, or null. */
export function parcelOf(db: Db | DbOrTx, orderId: string): Promise<repo.ShipmentRow | null> {
  return repo.latestForOrder(db, orderId);
}

/**
 * Tells ECPay a parcel's new pickup store (store to store: /Express/UpdateStoreInfo, StoreType 01).
 * A B2C parcel's store is changed by ECPay's other call, made by staff: refused here with that said.
 */
export async function changeParcelStore(deps: ShipmentDeps, orderId: string, storeId: string): Promise<void> {
  const parcel = await repo.latestForOrder(deps.db, orderId);
  if (!parcel || parcel.logisticsType !== 'CVS')
    throw new ConflictError('這筆訂單沒有綠界的超商物流單，請與客服聯絡更換門市。', 'invalid-transition');
  if (!parcel.subType.endsWith('C2C'))
    throw new ConflictError('這筆訂單的門市需由客服協助更換，請與我們聯絡。', 'invalid-transition');
  const fields: Record<string, string> = {
    MerchantID: deps.settings.merchantId,
    AllPayLogisticsID: parcel.logisticsId,
    CVSPaymentNo: parcel.cvsPaymentNo,
    CVSValidationNo: parcel.cvsValidationNo,
    StoreType: '01',
    ReceiverStoreID: storeId,
  };
  let answer: string;
  try {
    answer = (
      await deps.post(`${logisticsHost(deps.settings, deps.publicUrl)}/Express/UpdateStoreInfo`, {
        ...fields,
        CheckMacValue: checkMacValue(fields, deps.settings.hashKey, deps.settings.hashIV, 'md5'),
      })
    ).trim();
  } catch (error) {
    if (error instanceof FormPostError)
      throw new AppError(502, 'logistics-error', '無法連線到綠界物流，門市沒有更換，請稍後再試。');
    throw error;
  }
  if (answer !== '1|OK')
    throw new AppError(
      502,
      'logistics-error',
      `綠界物流沒有接受新門市：${answer.replace(/^0\|/, '').slice(0, 120)}`,
    );
}
