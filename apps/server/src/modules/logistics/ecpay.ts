import { z } from 'zod';
import type { CvsBrandCode } from '@shop/shared/checkout';
import { checkMacValue } from '../../lib/ecpay-check-mac.ts';

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
export function mapForm(settings: LogisticsSettings, publicUrl: string, request: MapRequest): { action: string; fields: Record<string, string> } {
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
  return { action: `${logisticsHost(settings, publicUrl)}/Express/map`, fields: { ...fields, CheckMacValue: checkMacValue(fields, settings.hashKey, settings.hashIV, 'md5') } };
}

const field = (max: number) => z.string().trim().min(1).max(max);

/**
 * The store map's reply, as posted to ServerReplyURL. ECPay does not sign it, so it is checked
 * for shape here and trusted only as far as its token (MerchantTradeNo) goes.
 */
export const MapReply = z.object({
  MerchantID: z.string().max(10, { abort: true }).regex(/^\d{7,10}$/),
  MerchantTradeNo: z.string().max(20, { abort: true }).regex(/^[A-Za-z0-9]{20}$/),
  LogisticsSubType: z.string().max(20, { abort: true }).regex(/^[A-Z0-9]{3,20}$/),
  CVSStoreID: z.string().max(20, { abort: true }).trim().regex(/^[A-Za-z0-9]{1,10}$/),
  CVSStoreName: field(60),
  CVSAddress: field(120),
  CVSTelephone: z.string().max(40, { abort: true }).trim().max(20).regex(/^[\d()#\s-]*$/).optional().default(''),
  CVSOutSide: z.enum(['0', '1']).optional().default('0'),
  ExtraData: z.string().max(20).optional(),
});
export type MapReply = z.infer<typeof MapReply>;
