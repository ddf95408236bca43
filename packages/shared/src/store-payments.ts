import { z } from 'zod';
import { formatTwd } from './money.ts';

/**
 * Paying at a convenience store (超商代碼 CVS, 超商條碼 BARCODE) and by card in instalments (分期),
 * through ECPay's AIO protocol: the owner's settings, ECPay's outer limits, and the words the
 * shopper reads. The rule in our words: docs/product-rules.md#paying-at-a-store-and-in-instalments;
 * the protocol facts and their sources: docs/integrations/ecpay-store-payments.md.
 */

/**
 * ECPay's limits, which no setting may pass. Amounts: a CVS code is issued for NT$27–20,000 and a
 * barcode for NT$17–20,000 (the widest ECPay documents; a personal member's contract allows a code
 * only NT$33–6,000, hence the default range below). Deadlines: StoreExpireDate counts minutes for
 * a code (1–43,200, i.e. up to 30 days; ECPay's default 10,080 = 7 days) and days for a barcode
 * (1–30; default 7).
 */
export const ECPAY_STORE_LIMITS = {
  cvsCode: { minAmount: 27, maxAmount: 20_000, minExpire: 1, maxExpire: 43_200 },
  cvsBarcode: { minAmount: 17, maxAmount: 20_000, minExpire: 1, maxExpire: 30 },
} as const;

/** ECPay's CreditInstallment terms the shop may offer (the bank's own 30-term plans are left out). */
export const INSTALLMENT_TERMS = [3, 6, 12, 18, 24] as const;
export type InstallmentTerm = (typeof INSTALLMENT_TERMS)[number];
export const isInstallmentTerm = (n: unknown): n is InstallmentTerm =>
  (INSTALLMENT_TERMS as readonly unknown[]).includes(n);
/** The same check for a schema, keeping the value a plain number for the forms that send it. */
export const isOfferedTerm = (n: number): boolean => (INSTALLMENT_TERMS as readonly number[]).includes(n);

const amount = (what: string, min: number, max: number) =>
  z
    .number({ error: `請輸入${what}` })
    .int(`${what}必須是整數`)
    .min(min, `${what}至少 ${formatTwd(min)}（綠界的下限）`)
    .max(max, `${what}最多 ${formatTwd(max)}（綠界的上限）`);

const StoreMethodBase = (limits: { minAmount: number; maxAmount: number }) => ({
  enabled: z.boolean({ error: '請指定是否提供這種付款方式' }),
  minAmount: amount('最低金額', limits.minAmount, limits.maxAmount),
  maxAmount: amount('最高金額', limits.minAmount, limits.maxAmount),
});

/** The owner's choices (console → 設定 → 付款方式). Each range is checked to be in order, beside its field. */
export const StorePaymentSettings = z
  .object({
    cvsCode: z
      .object({
        ...StoreMethodBase(ECPAY_STORE_LIMITS.cvsCode),
        expireMinutes: z
          .number({ error: '請輸入繳費期限' })
          .int('繳費期限必須是整數分鐘')
          .min(ECPAY_STORE_LIMITS.cvsCode.minExpire, '繳費期限至少 1 分鐘')
          .max(ECPAY_STORE_LIMITS.cvsCode.maxExpire, '繳費期限最多 43,200 分鐘（30 天，綠界的上限）'),
      })
      .strict(),
    cvsBarcode: z
      .object({
        ...StoreMethodBase(ECPAY_STORE_LIMITS.cvsBarcode),
        expireDays: z
          .number({ error: '請輸入繳費期限' })
          .int('繳費期限必須是整數天')
          .min(ECPAY_STORE_LIMITS.cvsBarcode.minExpire, '繳費期限至少 1 天')
          .max(ECPAY_STORE_LIMITS.cvsBarcode.maxExpire, '繳費期限最多 30 天（綠界的上限）'),
      })
      .strict(),
    installments: z
      .object({
        terms: z
          .array(z.number().refine(isOfferedTerm, '分期期數只能是 3、6、12、18、24 期'))
          .max(INSTALLMENT_TERMS.length)
          .refine((t) => new Set(t).size === t.length, '分期期數重複了'),
        minAmount: z
          .number({ error: '請輸入分期最低金額' })
          .int('分期最低金額必須是整數')
          .min(100, `分期最低金額至少 ${formatTwd(100)}`)
          .max(199_999, `分期最低金額最多 ${formatTwd(199_999)}`),
      })
      .strict(),
  })
  .strict()
  .superRefine((s, ctx) => {
    for (const key of ['cvsCode', 'cvsBarcode'] as const)
      if (s[key].minAmount > s[key].maxAmount)
        ctx.addIssue({ code: 'custom', path: [key, 'maxAmount'], message: '最高金額不能低於最低金額' });
  });
export type StorePaymentSettings = z.infer<typeof StorePaymentSettings>;

export const DEFAULT_STORE_PAYMENTS: StorePaymentSettings = {
  cvsCode: { enabled: true, minAmount: 33, maxAmount: 6_000, expireMinutes: 10_080 },
  cvsBarcode: { enabled: true, minAmount: 17, maxAmount: 20_000, expireDays: 7 },
  installments: { terms: [3, 6, 12], minAmount: 3_000 },
};

/** What checkout may offer for an order total (the quote carries it; the server checks the same). */
export const StorePaymentOffer = z.object({
  cvsCode: z.boolean(),
  cvsBarcode: z.boolean(),
  /** How long a code stays payable once issued (「7 天」). */
  cvsCodeWithin: z.string(),
  cvsBarcodeWithin: z.string(),
  /** The terms offered for this total; empty below the minimum or when none is chosen. */
  installments: z.array(z.number().int()),
  /** From what total instalments are offered (0 when no term is offered at all). */
  installmentsFrom: z.number().int(),
});
export type StorePaymentOffer = z.infer<typeof StorePaymentOffer>;

/** 10080 → 「7 天」, 90 → 「90 分鐘」, 120 → 「2 小時」. */
export function minutesInWords(minutes: number): string {
  if (minutes % 1440 === 0) return `${minutes / 1440} 天`;
  if (minutes % 60 === 0) return `${minutes / 60} 小時`;
  return `${minutes} 分鐘`;
}

const inRange = (s: { enabled: boolean; minAmount: number; maxAmount: number }, total: number) =>
  s.enabled && total >= s.minAmount && total <= s.maxAmount;

export function storePaymentOffer(s: StorePaymentSettings, total: number): StorePaymentOffer {
  const terms = [...s.installments.terms].sort((a, b) => a - b);
  return {
    cvsCode: inRange(s.cvsCode, total),
    cvsBarcode: inRange(s.cvsBarcode, total),
    cvsCodeWithin: minutesInWords(s.cvsCode.expireMinutes),
    cvsBarcodeWithin: `${s.cvsBarcode.expireDays} 天`,
    installments: total >= s.installments.minAmount ? terms : [],
    installmentsFrom: terms.length > 0 ? s.installments.minAmount : 0,
  };
}

/**
 * Why the server refuses a method or term for this total (null when it is allowed): the same rule
 * the checkout uses to hide them, in case a page was stale or a request was made by hand.
 */
export function storePaymentRefusal(
  s: StorePaymentSettings,
  method: string,
  total: number,
  installments: number | undefined,
): string | null {
  if (method === 'cvs_code' || method === 'cvs_barcode') {
    const m = method === 'cvs_code' ? s.cvsCode : s.cvsBarcode;
    const name = method === 'cvs_code' ? '超商代碼繳費' : '超商條碼繳費';
    if (!m.enabled) return `目前不提供${name}，請改選其他付款方式。`;
    if (total < m.minAmount || total > m.maxAmount)
      return `${name}限訂單金額 ${formatTwd(m.minAmount)}–${formatTwd(m.maxAmount)}，這筆訂單為 ${formatTwd(total)}，請改選其他付款方式。`;
  }
  if (installments !== undefined) {
    if (method !== 'credit_card') return '只有信用卡付款可以分期。';
    if (!isInstallmentTerm(installments) || !s.installments.terms.includes(installments))
      return `目前不提供分 ${installments} 期，請改選其他期數或一次付清。`;
    if (total < s.installments.minAmount)
      return `訂單金額滿 ${formatTwd(s.installments.minAmount)} 才能分期，請改為一次付清。`;
  }
  return null;
}

/**
 * What each instalment costs: the bank bills the total in equal parts and puts what does not
 * divide on the first one (ECPay's description of 信用卡分期付款).
 */
export function installmentPlan(total: number, terms: number): { first: number; each: number } {
  const each = Math.floor(total / terms);
  return { first: total - each * (terms - 1), each };
}

/** 「分 6 期，每期 NT$500」 or 「分 6 期，第一期 NT$502，之後每期 NT$500」. */
export function installmentWords(total: number, terms: number): string {
  const { first, each } = installmentPlan(total, terms);
  return first === each
    ? `分 ${terms} 期，每期 ${formatTwd(each)}`
    : `分 ${terms} 期，第一期 ${formatTwd(first)}，之後每期 ${formatTwd(each)}`;
}

/** Where a CVS code is paid: each chain's kiosk. */
export const CVS_CODE_KIOSKS = ['7-ELEVEN ibon', '全家 FamiPort', '萊爾富 Life-ET', 'OK 超商 OK‧go'] as const;
/** Where a barcode is paid: the counter of any of the four chains. */
export const BARCODE_STORES = ['7-ELEVEN', '全家', '萊爾富', 'OK 超商'] as const;

/**
 * ECPay's ExpireDate for a code or barcode is Taiwan time, `yyyy/MM/dd HH:mm:ss`; the buyer reads
 * 「2026/11/26 14:05」. A date alone (as for ATM) means the end of that day.
 */
export function storeDeadline(expireDate: string): string {
  const day = expireDate.slice(0, 10).replaceAll('-', '/');
  const time = /\d{2}:\d{2}/.exec(expireDate.slice(10))?.[0];
  return `${day} ${time ?? '23:59'}`;
}

/** The instant of an ExpireDate (null when it cannot be read). */
export function storeDeadlineInstant(expireDate: string): Date | null {
  const m = /^(\d{4})[/-](\d{2})[/-](\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(expireDate.trim());
  if (!m) return null;
  const [, y, mo, d, h = '23', mi = '59', sec = '59'] = m;
  const at = new Date(`${y}-${mo}-${d}T${h}:${mi}:${sec}+08:00`);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** A barcode as stored and shown: ECPay's three parts, each drawn as its own Code 39. */
export const StoreCodeView = z.object({
  /** CVS: the 14-character code typed at the kiosk; null for a barcode. */
  paymentNo: z.string().nullable(),
  /** BARCODE: Barcode1–3; null for a code. */
  barcodes: z.tuple([z.string(), z.string(), z.string()]).nullable(),
  expireDate: z.string(),
  /** 「2026/11/26 14:05」. */
  deadline: z.string(),
});
export type StoreCodeView = z.infer<typeof StoreCodeView>;
