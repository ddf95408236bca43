import { checkMacValue, verifyCheckMacValue } from '../../lib/ecpay-check-mac.ts';
import {
  isCitizenCertificate,
  isDonationCode,
  isMobileBarcode,
  isTaxId,
  normalizeMobileBarcode,
} from '@shop/shared/invoice';
import { type EinvoiceSettings } from './ecpay-invoice-protocol.ts';

/**
 * From the shop's words to ECPay's e-invoice fields: the field rules, and the payload of each
 * operation the shop uses, refusing (EinvoiceInputError) what ECPay would refuse.
 */

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
