import { z } from 'zod';
import { encryptData, decryptData } from './ecpay-invoice-crypto.ts';

/**
 * ECPay (綠界) B2C e-invoice (電子發票 B2C) as the shop speaks it, in four files: this one (settings,
 * hosts, the JSON envelope of requests and replies), ecpay-invoice-crypto.ts (its URL encoding and
 * AES), ecpay-invoice-fields.ts (the payloads of the operations the shop uses) and
 * ecpay-invoice-client.ts (the replies and a small client). Pure protocol, no I/O except through the
 * injected `post`. Facts and their sources: docs/integrations/ecpay-einvoice.md.
 *
 * Every call is a JSON POST of { MerchantID, RqHeader: { Timestamp, Revision }, Data }, where Data is
 * base64(AES-128-CBC(urlencode(JSON))) under the merchant's HashKey (key) and HashIV (iv), PKCS7
 * padding. The reply is { PlatformID, MerchantID, RpHeader, TransCode, TransMsg, Data } and its Data
 * opens the same way backwards. TransCode 1 says the envelope was read; RtnCode 1 inside Data says
 * the operation succeeded. Anything else is a failure, whatever the number.
 */

export interface EinvoiceSettings {
  readonly merchantId: string;
  /** AES key: exactly 16 bytes. */
  readonly hashKey: string;
  /** AES IV: exactly 16 bytes. */
  readonly hashIV: string;
  /** Where the B2C API lives, without a trailing slash: ECPay's stage or production host, or the sandbox's prefix. */
  readonly host: string;
}

export const EINVOICE_STAGE_HOST = 'https://einvoice-stage.ecpay.com.tw';

export const EINVOICE_PRODUCTION_HOST = 'https://einvoice.ecpay.com.tw';

/** ECPay's published stage merchant for e-invoices (works on the stage host only). */
export const EINVOICE_STAGE_MERCHANT = {
  merchantId: '2000132',
  hashKey: 'ejCk326UnaZWKisg',
  hashIV: 'q9jcZX8Ib9LM8wYk',
} as const;

/** Where the in-app sandbox is meant to be registered. */
export const SANDBOX_EINVOICE_PATH = '/sandbox/ecpay/einvoice';

export const EINVOICE_PATHS = {
  issue: '/B2CInvoice/Issue',
  invalid: '/B2CInvoice/Invalid',
  allowance: '/B2CInvoice/Allowance',
  allowanceByCollegiate: '/B2CInvoice/AllowanceByCollegiate',
  allowanceInvalid: '/B2CInvoice/AllowanceInvalid',
  getIssue: '/B2CInvoice/GetIssue',
  checkBarcode: '/B2CInvoice/CheckBarcode',
  checkLoveCode: '/B2CInvoice/CheckLoveCode',
} as const;

export type EinvoiceOperation = keyof typeof EINVOICE_PATHS;

/** The API revision ECPay's own SDK sends in RqHeader for B2C e-invoices. */
export const EINVOICE_REVISION = '3.0.0';

/** ECPay refuses a request whose RqHeader.Timestamp is more than 10 minutes away from its clock. */
export const TIMESTAMP_TOLERANCE_SECONDS = 600;

export interface RequestEnvelope {
  readonly MerchantID: string;
  readonly RqHeader: { readonly Timestamp: number; readonly Revision: string };
  readonly Data: string;
}

export const unixSeconds = (when: Date): number => Math.floor(when.getTime() / 1000);

/** The body of a request: the payload encrypted, stamped with `now` (ECPay allows 10 minutes of clock difference). */
export function envelope(
  settings: Pick<EinvoiceSettings, 'merchantId' | 'hashKey' | 'hashIV'>,
  payload: object,
  now: Date,
): RequestEnvelope {
  return {
    MerchantID: settings.merchantId,
    RqHeader: { Timestamp: unixSeconds(now), Revision: EINVOICE_REVISION },
    Data: encryptData(payload, settings.hashKey, settings.hashIV),
  };
}

const idField = z.union([z.string(), z.number()]).transform(String);

export const intField = z.union([z.number(), z.string().regex(/^-?\d+$/)]).transform(Number);

/** A request as ECPay reads it (the sandbox's side). MerchantID arrives as a string, but a number is tolerated. */
export const RequestEnvelopeSchema = z.object({
  PlatformID: z.string().max(10).nullish(),
  MerchantID: idField.pipe(z.string().min(1).max(10)),
  RqHeader: z.object({ Timestamp: intField, Revision: z.string().max(10).nullish() }),
  Data: z.string().min(1).max(1_000_000),
});

/** A reply as the shop reads it. */
export const ReplyEnvelopeSchema = z.object({
  PlatformID: z.string().nullish(),
  MerchantID: idField,
  RpHeader: z.object({ Timestamp: intField }).nullish(),
  TransCode: intField,
  TransMsg: z.string().nullish(),
  Data: z.string().nullish(),
});

export interface ReplyEnvelope {
  readonly PlatformID: string;
  readonly MerchantID: string;
  readonly RpHeader: { readonly Timestamp: number };
  readonly TransCode: number;
  readonly TransMsg: string;
  readonly Data: string;
}

/** The shape every decrypted reply Data has: RtnCode (1 = success) and RtnMsg, plus the operation's own fields. */
export const ReplyDataSchema = z.looseObject({
  RtnCode: intField,
  RtnMsg: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
});

export type ReplyData = z.infer<typeof ReplyDataSchema>;

/** A successful envelope around `data` (the sandbox's side). Data may itself carry a failing RtnCode. */
export function replyEnvelope(
  settings: Pick<EinvoiceSettings, 'merchantId' | 'hashKey' | 'hashIV'>,
  data: object,
  now: Date,
  encode?: (payload: object) => string,
): ReplyEnvelope {
  return {
    PlatformID: '',
    MerchantID: settings.merchantId,
    RpHeader: { Timestamp: unixSeconds(now) },
    TransCode: 1,
    TransMsg: 'Success',
    Data: encode ? encode(data) : encryptData(data, settings.hashKey, settings.hashIV),
  };
}

/** An envelope ECPay could not read (wrong merchant, Data that does not open): no Data at all. */
export function refusalEnvelope(
  merchantId: string,
  transCode: number,
  transMsg: string,
  now: Date,
): ReplyEnvelope {
  return {
    PlatformID: '',
    MerchantID: merchantId,
    RpHeader: { Timestamp: unixSeconds(now) },
    TransCode: transCode,
    TransMsg: transMsg,
    Data: '',
  };
}

/** A request as the sandbox read it: its decrypted payload, or the TransCode (≠ 1) and message to refuse it with. */
export type OpenedRequest =
  | { readonly ok: true; readonly merchantId: string; readonly payload: Record<string, unknown> }
  | {
      readonly ok: false;
      readonly transCode: number;
      readonly transMsg: string;
      readonly merchantId: string;
    };

/** The TransCode the sandbox answers an unreadable envelope with (ECPay's own value is reported as 999 by integrators; only ≠ 1 matters). */
export const TRANS_REFUSED = 999;

/**
 * Reads a request the way ECPay does: the envelope's shape, the merchant, the clock, then Data
 * decrypted with that merchant's keys, and Data's MerchantID equal to the envelope's.
 */
export function openRequest(
  body: unknown,
  settings: Pick<EinvoiceSettings, 'merchantId' | 'hashKey' | 'hashIV'>,
  now: Date,
): OpenedRequest {
  const parsed = RequestEnvelopeSchema.safeParse(body);
  const raw =
    typeof body === 'object' && body !== null ? (body as { MerchantID?: unknown }).MerchantID : undefined;
  const claimed = typeof raw === 'string' || typeof raw === 'number' ? String(raw).slice(0, 10) : '';
  const refuse = (transMsg: string): OpenedRequest => ({
    ok: false,
    transCode: TRANS_REFUSED,
    transMsg,
    merchantId: claimed,
  });
  if (!parsed.success) return refuse('傳入資料格式錯誤（MerchantID、RqHeader、Data）');
  const { MerchantID, RqHeader, Data } = parsed.data;
  if (MerchantID !== settings.merchantId) return refuse('特店編號（MerchantID）錯誤');
  if (Math.abs(unixSeconds(now) - RqHeader.Timestamp) > TIMESTAMP_TOLERANCE_SECONDS)
    return refuse('傳入時間（Timestamp）已超過 10 分鐘的有效區間');
  let payload: unknown;
  try {
    payload = decryptData(Data, settings.hashKey, settings.hashIV);
  } catch {
    return refuse('加密資料（Data）無法解密');
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    return refuse('加密資料（Data）不是 JSON 物件');
  const inner = (payload as Record<string, unknown>).MerchantID;
  if (inner === undefined || String(inner) !== settings.merchantId)
    return refuse('加密資料內的特店編號（MerchantID）錯誤');
  return { ok: true, merchantId: MerchantID, payload: payload as Record<string, unknown> };
}

/** Why a reply could not be used. */
export type EinvoiceError =
  /** Our own input was refused before anything was sent. */
  | { readonly kind: 'input'; readonly field: string; readonly message: string }
  /** ECPay could not be reached, answered with an HTTP error, or said the MOF service behind it is down. For Issue, the outcome is unknown: look the invoice up by RelateNumber before trying again. */
  | { readonly kind: 'unavailable'; readonly message: string; readonly status?: number }
  /** An answer that is not ECPay's envelope, is for another merchant, or whose Data does not open. */
  | { readonly kind: 'malformed'; readonly message: string }
  /** TransCode ≠ 1: ECPay could not read our envelope. */
  | { readonly kind: 'refused'; readonly code: number; readonly message: string }
  /** RtnCode ≠ 1: ECPay read the request and declined the operation. */
  | { readonly kind: 'rejected'; readonly code: number; readonly message: string };

export type EinvoiceResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: EinvoiceError };

/** RtnCode ECPay's own WooCommerce plugin reads as "the Ministry of Finance's system is under maintenance" on the checks. */
export const RTN_MOF_UNAVAILABLE = 9000001;

/**
 * Opens a reply: the envelope checked with zod, the merchant ours, TransCode 1, Data decrypted and
 * shaped { RtnCode, RtnMsg, … }. Returns the decrypted Data when RtnCode is 1.
 */
export function openReply(
  body: unknown,
  settings: Pick<EinvoiceSettings, 'merchantId' | 'hashKey' | 'hashIV'>,
): EinvoiceResult<ReplyData> {
  const parsed = ReplyEnvelopeSchema.safeParse(body);
  if (!parsed.success) return { ok: false, error: { kind: 'malformed', message: '綠界回應的格式不正確' } };
  const reply = parsed.data;
  if (reply.MerchantID !== settings.merchantId)
    return { ok: false, error: { kind: 'malformed', message: '綠界回應的特店編號與本店不符' } };
  if (reply.TransCode !== 1)
    return {
      ok: false,
      error: { kind: 'refused', code: reply.TransCode, message: reply.TransMsg || '綠界無法讀取這筆請求' },
    };
  if (!reply.Data)
    return { ok: false, error: { kind: 'malformed', message: '綠界回應沒有加密資料（Data）' } };
  let opened: unknown;
  try {
    opened = decryptData(reply.Data, settings.hashKey, settings.hashIV);
  } catch {
    return { ok: false, error: { kind: 'malformed', message: '綠界回應的加密資料（Data）無法解密' } };
  }
  const data = ReplyDataSchema.safeParse(opened);
  if (!data.success)
    return { ok: false, error: { kind: 'malformed', message: '綠界回應的資料缺少 RtnCode' } };
  if (data.data.RtnCode === RTN_MOF_UNAVAILABLE)
    return { ok: false, error: { kind: 'unavailable', message: data.data.RtnMsg || '財政部系統維護中' } };
  if (data.data.RtnCode !== 1)
    return {
      ok: false,
      error: { kind: 'rejected', code: data.data.RtnCode, message: data.data.RtnMsg || '綠界未受理這筆作業' },
    };
  return { ok: true, value: data.data };
}
