import { z } from 'zod';
import type { CvsBrandCode } from '@shop/shared/checkout';
import { checkMacValue, verifyCheckMacValue } from '../../lib/ecpay-check-mac.ts';

/**
 * ECPay logistics (物流整合) as the shop speaks it: the fields of the store map and its reply.
 * Facts from ECPay's public documents, with their sources: docs/integrations/ecpay-logistics.md.
 * Logistics signs with MD5, over the same string as payments' SHA256.
 */

export interface LogisticsSettings {
  readonly merchantId: string;
  readonly hashKey: string;
  readonly hashIV: string;
  /** ECPay's host; undefined for the built-in sandbox. */
  readonly endpoint: string | undefined;
  readonly type: 'B2C' | 'C2C';
}

/** LogisticsSubType per chain and contract. OK超商 ships only store to store (C2C). */
const SUBTYPES: Record<'B2C' | 'C2C', Partial<Record<CvsBrandCode, string>>> = {
  B2C: { '7-ELEVEN': 'UNIMART', FAMILY: 'FAMI', HILIFE: 'HILIFE' },
  C2C: { '7-ELEVEN': 'UNIMARTC2C', FAMILY: 'FAMIC2C', HILIFE: 'HILIFEC2C', OK: 'OKMARTC2C' },
};

export function logisticsSubType(type: 'B2C' | 'C2C', brand: CvsBrandCode): string | null {
  return SUBTYPES[type][brand] ?? null;
}

/** Where the sandbox answers, under the shop's own address. */
export const SANDBOX_LOGISTICS_PATH = '/sandbox/ecpay/logistics';

export function logisticsHost(settings: LogisticsSettings, publicUrl: string): string {
  return settings.endpoint ?? `${publicUrl}${SANDBOX_LOGISTICS_PATH}`;
}

export interface MapRequest {
  readonly token: string;
  readonly brand: CvsBrandCode;
  readonly device: 'pc' | 'mobile';
  /** The shop's map-reply endpoint (ServerReplyURL). */
  readonly serverReplyUrl: string;
}

/**
 * The store map's form (POST /Express/map). It is signed although ECPay reads the map request
 * without checking (its current SDK signs it; the older one did not): a signature costs nothing.
 */
export function mapForm(
  settings: LogisticsSettings,
  publicUrl: string,
  request: MapRequest,
): { action: string; fields: Record<string, string> } {
  const subType = logisticsSubType(settings.type, request.brand);
  if (!subType) throw new Error(`no ${settings.type} logistics for ${request.brand}`);
  const fields: Record<string, string> = {
    MerchantID: settings.merchantId,
    MerchantTradeNo: request.token,
    LogisticsType: 'CVS',
    LogisticsSubType: subType,
    IsCollection: 'N',
    ServerReplyURL: request.serverReplyUrl,
    ExtraData: '',
    Device: request.device === 'mobile' ? '1' : '0',
  };
  return {
    action: `${logisticsHost(settings, publicUrl)}/Express/map`,
    fields: { ...fields, CheckMacValue: checkMacValue(fields, settings.hashKey, settings.hashIV, 'md5') },
  };
}

const field = (max: number) => z.string().trim().min(1).max(max);

/**
 * The store map's reply, as posted to ServerReplyURL. ECPay does not sign it, so it is checked
 * for shape here and trusted only as far as its token (MerchantTradeNo) goes.
 */
export const MapReply = z.object({
  MerchantID: z
    .string()
    .max(10, { abort: true })
    .regex(/^\d{7,10}$/),
  MerchantTradeNo: z
    .string()
    .max(20, { abort: true })
    .regex(/^[A-Za-z0-9]{20}$/),
  LogisticsSubType: z
    .string()
    .max(20, { abort: true })
    .regex(/^[A-Z0-9]{3,20}$/),
  CVSStoreID: z
    .string()
    .max(20, { abort: true })
    .trim()
    .regex(/^[A-Za-z0-9]{1,10}$/),
  CVSStoreName: field(60),
  CVSAddress: field(120),
  CVSTelephone: z
    .string()
    .max(40, { abort: true })
    .trim()
    .max(20)
    .regex(/^[\d()#\s-]*$/)
    .optional()
    .default(''),
  CVSOutSide: z.enum(['0', '1']).optional().default('0'),
  ExtraData: z.string().max(20).optional(),
});
export type MapReply = z.infer<typeof MapReply>;

// ── the store list (POST /Helper/GetStoreList) ──────────────────────────────────────────────────

/** GetStoreList's CvsType per chain (one list serves B2C and C2C alike). */
export const STORE_LIST_TYPES: Readonly<Record<CvsBrandCode, string>> = {
  '7-ELEVEN': 'UNIMART',
  FAMILY: 'FAMI',
  HILIFE: 'HILIFE',
  OK: 'OKMART',
};

/** The signed request for one chain's stores. */
export function storeListFields(settings: LogisticsSettings, brand: CvsBrandCode): Record<string, string> {
  const fields = { MerchantID: settings.merchantId, CvsType: STORE_LIST_TYPES[brand] };
  return { ...fields, CheckMacValue: checkMacValue(fields, settings.hashKey, settings.hashIV, 'md5') };
}

/** One store as GetStoreList lists it. */
export interface ListedStore {
  readonly id: string;
  readonly name: string;
  readonly address: string;
  readonly phone: string;
}

const StoreListAnswer = z.object({
  RtnCode: z.coerce.number(),
  RtnMsg: z.string().optional(),
  StoreList: z
    .array(
      z.object({
        CvsType: z.string(),
        StoreInfo: z
          .array(
            z.object({
              StoreId: z.string(),
              StoreName: z.string(),
              StoreAddr: z.string(),
              StorePhone: z.string().nullish(),
            }),
          )
          .nullish(),
      }),
    )
    .nullish(),
});

/**
 * GetStoreList's answer (JSON: RtnCode 1, then StoreList[].StoreInfo[]) as the stores of one
 * CvsType; null for a refusal or an answer of another shape. ECPay does not sign this answer: it is
 * trusted because the shop asked ECPay for it over HTTPS, never because of what a browser sent.
 */
export function parseStoreList(text: string, cvsType: string): ListedStore[] | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const answer = StoreListAnswer.safeParse(json);
  if (!answer.success || answer.data.RtnCode !== 1) return null;
  return (answer.data.StoreList ?? [])
    .filter((l) => l.CvsType === cvsType)
    .flatMap((l) => l.StoreInfo ?? [])
    .map((st) => ({
      id: st.StoreId.trim(),
      name: st.StoreName.trim(),
      address: st.StoreAddr.trim(),
      phone: (st.StorePhone ?? '').trim(),
    }));
}

// ── shipments (POST /Express/Create) ────────────────────────────────────────────────────────────

export interface Sender {
  readonly name: string;
  readonly phone: string;
  readonly zip: string;
  readonly address: string;
}

export interface ShipmentRequest {
  readonly merchantTradeNo: string;
  /** When the buyer ordered (MerchantTradeDate). */
  readonly orderedAt: Date;
  readonly goodsAmount: number;
  /** Cash the store collects (超商取貨付款); 0 when paid online. */
  readonly collectionAmount: number;
  readonly goodsName: string;
  readonly receiver: { readonly name: string; readonly cellPhone: string; readonly email?: string };
  readonly destination:
    | { readonly kind: 'CVS'; readonly brand: CvsBrandCode; readonly storeId: string }
    | {
        readonly kind: 'HOME';
        readonly zip: string;
        readonly address: string;
        readonly sameCity: boolean;
        readonly outlying: boolean;
      };
  /** Where ECPay posts status notices (ServerReplyURL) and, for 7-ELEVEN C2C, store-closure notices. */
  readonly serverReplyUrl: string;
  readonly storeNoticeUrl: string;
}

/** Amounts a convenience store may carry or collect (1–20,000). */
export const CVS_MAX_AMOUNT = 20_000;

/** The signed fields of a logistics order for store pickup or home delivery (黑貓). */
export function shipmentFields(
  settings: LogisticsSettings,
  sender: Sender,
  request: ShipmentRequest,
  tradeDate: string,
): Record<string, string> {
  const d = request.destination;
  const subType = d.kind === 'CVS' ? logisticsSubType(settings.type, d.brand) : 'TCAT';
  if (!subType) throw new Error(`no ${settings.type} logistics for this chain`);
  const fields: Record<string, string> = {
    MerchantID: settings.merchantId,
    MerchantTradeNo: request.merchantTradeNo,
    MerchantTradeDate: tradeDate,
    LogisticsType: d.kind,
    LogisticsSubType: subType,
    GoodsAmount: String(request.goodsAmount),
    GoodsName: request.goodsName,
    SenderName: sender.name,
    SenderCellPhone: sender.phone,
    ReceiverName: request.receiver.name,
    ReceiverCellPhone: request.receiver.cellPhone,
    ReceiverEmail: request.receiver.email ?? '',
    ServerReplyURL: request.serverReplyUrl,
  };
  if (d.kind === 'CVS') {
    fields.IsCollection = request.collectionAmount > 0 ? 'Y' : 'N';
    if (request.collectionAmount > 0) fields.CollectionAmount = String(request.collectionAmount);
    fields.ReceiverStoreID = d.storeId;
    if (settings.type === 'C2C') fields.LogisticsC2CReplyURL = request.storeNoticeUrl;
  } else {
    Object.assign(fields, {
      SenderZipCode: sender.zip,
      SenderAddress: sender.address,
      ReceiverZipCode: d.zip,
      ReceiverAddress: d.address,
      Temperature: '0001',
      Distance: d.outlying ? '02' : d.sameCity ? '00' : '01',
      Specification: '0001',
      ScheduledPickupTime: '4',
      ScheduledDeliveryTime: '4',
    });
  }
  return { ...fields, CheckMacValue: checkMacValue(fields, settings.hashKey, settings.hashIV, 'md5') };
}

export type CreateReply =
  | { readonly ok: true; readonly fields: Record<string, string> }
  | { readonly ok: false; readonly message: string };

/**
 * ECPay's answer to /Express/Create: `1|k=v&…` (signed) or `0|message`. An answer whose signature
 * does not hold is treated as a failure: nothing it says is stored.
 */
export function parseCreateReply(settings: LogisticsSettings, text: string): CreateReply {
  const bar = text.indexOf('|');
  const head = bar < 0 ? text.trim() : text.slice(0, bar).trim();
  const rest = bar < 0 ? '' : text.slice(bar + 1).trim();
  if (head !== '1') return { ok: false, message: rest || text.trim().slice(0, 200) || 'no answer' };
  const fields = Object.fromEntries(new URLSearchParams(rest));
  if (!fields.CheckMacValue || !verifyCheckMacValue(fields, settings.hashKey, settings.hashIV, 'md5'))
    return { ok: false, message: 'CheckMacValue of the answer does not match' };
  if (!fields.AllPayLogisticsID) return { ok: false, message: 'the answer has no AllPayLogisticsID' };
  return { ok: true, fields };
}

// ── labels (寄件單 / 託運單) ─────────────────────────────────────────────────────────────────────

/** ECPay's label print pages: one per store-to-store chain, and the trade document for the rest. */
export const LABEL_PATHS = [
  '/Express/PrintUniMartC2COrderInfo',
  '/Express/PrintFAMIC2COrderInfo',
  '/Express/PrintHILIFEC2COrderInfo',
  '/Express/PrintOKMARTC2COrderInfo',
  '/helper/printTradeDocument',
] as const;

/** Where each kind of parcel's label is printed, and which numbers it needs. */
export function labelPath(subType: string): {
  path: string;
  fields: ReadonlyArray<'CVSPaymentNo' | 'CVSValidationNo'>;
} {
  switch (subType) {
    case 'UNIMARTC2C':
      return { path: '/Express/PrintUniMartC2COrderInfo', fields: ['CVSPaymentNo', 'CVSValidationNo'] };
    case 'FAMIC2C':
      return { path: '/Express/PrintFAMIC2COrderInfo', fields: ['CVSPaymentNo'] };
    case 'HILIFEC2C':
      return { path: '/Express/PrintHILIFEC2COrderInfo', fields: ['CVSPaymentNo'] };
    case 'OKMARTC2C':
      return { path: '/Express/PrintOKMARTC2COrderInfo', fields: ['CVSPaymentNo'] };
    default:
      // B2C store parcels and home delivery: the trade document (託運單).
      return { path: '/helper/printTradeDocument', fields: [] };
  }
}

export interface LabelParcel {
  readonly subType: string;
  readonly logisticsId: string;
  readonly cvsPaymentNo: string;
  readonly cvsValidationNo: string;
}

/**
 * The signed print forms for a batch of parcels: one per print page, each listing its parcels'
 * numbers comma-separated in the same order (ECPay prints several labels from one form).
 */
export function labelForms(
  settings: LogisticsSettings,
  publicUrl: string,
  parcels: readonly LabelParcel[],
): Array<{ path: string; count: number; action: string; fields: Record<string, string> }> {
  const groups = new Map<string, LabelParcel[]>();
  for (const p of parcels) {
    const { path } = labelPath(p.subType);
    groups.set(path, [...(groups.get(path) ?? []), p]);
  }
  return [...groups].map(([path, list]) => {
    const needs = labelPath(list[0]!.subType).fields;
    const fields: Record<string, string> = {
      MerchantID: settings.merchantId,
      AllPayLogisticsID: list.map((p) => p.logisticsId).join(','),
    };
    if (needs.includes('CVSPaymentNo')) fields.CVSPaymentNo = list.map((p) => p.cvsPaymentNo).join(',');
    if (needs.includes('CVSValidationNo'))
      fields.CVSValidationNo = list.map((p) => p.cvsValidationNo).join(',');
    return {
      path,
      count: list.length,
      action: `${logisticsHost(settings, publicUrl)}${path}`,
      fields: { ...fields, CheckMacValue: checkMacValue(fields, settings.hashKey, settings.hashIV, 'md5') },
    };
  });
}
