import { createCipheriv, createDecipheriv } from 'node:crypto';
import { z } from 'zod';
import { checkMacValue, verifyCheckMacValue } from '../../lib/ecpay-check-mac.ts';
import {
  isCitizenCertificate,
  isDonationCode,
  isMobileBarcode,
  isTaxId,
  normalizeMobileBarcode,
} from '@shop/shared/invoice';

/**
 * ECPay (綠界) B2C e-invoice (電子發票 B2C) as the shop speaks it: the encrypted JSON envelope, the
 * payloads of the operations the shop uses, the replies, and a small client. Pure protocol, no I/O
 * except through the injected `post`. Facts and their sources: docs/integrations/ecpay-einvoice.md.
 *
 * Every call is a JSON POST of { MerchantID, RqHeader: { Timestamp, Revision }, Data }, where Data is
 * base64(AES-128-CBC(urlencode(JSON))) under the merchant's HashKey (key) and HashIV (iv), PKCS7
 * padding. The reply is { PlatformID, MerchantID, RpHeader, TransCode, TransMsg, Data } and its Data
 * opens the same way backwards. TransCode 1 says the envelope was read; RtnCode 1 inside Data says
 * the operation succeeded. Anything else is a failure, whatever the number.
 */

// ── settings, hosts, paths ──────────────────────────────────────────────────────────────────────

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

// ── URL encoding ─────────────────────────────────────────────────────────────────────────────────

const UNRESERVED = /^[A-Za-z0-9\-_.]$/;

/**
 * The urlencode applied to the JSON before encryption. ECPay's official PHP SDK uses PHP's
 * urlencode(): letters, digits and - _ . stay, a space becomes +, every other character becomes %XX
 * (upper-case hex) per UTF-8 byte. It reproduces both of ECPay's published ciphertexts byte for byte.
 * ECPay's server is .NET and decodes any percent-encoding, so this is also what it accepts.
 */
export function einvoiceUrlEncode(text: string): string {
  let out = '';
  for (const char of text) {
    if (char === ' ') out += '+';
    else if (UNRESERVED.test(char)) out += char;
    else
      for (const byte of Buffer.from(char, 'utf8'))
        out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * The reverse, as PHP's urldecode() and .NET's UrlDecode read it: + is a space, %XX (either case) a
 * byte, anything else itself; the bytes must be UTF-8. Throws on a broken % sequence or bad UTF-8,
 * so a reply that does not decode is refused rather than half read.
 */
export function einvoiceUrlDecode(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '+') bytes.push(0x20);
    else if (c === '%') {
      const hex = text.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw new Error('bad percent-encoding');
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      for (const byte of Buffer.from(c, 'utf8')) bytes.push(byte);
    }
  }
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
}

// ── AES ──────────────────────────────────────────────────────────────────────────────────────────

/** A reply or request whose Data cannot be trusted or read: wrong key, broken base64, bad padding, not JSON. */
export class EinvoiceDataError extends Error {
  override readonly name = 'EinvoiceDataError';
}

function keyBytes(value: string, what: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  // AES-128 needs exactly 16 bytes; PHP would silently cut a longer key, which hides a misconfiguration.
  if (bytes.length !== 16) throw new Error(`ECPay ${what} must be 16 bytes, got ${bytes.length}`);
  return bytes;
}

/** base64(AES-128-CBC(text)) with PKCS7 padding: the last step of Data, for text already URL-encoded. */
export function encryptText(text: string, hashKey: string, hashIV: string): string {
  const cipher = createCipheriv('aes-128-cbc', keyBytes(hashKey, 'HashKey'), keyBytes(hashIV, 'HashIV'));
  return Buffer.concat([cipher.update(Buffer.from(text, 'utf8')), cipher.final()]).toString('base64');
}

/** Data for a request or reply: base64(AES-128-CBC(urlencode(JSON.stringify(payload)))), PKCS7 padding. */
export function encryptData(payload: unknown, hashKey: string, hashIV: string): string {
  return encryptText(einvoiceUrlEncode(JSON.stringify(payload)), hashKey, hashIV);
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Data opened: base64 → AES-128-CBC → urldecode → JSON. Throws EinvoiceDataError when any step fails. */
export function decryptData(data: string, hashKey: string, hashIV: string): unknown {
  const key = keyBytes(hashKey, 'HashKey');
  const iv = keyBytes(hashIV, 'HashIV');
  // Buffer.from(…, 'base64') skips what it cannot read; a strict check keeps a mangled Data from half-decrypting.
  if (data.length === 0 || !BASE64.test(data)) throw new EinvoiceDataError('Data is not base64');
  const sealed = Buffer.from(data, 'base64');
  if (sealed.length % 16 !== 0) throw new EinvoiceDataError('Data is not a whole number of AES blocks');
  let text: string;
  try {
    const decipher = createDecipheriv('aes-128-cbc', key, iv);
    text = Buffer.concat([decipher.update(sealed), decipher.final()]).toString('latin1');
  } catch {
    throw new EinvoiceDataError('Data does not decrypt with this HashKey/HashIV');
  }
  // The plaintext is URL-encoded and therefore ASCII; anything else means the wrong key got lucky with the padding.
  if (!/^[\x20-\x7e]*$/.test(text))
    throw new EinvoiceDataError('Data does not decrypt with this HashKey/HashIV');
  try {
    return JSON.parse(einvoiceUrlDecode(text));
  } catch {
    throw new EinvoiceDataError('Data does not hold URL-encoded JSON');
  }
}

// ── envelopes ────────────────────────────────────────────────────────────────────────────────────

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
const intField = z.union([z.number(), z.string().regex(/^-?\d+$/)]).transform(Number);

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

// ── validators ───────────────────────────────────────────────────────────────────────────────────

/** 捐贈碼 (愛心碼): 3–7 digits, a leading zero allowed. */
export const isLoveCode = isDonationCode;

/**
 * The shop's shared field rules, re-exported so invoice code has one import: isTaxId (統一編號 with the
 * MOF check digit, divisible by 5 since 2023-04-01, the 7th-digit-7 allowance kept), isMobileBarcode
 * ("/" + 7 of 0-9 A-Z + - .), isCitizenCertificate (自然人憑證條碼, CarrierType 2: 2 upper-case letters
 * and 14 digits) and normalizeMobileBarcode (full-width → half-width, upper case).
 */
export { isTaxId, isMobileBarcode, isCitizenCertificate, normalizeMobileBarcode };

/** 8-character invoice number: 2 upper-case letters (字軌) and 8 digits. */
export function isInvoiceNo(value: string): boolean {
  return /^[A-Z]{2}\d{8}$/.test(value);
}

/** RelateNumber: our own unique id, at most 30 characters; ECPay asks for no special symbols and compares it case-insensitively. */
export function isRelateNumber(value: string): boolean {
  return /^[A-Za-z0-9_]{1,30}$/.test(value);
}

// ── payload builders ─────────────────────────────────────────────────────────────────────────────

/** A builder's refusal: the field it concerns and a message in the shop's words. */
export class EinvoiceInputError extends Error {
  override readonly name = 'EinvoiceInputError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export interface InvoiceLineInput {
  readonly name: string;
  /** Whole units, at least 1. */
  readonly quantity: number;
  /** Integer TWD, tax included. */
  readonly unitPrice: number;
  /** ItemWord, at most 6 characters; 件 when absent. */
  readonly unit?: string;
}

/** How the buyer wants the invoice. */
export type InvoiceChoice =
  /** ECPay's own member carrier (CarrierType 1): the invoice is kept under the buyer's e-mail. */
  | { readonly type: 'member' }
  /** 手機條碼 (CarrierType 3). */
  | { readonly type: 'mobile'; readonly barcode: string }
  /** 自然人憑證 (CarrierType 2). */
  | { readonly type: 'certificate'; readonly certificate: string }
  /** Donated to a charity by its 捐贈碼. */
  | { readonly type: 'donation'; readonly loveCode: string }
  /** 三聯式 style: printed, with the company's 統一編號 and title. */
  | { readonly type: 'company'; readonly taxId: string; readonly title: string };

export interface IssueInput {
  /** Our unique id for this invoice (the order number, or a retry suffix of it). */
  readonly relateNumber: string;
  readonly lines: readonly InvoiceLineInput[];
  /** Integer TWD; 0 for none. */
  readonly shippingFee: number;
  /** Integer TWD taken off the goods (coupons, tiers); 0 for none. */
  readonly discountTotal: number;
  readonly buyer: {
    readonly name: string;
    readonly email: string;
    /** Digits only, for SMS notices; optional. */
    readonly phone?: string;
    /** Needed when the invoice is printed (company invoices). */
    readonly address?: string;
  };
  readonly invoice: InvoiceChoice;
  /** InvoiceRemark, at most 200 characters. */
  readonly remark?: string;
}

export interface EinvoiceItem {
  ItemSeq: number;
  ItemName: string;
  ItemCount: number;
  ItemWord: string;
  ItemPrice: number;
  ItemTaxType: '1';
  ItemAmount: number;
  ItemRemark: string;
}

export interface IssuePayload {
  MerchantID: string;
  RelateNumber: string;
  CustomerID: string;
  CustomerIdentifier: string;
  CustomerName: string;
  CustomerAddr: string;
  CustomerPhone: string;
  CustomerEmail: string;
  ClearanceMark: '';
  Print: '0' | '1';
  Donation: '0' | '1';
  LoveCode: string;
  CarrierType: '' | '1' | '2' | '3';
  CarrierNum: string;
  TaxType: '1';
  SalesAmount: number;
  InvoiceRemark: string;
  Items: EinvoiceItem[];
  InvType: '07';
  vat: '1';
}

/** ECPay's limits on a B2C invoice (from its field table). */
export const EINVOICE_LIMITS = {
  items: 200,
  itemName: 100,
  itemWord: 6,
  itemRemark: 40,
  customerName: 60,
  customerAddr: 100,
  customerPhone: 20,
  customerEmail: 80,
  invoiceRemark: 200,
  reason: 20,
} as const;

/** At most `max` characters (code points, so a CJK name is never cut inside a character). */
export function clip(text: string, max: number): string {
  const chars = Array.from(text.trim());
  return chars.length <= max ? chars.join('') : chars.slice(0, max).join('');
}

const isWholeTwd = (n: number) => Number.isSafeInteger(n) && n >= 0;

/**
 * Takes `discount` off `amounts` in proportion to each (largest remainder, earlier lines first on a
 * tie), in whole TWD, never below 0. The result sums to exactly sum(amounts) − discount.
 */
export function spreadDiscount(amounts: readonly number[], discount: number): number[] {
  const total = amounts.reduce((s, a) => s + a, 0);
  if (discount <= 0 || total === 0) return [...amounts];
  if (discount >= total) return amounts.map(() => 0);
  const exact = amounts.map((a) => (discount * a) / total);
  const shares = exact.map(Math.floor);
  let left = discount - shares.reduce((s, a) => s + a, 0);
  const order = exact
    .map((x, i) => ({ i, frac: x - Math.floor(x) }))
    .sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (left === 0) break;
    shares[i]! += 1;
    left -= 1;
  }
  return amounts.map((a, i) => a - shares[i]!);
}

/**
 * One invoice line per goods line, a 運費 line for shipping, and the discount spread over the goods
 * (any excess over the goods comes off shipping). A line whose discounted amount does not divide by
 * its quantity becomes two lines of whole prices (e.g. 3 × 100 less 10 → 1 × 96 + 2 × 97), so
 * ItemPrice × ItemCount = ItemAmount holds exactly and SalesAmount is the plain sum: nothing is left
 * to ECPay's rounding. Negative lines are not used (ECPay's field table does not say they are accepted).
 */
export function invoiceItems(input: Pick<IssueInput, 'lines' | 'shippingFee' | 'discountTotal'>): {
  items: EinvoiceItem[];
  salesAmount: number;
} {
  if (input.lines.length === 0) throw new EinvoiceInputError('lines', '發票至少要有一項商品');
  for (const line of input.lines) {
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1)
      throw new EinvoiceInputError('lines', `「${line.name}」的數量必須是正整數`);
    if (!isWholeTwd(line.unitPrice))
      throw new EinvoiceInputError('lines', `「${line.name}」的單價必須是 0 以上的整數（新台幣元）`);
    if (!line.name.trim()) throw new EinvoiceInputError('lines', '商品名稱不能空白');
  }
  if (!isWholeTwd(input.shippingFee)) throw new EinvoiceInputError('shippingFee', '運費必須是 0 以上的整數');
  if (!isWholeTwd(input.discountTotal))
    throw new EinvoiceInputError('discountTotal', '折扣必須是 0 以上的整數');

  const goods = input.lines.map((l) => l.quantity * l.unitPrice);
  const goodsTotal = goods.reduce((s, a) => s + a, 0);
  const total = goodsTotal + input.shippingFee - input.discountTotal;
  // ECPay refuses an invoice of 0: a fully discounted order has nothing to invoice.
  if (total <= 0) throw new EinvoiceInputError('discountTotal', '折扣後金額為 0 元，不開立發票');

  const discountedGoods = spreadDiscount(goods, Math.min(input.discountTotal, goodsTotal));
  const shipping = input.shippingFee - Math.max(0, input.discountTotal - goodsTotal);

  const priced: Array<{ name: string; unit: string; quantity: number; amount: number }> = input.lines.map(
    (l, i) => ({ name: l.name, unit: l.unit ?? '件', quantity: l.quantity, amount: discountedGoods[i]! }),
  );
  if (shipping > 0) priced.push({ name: '運費', unit: '式', quantity: 1, amount: shipping });

  const items: EinvoiceItem[] = [];
  const push = (name: string, unit: string, count: number, price: number) =>
    items.push({
      ItemSeq: items.length + 1,
      ItemName: clip(name, EINVOICE_LIMITS.itemName),
      ItemCount: count,
      ItemWord: clip(unit, EINVOICE_LIMITS.itemWord) || '件',
      ItemPrice: price,
      ItemTaxType: '1',
      ItemAmount: count * price,
      ItemRemark: '',
    });
  for (const p of priced) {
    const price = Math.floor(p.amount / p.quantity);
    const rest = p.amount - price * p.quantity;
    if (rest === 0) push(p.name, p.unit, p.quantity, price);
    else {
      push(p.name, p.unit, p.quantity - rest, price);
      push(p.name, p.unit, rest, price + 1);
    }
  }
  if (items.length > EINVOICE_LIMITS.items)
    throw new EinvoiceInputError('lines', `發票最多 ${EINVOICE_LIMITS.items} 項商品`);
  return { items, salesAmount: items.reduce((s, it) => s + it.ItemAmount, 0) };
}

/** The Data of /B2CInvoice/Issue for an order, tax included (TaxType 1, vat 1, InvType 07). */
export function buildIssuePayload(merchantId: string, input: IssueInput): IssuePayload {
  if (!isRelateNumber(input.relateNumber))
    throw new EinvoiceInputError('relateNumber', '發票自訂編號須為 1 到 30 個英數字');
  const email = input.buyer.email.trim();
  if (!email || email.length > EINVOICE_LIMITS.customerEmail || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw new EinvoiceInputError('buyer.email', '買受人電子信箱格式不正確');
  const phone = (input.buyer.phone ?? '').replace(/\D/g, '');
  if (phone.length > EINVOICE_LIMITS.customerPhone)
    throw new EinvoiceInputError('buyer.phone', '買受人手機號碼過長');
  const { items, salesAmount } = invoiceItems(input);

  const payload: IssuePayload = {
    MerchantID: merchantId,
    RelateNumber: input.relateNumber,
    CustomerID: '',
    CustomerIdentifier: '',
    CustomerName: clip(input.buyer.name, EINVOICE_LIMITS.customerName),
    CustomerAddr: clip(input.buyer.address ?? '', EINVOICE_LIMITS.customerAddr),
    CustomerPhone: phone,
    CustomerEmail: email,
    ClearanceMark: '',
    Print: '0',
    Donation: '0',
    LoveCode: '',
    CarrierType: '',
    CarrierNum: '',
    TaxType: '1',
    SalesAmount: salesAmount,
    InvoiceRemark: '',
    Items: items,
    InvType: '07',
    vat: '1',
  };

  const choice = input.invoice;
  switch (choice.type) {
    case 'member':
      // ECPay fills CarrierNum itself from the e-mail (or phone) for its member carrier.
      payload.CarrierType = '1';
      break;
    case 'mobile': {
      const barcode = normalizeMobileBarcode(choice.barcode);
      if (!isMobileBarcode(barcode))
        throw new EinvoiceInputError('invoice.barcode', '手機條碼格式不正確：「/」加上 7 碼英數字');
      payload.CarrierType = '3';
      payload.CarrierNum = barcode;
      break;
    }
    case 'certificate': {
      const certificate = choice.certificate.trim().toUpperCase();
      if (!isCitizenCertificate(certificate))
        throw new EinvoiceInputError('invoice.certificate', '自然人憑證條碼為 2 碼大寫英文字母加 14 碼數字');
      payload.CarrierType = '2';
      payload.CarrierNum = certificate;
      break;
    }
    case 'donation':
      if (!isLoveCode(choice.loveCode))
        throw new EinvoiceInputError('invoice.loveCode', '捐贈碼為 3 到 7 位數字');
      payload.Donation = '1';
      payload.LoveCode = choice.loveCode;
      break;
    case 'company': {
      if (!isTaxId(choice.taxId)) throw new EinvoiceInputError('invoice.taxId', '統一編號格式或檢查碼不正確');
      const title = clip(choice.title, EINVOICE_LIMITS.customerName);
      if (!title) throw new EinvoiceInputError('invoice.title', '請填寫公司抬頭');
      // A printed invoice needs the buyer's name and address (ECPay refuses Print 1 without them).
      if (!payload.CustomerAddr)
        throw new EinvoiceInputError('buyer.address', '開立統一編號發票需要買受人地址');
      payload.CustomerIdentifier = choice.taxId;
      payload.CustomerName = title;
      payload.Print = '1';
      break;
    }
  }

  const remarks = [
    input.remark?.trim() ?? '',
    input.discountTotal > 0 ? `已折抵優惠 ${input.discountTotal} 元` : '',
  ].filter(Boolean);
  payload.InvoiceRemark = clip(remarks.join('；'), EINVOICE_LIMITS.invoiceRemark);
  return payload;
}

/** 'yyyy-MM-dd' from ECPay's InvoiceDate ('yyyy-MM-dd HH:mm:ss') or a date already in that form. */
export function invoiceDay(invoiceDate: string): string {
  const day = invoiceDate.trim().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day))
    throw new EinvoiceInputError('invoiceDate', '發票開立日期格式應為 yyyy-MM-dd');
  return day;
}

function checkInvoiceNo(invoiceNo: string): string {
  if (!isInvoiceNo(invoiceNo))
    throw new EinvoiceInputError('invoiceNo', '發票號碼為 2 碼大寫英文字母加 8 碼數字');
  return invoiceNo;
}

function reasonText(reason: string): string {
  const text = clip(reason, EINVOICE_LIMITS.reason);
  if (!text) throw new EinvoiceInputError('reason', '請填寫原因');
  return text;
}

/**
 * The last moment an invoice may be voided rather than credited: 23:59:59 (Taipei) on the 13th of
 * the month after its two-month filing period (January–February invoices until 13 March 23:59:59,
 * and so on). ECPay files the period with the Ministry of Finance then and refuses a void after it
 * (作廢發票, developers.ecpay.com.tw ?p=7906), two days before the law's own filing day, the 15th.
 */
export function voidDeadline(invoiceDate: string): Date {
  const year = Number(invoiceDate.slice(0, 4));
  const month = Number(invoiceDate.slice(5, 7));
  const periodEnd = month % 2 === 0 ? month : month + 1;
  const next = periodEnd === 12 ? { y: year + 1, m: 1 } : { y: year, m: periodEnd + 1 };
  return new Date(`${next.y}-${String(next.m).padStart(2, '0')}-13T23:59:59.999+08:00`);
}

export interface InvalidInput {
  readonly invoiceNo: string;
  /** As Issue answered it ('yyyy-MM-dd HH:mm:ss') or just the day. */
  readonly invoiceDate: string;
  readonly reason: string;
}

export function buildInvalidPayload(merchantId: string, input: InvalidInput) {
  return {
    MerchantID: merchantId,
    InvoiceNo: checkInvoiceNo(input.invoiceNo),
    InvoiceDate: invoiceDay(input.invoiceDate),
    Reason: reasonText(input.reason),
  };
}

export interface AllowanceInput {
  readonly invoiceNo: string;
  readonly invoiceDate: string;
  /** What is credited back, tax included; the allowance's amount is their sum. */
  readonly lines: readonly InvoiceLineInput[];
  readonly customerName?: string;
  /** Where ECPay mails the allowance notice (AllowanceNotify E); no notice (N) without it. */
  readonly notifyEmail?: string;
}

/** A credit for a sum of money rather than for goods (a partial refund). */
export const refundLine = (amount: number): InvoiceLineInput => ({
  name: '退款折讓',
  quantity: 1,
  unitPrice: amount,
  unit: '式',
});

export function buildAllowancePayload(merchantId: string, input: AllowanceInput) {
  const { items, salesAmount } = invoiceItems({ lines: input.lines, shippingFee: 0, discountTotal: 0 });
  const email = input.notifyEmail?.trim() ?? '';
  if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw new EinvoiceInputError('notifyEmail', '通知電子信箱格式不正確');
  return {
    MerchantID: merchantId,
    InvoiceNo: checkInvoiceNo(input.invoiceNo),
    InvoiceDate: invoiceDay(input.invoiceDate),
    AllowanceNotify: email ? ('E' as const) : ('N' as const),
    CustomerName: clip(input.customerName ?? '', EINVOICE_LIMITS.customerName),
    NotifyMail: email,
    NotifyPhone: '',
    AllowanceAmount: salesAmount,
    Items: items,
  };
}

export interface OnlineAllowanceInput extends AllowanceInput {
  /** ECPay mails the buyer here to agree to the allowance; required. */
  readonly notifyEmail: string;
  /** Where ECPay posts the result once the buyer agrees (at most 200 characters). */
  readonly returnUrl: string;
}

/** ECPay's online-consent allowance keeps ReturnURL to 200 characters. */
export const RETURN_URL_MAX = 200;

/**
 * The Data of /B2CInvoice/AllowanceByCollegiate (線上開立折讓, developers.ecpay.com.tw ?p=15391):
 * the paper allowance's fields with the notice by e-mail (AllowanceNotify E, the buyer's address in
 * NotifyMail, where ECPay sends the consent link) and ReturnURL for the result.
 */
export function buildOnlineAllowancePayload(merchantId: string, input: OnlineAllowanceInput) {
  const email = input.notifyEmail.trim();
  if (!email) throw new EinvoiceInputError('notifyEmail', '線上折讓需要買受人的電子信箱');
  const url = input.returnUrl.trim();
  if (!/^https?:\/\/\S+$/.test(url) || url.length > RETURN_URL_MAX)
    throw new EinvoiceInputError('returnUrl', `折讓結果回傳網址須為 ${RETURN_URL_MAX} 字以內的 http(s) 網址`);
  return {
    ...buildAllowancePayload(merchantId, { ...input, notifyEmail: email }),
    AllowanceNotify: 'E' as const,
    ReturnURL: url,
  };
}

/**
 * What ECPay posts to ReturnURL once the buyer agreed to an online allowance: RtnCode, RtnMsg,
 * IA_Allow_No, IA_Invoice_No, IA_Date, IIS_Remain_Allowance_Amt and CheckMacValue (MD5, ECPay's
 * 檢查碼機制 appendix ?p=38242, whose worked example is this notice).
 */
export interface AllowanceNotice {
  readonly agreed: boolean;
  readonly message: string;
  readonly allowanceNo: string;
  readonly invoiceNo: string;
  /** IA_Date: when the allowance was issued (the buyer agreed), yyyy-MM-dd HH:mm:ss Taiwan time. */
  readonly date: string;
  readonly remainingAmount: number | null;
}

export const ALLOWANCE_NOTICE_FIELDS = [
  'RtnCode',
  'RtnMsg',
  'IA_Allow_No',
  'IA_Invoice_No',
  'IA_Date',
  'IIS_Remain_Allowance_Amt',
] as const;

/** Reads the online-allowance notice; null when its CheckMacValue is not ECPay's (or fields are missing). */
export function readAllowanceNotice(
  form: Readonly<Record<string, string>>,
  settings: Pick<EinvoiceSettings, 'hashKey' | 'hashIV'>,
): AllowanceNotice | null {
  if (!ALLOWANCE_NOTICE_FIELDS.every((f) => typeof form[f] === 'string')) return null;
  if (!verifyCheckMacValue(form, settings.hashKey, settings.hashIV, 'md5')) return null;
  const remaining = /^\d+$/.test(form.IIS_Remain_Allowance_Amt!)
    ? Number(form.IIS_Remain_Allowance_Amt)
    : null;
  return {
    agreed: form.RtnCode === '1',
    message: form.RtnMsg!,
    allowanceNo: form.IA_Allow_No!,
    invoiceNo: form.IA_Invoice_No!,
    date: form.IA_Date!,
    remainingAmount: remaining,
  };
}

/** The notice as ECPay posts it, signed (the sandbox's side). */
export function allowanceNoticeForm(
  fields: Readonly<Record<(typeof ALLOWANCE_NOTICE_FIELDS)[number], string>>,
  settings: Pick<EinvoiceSettings, 'hashKey' | 'hashIV'>,
): Record<string, string> {
  return { ...fields, CheckMacValue: checkMacValue(fields, settings.hashKey, settings.hashIV, 'md5') };
}

export interface AllowanceInvalidInput {
  readonly invoiceNo: string;
  readonly allowanceNo: string;
  readonly reason: string;
}

export function buildAllowanceInvalidPayload(merchantId: string, input: AllowanceInvalidInput) {
  if (!/^\d{16}$/.test(input.allowanceNo))
    throw new EinvoiceInputError('allowanceNo', '折讓編號為 16 碼數字');
  return {
    MerchantID: merchantId,
    InvoiceNo: checkInvoiceNo(input.invoiceNo),
    AllowanceNo: input.allowanceNo,
    Reason: reasonText(input.reason),
  };
}

export type GetIssueInput =
  { readonly relateNumber: string } | { readonly invoiceNo: string; readonly invoiceDate: string };

export function buildGetIssuePayload(merchantId: string, input: GetIssueInput) {
  if ('relateNumber' in input) {
    if (!isRelateNumber(input.relateNumber))
      throw new EinvoiceInputError('relateNumber', '發票自訂編號須為 1 到 30 個英數字');
    return { MerchantID: merchantId, RelateNumber: input.relateNumber };
  }
  return {
    MerchantID: merchantId,
    InvoiceNo: checkInvoiceNo(input.invoiceNo),
    InvoiceDate: invoiceDay(input.invoiceDate),
  };
}

export function buildCheckBarcodePayload(merchantId: string, barcode: string) {
  const code = normalizeMobileBarcode(barcode);
  if (!isMobileBarcode(code))
    throw new EinvoiceInputError('barcode', '手機條碼格式不正確：「/」加上 7 碼英數字');
  return { MerchantID: merchantId, BarCode: code };
}

export function buildCheckLoveCodePayload(merchantId: string, loveCode: string) {
  const code = loveCode.trim();
  if (!isLoveCode(code)) throw new EinvoiceInputError('loveCode', '捐贈碼為 3 到 7 位數字');
  return { MerchantID: merchantId, LoveCode: code };
}

// ── replies ──────────────────────────────────────────────────────────────────────────────────────

const text = z.union([z.string(), z.number()]).transform(String);

const IssueReply = z.object({
  InvoiceNo: z.string().regex(/^[A-Z]{2}\d{8}$/),
  InvoiceDate: z.string().min(10),
  // String(4) per ECPay, but an all-digit value can arrive as a JSON number that lost its leading zeros.
  RandomNumber: text.transform((v) => v.padStart(4, '0')).pipe(z.string().regex(/^\d{4}$/)),
});
const InvalidReply = z.object({ InvoiceNo: z.string() });
const AllowanceReply = z.object({
  IA_Allow_No: text,
  IA_Invoice_No: z.string(),
  IA_Date: z.string(),
  IA_Remain_Allowance_Amt: intField,
});
// The online allowance answers with the allowance's number at once, and how long the buyer has to agree (ECPay's .NET SDK, AllowanceByCollegiateResult).
const OnlineAllowanceReply = z.object({
  IA_Allow_No: text,
  IA_Invoice_No: z.string(),
  IA_TempDate: z.string().nullish(),
  IA_TempExpireDate: z.string().nullish(),
  IA_Remain_Allowance_Amt: intField.nullish(),
});
const AllowanceInvalidReply = z.object({ IA_Invoice_No: z.string().nullish() });
const GetIssueReply = z.object({
  IIS_Number: z.string(),
  IIS_Relate_Number: text,
  IIS_Create_Date: z.string(),
  IIS_Random_Number: text,
  IIS_Sales_Amount: z.union([z.number(), z.string()]).transform(Number),
  IIS_Invalid_Status: text,
  IIS_Remain_Allowance_Amt: z
    .union([z.number(), z.string()])
    .nullish()
    .transform((v) => (v === null || v === undefined || v === '' ? null : Number(v))),
  // ECPay's .NET SDK reads the type as a number, its JSON may carry either; anything unexpected reads as "not drawn".
  IIS_Award_Flag: text.nullish().transform((v) => (v === '0' || v === '1' || v === 'X' ? v : '')),
  IIS_Award_Type: text.nullish().transform((v) => v ?? ''),
});
const CheckReply = z.object({ IsExist: z.enum(['Y', 'N']) });

export interface IssuedInvoice {
  readonly invoiceNo: string;
  /** 'yyyy-MM-dd HH:mm:ss', Taiwan time, as ECPay writes it. */
  readonly invoiceDate: string;
  readonly randomNumber: string;
}

export interface IssuedAllowance {
  readonly allowanceNo: string;
  readonly invoiceNo: string;
  readonly date: string;
  /** What can still be credited on the invoice after this allowance. */
  readonly remainingAmount: number;
}

export interface RequestedAllowance {
  readonly allowanceNo: string;
  readonly invoiceNo: string;
  /** IA_TempDate / IA_TempExpireDate: when it was asked for and until when the buyer may agree ('yyyy-MM-dd HH:mm:ss' Taiwan time; '' when absent). */
  readonly requestedAt: string;
  readonly expiresAt: string;
  readonly remainingAmount: number | null;
}

export interface InvoiceRecord {
  readonly invoiceNo: string;
  readonly relateNumber: string;
  readonly invoiceDate: string;
  readonly randomNumber: string;
  readonly salesAmount: number;
  readonly voided: boolean;
  readonly remainingAllowance: number | null;
  /**
   * IIS_Award_Flag after the bimonthly draw: '' not drawn (yet) or not in the draw, '0' drawn and
   * not won, '1' won, 'X' an invoice with a 統一編號 (never in the draw).
   */
  readonly awardFlag: '' | '0' | '1' | 'X';
  /** IIS_Award_Type of a winning invoice: which prize (see PRIZES in awards.ts); '' otherwise. */
  readonly awardType: string;
}

// ── client ───────────────────────────────────────────────────────────────────────────────────────

/** Posts a JSON body to a URL and resolves with the parsed JSON answer; throws on a network error or an HTTP status other than 2xx. */
export type EinvoicePost = (url: string, jsonBody: unknown) => Promise<unknown>;

/** An HTTP answer other than 2xx. */
export class EinvoiceHttpError extends Error {
  override readonly name = 'EinvoiceHttpError';
  constructor(readonly status: number) {
    super(`ECPay e-invoice answered HTTP ${status}`);
  }
}

/**
 * The production `post`: fetch with a timeout. An answer that is not JSON resolves as its text, so the
 * client reports it as malformed rather than as a network failure.
 */
export function fetchPost(options: { timeoutMs?: number; fetchImpl?: typeof fetch } = {}): EinvoicePost {
  const doFetch = options.fetchImpl ?? fetch;
  return async (url, jsonBody) => {
    const res = await doFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(jsonBody),
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
    if (!res.ok) throw new EinvoiceHttpError(res.status);
    const text = await res.text();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  };
}

export interface InvoiceClient {
  issue(input: IssueInput): Promise<EinvoiceResult<IssuedInvoice>>;
  invalid(input: InvalidInput): Promise<EinvoiceResult<{ invoiceNo: string }>>;
  allowance(input: AllowanceInput): Promise<EinvoiceResult<IssuedAllowance>>;
  /** 線上開立折讓: ECPay mails the buyer, who agrees online; the result comes to ReturnURL (`readAllowanceNotice`). */
  allowanceByCollegiate(input: OnlineAllowanceInput): Promise<EinvoiceResult<RequestedAllowance>>;
  allowanceInvalid(input: AllowanceInvalidInput): Promise<EinvoiceResult<{ invoiceNo: string }>>;
  getIssue(input: GetIssueInput): Promise<EinvoiceResult<InvoiceRecord>>;
  /** IsExist as a boolean. 'unavailable' means the check could not be made (ECPay advises not to block issuing on it). */
  checkBarcode(barcode: string): Promise<EinvoiceResult<{ exists: boolean }>>;
  checkLoveCode(loveCode: string): Promise<EinvoiceResult<{ exists: boolean }>>;
}

/**
 * The B2C operations over an injected `post` (fetchPost in production, app.inject in tests). Every
 * method resolves with { ok: false, error } on a failure; the only throw is a misconfiguration (a
 * HashKey or HashIV that is not 16 bytes), which no retry would mend.
 */
export function invoiceClient(
  settings: EinvoiceSettings,
  post: EinvoicePost,
  now: () => Date = () => new Date(),
): InvoiceClient {
  async function call<S extends z.ZodType, T>(
    operation: EinvoiceOperation,
    build: () => object,
    shape: S,
    map: (reply: z.infer<S>) => T,
  ): Promise<EinvoiceResult<T>> {
    let payload: object;
    try {
      payload = build();
    } catch (error) {
      if (error instanceof EinvoiceInputError)
        return { ok: false, error: { kind: 'input', field: error.field, message: error.message } };
      throw error;
    }
    const request = envelope(settings, payload, now());
    let body: unknown;
    try {
      body = await post(`${settings.host}${EINVOICE_PATHS[operation]}`, request);
    } catch (error) {
      const status = error instanceof EinvoiceHttpError ? error.status : undefined;
      return {
        ok: false,
        error: {
          kind: 'unavailable',
          message: '電子發票服務暫時無法連線',
          ...(status === undefined ? {} : { status }),
        },
      };
    }
    const opened = openReply(body, settings);
    if (!opened.ok) return opened;
    const fields = shape.safeParse(opened.value);
    if (!fields.success) return { ok: false, error: { kind: 'malformed', message: '綠界回應缺少必要欄位' } };
    return { ok: true, value: map(fields.data) };
  }

  const id = settings.merchantId;
  return {
    issue: (input) =>
      call(
        'issue',
        () => buildIssuePayload(id, input),
        IssueReply,
        (r) => ({ invoiceNo: r.InvoiceNo, invoiceDate: r.InvoiceDate, randomNumber: r.RandomNumber }),
      ),
    invalid: (input) =>
      call(
        'invalid',
        () => buildInvalidPayload(id, input),
        InvalidReply,
        (r) => ({ invoiceNo: r.InvoiceNo }),
      ),
    allowance: (input) =>
      call(
        'allowance',
        () => buildAllowancePayload(id, input),
        AllowanceReply,
        (r) => ({
          allowanceNo: r.IA_Allow_No,
          invoiceNo: r.IA_Invoice_No,
          date: r.IA_Date,
          remainingAmount: r.IA_Remain_Allowance_Amt,
        }),
      ),
    allowanceByCollegiate: (input) =>
      call(
        'allowanceByCollegiate',
        () => buildOnlineAllowancePayload(id, input),
        OnlineAllowanceReply,
        (r) => ({
          allowanceNo: r.IA_Allow_No,
          invoiceNo: r.IA_Invoice_No,
          requestedAt: r.IA_TempDate ?? '',
          expiresAt: r.IA_TempExpireDate ?? '',
          remainingAmount: r.IA_Remain_Allowance_Amt ?? null,
        }),
      ),
    allowanceInvalid: (input) =>
      call(
        'allowanceInvalid',
        () => buildAllowanceInvalidPayload(id, input),
        AllowanceInvalidReply,
        (r) => ({ invoiceNo: r.IA_Invoice_No ?? input.invoiceNo }),
      ),
    getIssue: (input) =>
      call(
        'getIssue',
        () => buildGetIssuePayload(id, input),
        GetIssueReply,
        (r) => ({
          invoiceNo: r.IIS_Number,
          relateNumber: r.IIS_Relate_Number,
          invoiceDate: r.IIS_Create_Date,
          randomNumber: r.IIS_Random_Number,
          salesAmount: r.IIS_Sales_Amount,
          voided: r.IIS_Invalid_Status === '1',
          remainingAllowance: r.IIS_Remain_Allowance_Amt,
          awardFlag: r.IIS_Award_Flag,
          awardType: r.IIS_Award_Flag === '1' ? r.IIS_Award_Type : '',
        }),
      ),
    checkBarcode: (barcode) =>
      call(
        'checkBarcode',
        () => buildCheckBarcodePayload(id, barcode),
        CheckReply,
        (r) => ({ exists: r.IsExist === 'Y' }),
      ),
    checkLoveCode: (loveCode) =>
      call(
        'checkLoveCode',
        () => buildCheckLoveCodePayload(id, loveCode),
        CheckReply,
        (r) => ({ exists: r.IsExist === 'Y' }),
      ),
  };
}
