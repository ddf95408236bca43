import { z } from 'zod';
import { taipeiParts } from '@shop/shared/taipei-time';
import { WELL_KNOWN_DONATION_CODES } from '@shop/shared/invoice';
import {
  EINVOICE_LIMITS,
  RETURN_URL_MAX,
  isCitizenCertificate,
  isLoveCode,
  isMobileBarcode,
  isTaxId,
} from './ecpay-invoice-fields.ts';

/**
 * What the e-invoice sandbox checks and answers as ECPay does: its RtnCodes, the codes it knows,
 * the shape of each operation's Data and the sums an invoice must add up to.
 */

/** How long the buyer has to agree to an online allowance: the link in ECPay's mail is valid 72 hours (?p=15391). */
export const CONSENT_HOURS = 72;

/**
 * The sandbox's RtnCodes for a refused operation. ECPay publishes its own list only in the merchant
 * back office, so these are the sandbox's (a client must treat every RtnCode other than 1 as a refusal).
 */
export const SANDBOX_RTN = {
  ok: 1,
  invalidField: 8000001,
  duplicateRelateNumber: 8000002,
  amountMismatch: 8000003,
  carrierRule: 8000004,
  notFound: 8000005,
  alreadyVoided: 8000006,
  hasAllowances: 8000007,
  overAllowance: 8000008,
  allowanceVoided: 8000009,
  outOfScope: 8000010,
  voidPeriodOver: 8000011,
} as const;

/**
 * Sandbox data, not the real registries. Mobile barcodes: every well-formed one exists except
 * these. Donation codes: only these exist (168001 is the code in ECPay's own SDK example, 5299 is
 * made up; the well-known ones the checkout offers exist too, so a shopper trying them is not refused).
 */
export const SANDBOX_UNKNOWN_BARCODES: ReadonlySet<string> = new Set(['/0000000']);

export const SANDBOX_LOVE_CODES: ReadonlySet<string> = new Set([
  '168001',
  '5299',
  ...WELL_KNOWN_DONATION_CODES.map((c) => c.code),
]);

export type Answer = Record<string, unknown> & { RtnCode: number; RtnMsg: string };

export const fail = (RtnCode: number, RtnMsg: string): Answer => ({ RtnCode, RtnMsg });

// Amounts may come as JSON numbers or numeric strings (older integrations send strings).
const num = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^-?\d+(\.\d+)?$/),
  ])
  .transform(Number)
  .pipe(z.number().finite());

const opt = (max: number) =>
  z
    .string()
    .max(max)
    .optional()
    .transform((v) => v ?? '');

const Item = z.object({
  ItemSeq: num.optional(),
  ItemName: z.string().min(1).max(EINVOICE_LIMITS.itemName),
  ItemCount: num,
  ItemWord: z.string().min(1).max(EINVOICE_LIMITS.itemWord),
  ItemPrice: num,
  ItemTaxType: z
    .string()
    .max(1)
    .optional()
    .transform((v) => v ?? ''),
  ItemAmount: num,
  ItemRemark: z
    .string()
    .max(EINVOICE_LIMITS.itemRemark)
    .nullish()
    .transform((v) => v ?? ''),
});
type Item = z.infer<typeof Item>;

export const IssueData = z.object({
  RelateNumber: z.string().min(1).max(30),
  CustomerID: opt(20),
  CustomerIdentifier: opt(8),
  CustomerName: opt(EINVOICE_LIMITS.customerName),
  CustomerAddr: opt(EINVOICE_LIMITS.customerAddr),
  CustomerPhone: opt(EINVOICE_LIMITS.customerPhone),
  CustomerEmail: opt(EINVOICE_LIMITS.customerEmail),
  ClearanceMark: opt(1),
  Print: z.enum(['0', '1']),
  Donation: z.enum(['0', '1']),
  LoveCode: opt(7),
  CarrierType: z
    .enum(['', '1', '2', '3'])
    .optional()
    .transform((v) => v ?? ''),
  CarrierNum: opt(64),
  TaxType: z.string(),
  SalesAmount: num,
  InvoiceRemark: opt(EINVOICE_LIMITS.invoiceRemark),
  Items: z.array(Item).min(1).max(EINVOICE_LIMITS.items),
  InvType: z.string(),
  vat: z
    .string()
    .optional()
    .transform((v) => v ?? '1'),
});

export const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/)
  .transform((v) => v.slice(0, 10));

export const InvalidData = z.object({
  InvoiceNo: z.string().max(10),
  InvoiceDate: day,
  Reason: z.string().trim().min(1).max(120),
});

export const AllowanceData = z.object({
  InvoiceNo: z.string().max(10),
  InvoiceDate: day,
  AllowanceNotify: z.enum(['S', 'E', 'A', 'N']),
  CustomerName: opt(EINVOICE_LIMITS.customerName),
  NotifyMail: opt(100),
  NotifyPhone: opt(20),
  AllowanceAmount: num,
  Items: z.array(Item).min(1).max(EINVOICE_LIMITS.items),
});

export const OnlineAllowanceData = AllowanceData.extend({ ReturnURL: z.string().min(1).max(RETURN_URL_MAX) });

export const AllowanceInvalidData = z.object({
  InvoiceNo: z.string().max(10),
  AllowanceNo: z.string().max(16),
  Reason: z.string().trim().min(1).max(120),
});

export const GetIssueData = z.union([
  z.object({ InvoiceNo: z.string().max(10), InvoiceDate: day }),
  z.object({ RelateNumber: z.string().min(1).max(30) }),
]);

export const CheckBarcodeData = z.object({ BarCode: z.string().max(8) });

export const CheckLoveCodeData = z.object({ LoveCode: z.string().max(7) });

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const DUPLICATE_RELATE = '特店自訂編號（RelateNumber）重複，不可重複開立';

/** What zod refused, as ECPay words a field error: the field's name and that it is wrong. */
export function fieldError(error: z.ZodError): Answer {
  const issue = error.issues[0];
  const field = issue?.path.filter((p) => typeof p === 'string').join('.') || 'Data';
  return fail(SANDBOX_RTN.invalidField, `${field} 格式錯誤`);
}

/** Why the items of an invoice or allowance break ECPay's amount rules; null when they hold. */
export function itemsProblem(items: readonly Item[], total: number, totalName: string): string | null {
  for (const [i, it] of items.entries()) {
    const at = `第 ${i + 1} 項商品`;
    if (!(it.ItemCount > 0)) return `${at}數量（ItemCount）必須大於 0`;
    // Negative prices are refused here; ECPay's field table does not say it takes them, and the shop never sends them.
    if (it.ItemPrice < 0 || it.ItemAmount < 0) return `${at}單價與小計不可為負數`;
    if (it.ItemTaxType !== '' && it.ItemTaxType !== '1')
      return `${at}課稅別（ItemTaxType）與發票課稅類別不符`;
    // ItemPrice × ItemCount = ItemAmount, allowing ECPay's rounding to whole dollars (its SDK example sends 10.5 × 3 as 32).
    if (Math.round(it.ItemPrice * it.ItemCount) !== Math.round(it.ItemAmount))
      return `${at}小計（ItemAmount）不等於單價乘以數量`;
  }
  if (!Number.isInteger(total) || total <= 0) return `${totalName} 必須是大於 0 的整數`;
  const sum = items.reduce((s, it) => s + it.ItemAmount, 0);
  if (Math.round(sum) !== total) return `商品小計合計（${Math.round(sum)}）不等於 ${totalName}（${total}）`;
  return null;
}

/** yyyy-MM-dd HH:mm:ss in Taiwan time, as ECPay writes InvoiceDate and IA_Date. */
export function ecpayDateTime(when: Date): string {
  const p = taipeiParts(when);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/**
 * What ECPay refuses in an issue's Data beyond its shape, in ECPay's order: the tax kind the sandbox
 * imitates, the customer's contact, carrier, 統一編號, donation and print rules, and the items'
 * sums. Null when none applies (RelateNumber is checked before, with the store).
 */
export function issueRefusal(d: z.infer<typeof IssueData>): Answer | null {
  if (d.TaxType !== '1' || d.InvType !== '07' || d.vat !== '1')
    return fail(SANDBOX_RTN.outOfScope, '沙盒只模擬應稅含稅價的一般稅額發票（TaxType 1、InvType 07、vat 1）');

  if (!d.CustomerPhone && !d.CustomerEmail)
    return fail(SANDBOX_RTN.invalidField, 'CustomerPhone 與 CustomerEmail 至少須填一項');
  if (d.CustomerEmail && !EMAIL.test(d.CustomerEmail))
    return fail(SANDBOX_RTN.invalidField, 'CustomerEmail 格式錯誤');
  if (d.CustomerPhone && !/^\d+$/.test(d.CustomerPhone))
    return fail(SANDBOX_RTN.invalidField, 'CustomerPhone 只能是數字');
  if (d.CustomerID && !/^\w+$/.test(d.CustomerID))
    return fail(SANDBOX_RTN.invalidField, 'CustomerID 只能使用英文、數字與底線');

  // Carriers: the number must fit the type, and an invoice kept in a carrier is not printed.
  if ((d.CarrierType === '' || d.CarrierType === '1') && d.CarrierNum !== '')
    return fail(SANDBOX_RTN.carrierRule, 'CarrierType 為空或 1 時，CarrierNum 請帶空字串');
  if (d.CarrierType === '2' && !isCitizenCertificate(d.CarrierNum))
    return fail(SANDBOX_RTN.carrierRule, '自然人憑證條碼（CarrierNum）為 2 碼大寫英文加 14 碼數字');
  if (d.CarrierType === '3' && !isMobileBarcode(d.CarrierNum))
    return fail(SANDBOX_RTN.carrierRule, '手機條碼（CarrierNum）為「/」加 7 碼數字、大寫英文或 + - .');

  if (d.CustomerIdentifier) {
    if (!isTaxId(d.CustomerIdentifier))
      return fail(SANDBOX_RTN.invalidField, 'CustomerIdentifier 統一編號格式錯誤');
    if (d.Donation === '1') return fail(SANDBOX_RTN.carrierRule, '有統一編號的發票不可捐贈');
    if (d.CarrierType === '' && d.Print !== '1')
      return fail(SANDBOX_RTN.carrierRule, '有統一編號且無載具時，Print 必須為 1');
    if ((d.CarrierType === '1' || d.CarrierType === '2') && d.Print !== '0')
      return fail(SANDBOX_RTN.carrierRule, '載具類別為 1 或 2 時，Print 必須為 0');
  } else if (d.CarrierType !== '' && d.Print !== '0') {
    return fail(SANDBOX_RTN.carrierRule, '存入載具的發票不可列印（Print 必須為 0）');
  }
  if (d.Donation === '1') {
    if (!isLoveCode(d.LoveCode)) return fail(SANDBOX_RTN.invalidField, 'LoveCode 捐贈碼為 3 到 7 位數字');
    if (d.Print !== '0') return fail(SANDBOX_RTN.carrierRule, '捐贈的發票不可列印（Print 必須為 0）');
  } else if (d.LoveCode !== '') {
    return fail(SANDBOX_RTN.carrierRule, '未捐贈時 LoveCode 請帶空字串');
  }
  if (d.Print === '1' && (!d.CustomerName.trim() || !d.CustomerAddr.trim()))
    return fail(SANDBOX_RTN.invalidField, '列印發票時 CustomerName 與 CustomerAddr 為必填');

  const problem = itemsProblem(d.Items, d.SalesAmount, 'SalesAmount');
  return problem ? fail(SANDBOX_RTN.amountMismatch, problem) : null;
}
