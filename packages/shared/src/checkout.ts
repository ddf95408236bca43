import { z } from 'zod';
import { findDistrict } from './data/tw-districts.ts';
import {
  isCitizenCertificate,
  isDonationCode,
  isMobileBarcode,
  normalizeMobileBarcode,
  taxIdProblem,
} from './invoice.ts';
import { PAYMENT_METHODS } from './payment-methods.ts';
import { StorePaymentOffer, isOfferedTerm } from './store-payments.ts';
import { textField } from './validation/zod.ts';

export const CVS_BRANDS = ['7-ELEVEN', 'FAMILY', 'HILIFE', 'OK'] as const;
export type CvsBrandCode = (typeof CVS_BRANDS)[number];
export const CVS_BRAND_NAMES: Record<CvsBrandCode, string> = {
  '7-ELEVEN': '7-ELEVEN',
  FAMILY: '全家',
  HILIFE: '萊爾富',
  OK: 'OK超商',
};

/** How each chain's own store names may begin (全家 「全家 竹山大智店」, OK 「OK 草屯中正店」). */
const CVS_NAME_PREFIXES: Record<CvsBrandCode, readonly string[]> = {
  '7-ELEVEN': ['7-ELEVEN', '統一超商'],
  FAMILY: ['全家'],
  HILIFE: ['萊爾富'],
  OK: ['OK'],
};

/**
 * A pickup store as shoppers read it: the chain, then the store. Names that already start with the
 * chain (全家 and the others name their stores that way) are shown as they are, so the chain is never
 * said twice; 7-ELEVEN's 「鹿谷門市」 becomes 「7-ELEVEN 鹿谷門市」.
 */
export function cvsStoreLabel(
  brand: string | null | undefined,
  storeName: string | null | undefined,
): string {
  const name = (storeName ?? '').trim();
  const code = (brand ?? '') as CvsBrandCode;
  const chain = CVS_BRAND_NAMES[code] ?? brand ?? '';
  const prefixes = CVS_NAME_PREFIXES[code] ?? [chain];
  if (name && prefixes.some((p) => p && name.toUpperCase().startsWith(p.toUpperCase()))) return name;
  return `${chain} ${name}`.trim();
}

/** Most addresses and stores one member may save in the address book (checkout's 「儲存這個地址」 too). */
export const MAX_ADDRESSES = 10;

export const TW_MOBILE = /^09\d{8}$/;

const text = (label: string, rules: string) => textField(label, rules);

/** Longest phone number as typed, with spaces and dashes (0912-345-678 is 12). */
export const PHONE_INPUT_MAX = 20;

/** A Taiwanese mobile number as typed (spaces and dashes dropped): 09 and 8 more digits. */
export const MobilePhone = z
  .string({ error: '手機號碼為必填欄位' })
  .trim()
  .max(PHONE_INPUT_MAX, { message: '手機號碼格式不正確，請輸入 09 開頭的 10 位數字', abort: true })
  .transform((v) => v.replace(/[\s-]/g, ''))
  .refine((v) => v.length > 0, '手機號碼為必填欄位')
  .refine((v) => v.length === 0 || TW_MOBILE.test(v), '手機號碼格式不正確，請輸入 09 開頭的 10 位數字');

/**
 * ECPay's rule for a parcel's receiver (ReceiverName of /Express/Create, store pickup and 黑貓 home
 * delivery alike): 2–5 Chinese characters, or 4–10 Latin letters, and nothing else: no spaces,
 * digits, titles (先生、小姐) or symbols. A store hands the parcel over against an ID with that name.
 */
export function isLogisticsName(name: string): boolean {
  return /^[\u4e00-\u9fff]{2,5}$/.test(name) || /^[A-Za-z]{4,10}$/.test(name);
}

/** What a name outside the carriers' rule is told, per way of delivery. */
export const LOGISTICS_NAME_MESSAGES = {
  cvs: '超商取件人姓名須為 2–5 個中文字或 4–10 個英文字母，不可含空白、稱謂或符號',
  home: '收件人姓名須為 2–5 個中文字或 4–10 個英文字母，不可含空白、稱謂或符號',
} as const;

/** A receiver's name as the carriers take it (an empty one is told it is required instead). */
export const recipientNameField = (method: 'home' | 'cvs') =>
  text(method === 'cvs' ? '取件人姓名' : '收件人姓名', 'required|max:30').refine(
    (v) => v === '' || isLogisticsName(v),
    LOGISTICS_NAME_MESSAGES[method],
  );

export const HomeShipping = z
  .object({
    method: z.literal('home'),
    recipientName: recipientNameField('home'),
    phone: MobilePhone,
    city: text('縣市', 'required|max:10'),
    district: text('鄉鎮市區', 'required|max:10'),
    address: text('地址', 'required|min:4|max:120'),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.city && v.district && !findDistrict(v.city, v.district))
      ctx.addIssue({ code: 'custom', path: ['district'], message: '請選擇正確的鄉鎮市區' });
  });

export const CvsShipping = z
  .object({
    method: z.literal('cvs'),
    recipientName: recipientNameField('cvs'),
    phone: MobilePhone,
    cvsBrand: z.enum(CVS_BRANDS, { message: '請選擇超商' }),
    storeId: z.string({ error: '請選擇取貨門市' }).trim().min(1, '請選擇取貨門市').max(20, '請選擇取貨門市'),
  })
  .strict();

export const ShippingInput = z.discriminatedUnion('method', [HomeShipping, CvsShipping], {
  error: '請選擇配送方式',
});
export type ShippingInput = z.infer<typeof ShippingInput>;

/** What the checkout says beside a 自然人憑證條碼 that is not 2 letters and 14 digits. */
export const CERTIFICATE_MESSAGE = '自然人憑證條碼格式不正確：2 碼英文字母加上 14 碼數字';

export const InvoiceInput = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('member') }).strict(),
    z
      .object({
        type: z.literal('mobile'),
        mobileBarcode: z
          .string()
          .max(32, { message: '手機條碼格式不正確：「/」加上 7 碼英數字', abort: true })
          .transform(normalizeMobileBarcode)
          .pipe(
            z
              .string()
              .max(8, { message: '手機條碼格式不正確：「/」加上 7 碼英數字', abort: true })
              .refine(isMobileBarcode, '手機條碼格式不正確：「/」加上 7 碼英數字'),
          ),
      })
      .strict(),
    // 自然人憑證 (ECPay CarrierType 2), read like the mobile barcode: half-width, upper-case, trimmed.
    z
      .object({
        type: z.literal('certificate'),
        certificate: z
          .string({ error: CERTIFICATE_MESSAGE })
          .max(32, { message: CERTIFICATE_MESSAGE, abort: true })
          .transform(normalizeMobileBarcode)
          .pipe(
            z
              .string()
              .max(16, { message: CERTIFICATE_MESSAGE, abort: true })
              .refine(isCitizenCertificate, CERTIFICATE_MESSAGE),
          ),
      })
      .strict(),
    z
      .object({
        type: z.literal('donation'),
        donationCode: z
          .string()
          .trim()
          .max(7, { message: '捐贈碼為 3 到 7 位數字', abort: true })
          .refine(isDonationCode, '捐贈碼為 3 到 7 位數字'),
      })
      .strict(),
    z
      .object({
        type: z.literal('company'),
        taxId: z
          .string()
          .trim()
          .max(8, { message: '統一編號為 8 位數字', abort: true })
          .superRefine((v, ctx) => {
            const problem = taxIdProblem(v);
            if (problem) ctx.addIssue({ code: 'custom', message: problem });
          }),
        companyTitle: text('公司抬頭', 'required|max:60'),
      })
      .strict(),
  ],
  { error: '請選擇發票類型' },
);
export type InvoiceInput = z.infer<typeof InvoiceInput>;

export const PaymentMethodInput = z.enum(PAYMENT_METHODS, { message: '請選擇付款方式' });

/** Why checkout refuses to place an order, besides bad input (the messages come from the server). */
export const CheckoutErrorCode = {
  /** The account's e-mail address is not verified yet: verify it, then order. */
  emailNotVerified: 'email-not-verified',
  /** Too many orders hold stock unpaid (or unshipped, for cash on delivery): pay, cancel or wait first. */
  tooManyOpenOrders: 'too-many-open-orders',
} as const;

export const CouponCode = z
  .string()
  .trim()
  .toUpperCase()
  .max(32, { message: '優惠碼格式不正確', abort: true })
  .regex(/^[A-Z0-9-]{3,32}$/, '優惠碼格式不正確');

/** What the checkout page sends for a price quote (everything optional but the method). */
export const QuoteBody = z
  .object({
    shippingMethod: z.enum(['home', 'cvs'], { message: '請選擇配送方式' }),
    city: z.string().max(10).optional(),
    district: z.string().max(10).optional(),
    /** Store pickup: the chosen store (an outlying-island store costs the outlying surcharge). */
    cvsBrand: z.enum(CVS_BRANDS).optional(),
    storeId: z.string().max(20).optional(),
    paymentMethod: PaymentMethodInput.optional(),
    couponCode: CouponCode.optional(),
  })
  .strict();
export type QuoteBody = z.infer<typeof QuoteBody>;

export const PlaceOrderBody = z
  .object({
    idempotencyKey: z
      .string()
      .max(64, { message: '請重新整理頁面後再試', abort: true })
      .regex(/^[A-Za-z0-9-]{16,64}$/, '請重新整理頁面後再試'),
    shipping: ShippingInput,
    invoice: InvoiceInput,
    paymentMethod: PaymentMethodInput,
    /** Card only: the instalment term (分期期數) the shopper picked; absent for paying at once. */
    installments: z
      .number({ error: '分期期數不正確' })
      .refine(isOfferedTerm, '分期期數只能是 3、6、12、18、24 期')
      .optional(),
    couponCode: CouponCode.optional(),
    note: z.string().trim().max(200, '備註不能超過 200 個字元').optional(),
    /** 「儲存這個地址」: the destination joins the member's address book with the order (not twice, not past its limit). */
    saveAddress: z.boolean({ error: '請重新整理頁面後再試' }).optional(),
  })
  .strict();
export type PlaceOrderBody = z.infer<typeof PlaceOrderBody>;

/**
 * Where the member's last order went, for a checkout with nothing typed and no saved address
 * (`GET /api/checkout/last-recipient`); null before the first order.
 */
export const LastRecipientResponse = z.object({
  recipient: z
    .object({
      shippingMethod: z.enum(['home', 'cvs']),
      recipientName: z.string(),
      phone: z.string(),
      city: z.string(),
      district: z.string(),
      address: z.string(),
      cvsBrand: z.enum(CVS_BRANDS).nullable(),
      storeId: z.string(),
      storeName: z.string(),
      storeAddress: z.string(),
      storePhone: z.string(),
      storeOutlying: z.boolean(),
    })
    .nullable(),
});
export type LastRecipientResponse = z.infer<typeof LastRecipientResponse>;

export const QuoteLine = z.object({ label: z.string(), amount: z.number().int() });

export const QuoteResponse = z.object({
  subtotal: z.number().int(),
  discounts: z.array(
    z.object({
      kind: z.enum(['tier', 'coupon']),
      code: z.string().optional(),
      label: z.string(),
      amount: z.number().int(),
    }),
  ),
  discountTotal: z.number().int(),
  shippingFee: z.number().int(),
  shippingLines: z.array(QuoteLine),
  total: z.number().int(),
  /** How much more for free shipping; 0 when already free. */
  toFreeShipping: z.number().int(),
  /** The outlying-island surcharge in the shipping fee (0 on the main island): free shipping never waives it. */
  outlyingSurcharge: z.number().int(),
  couponError: z.string().nullable(),
  itemCount: z.number().int(),
  /** Which store payments and instalment terms this total allows (the server refuses the others too). */
  storePayments: StorePaymentOffer.optional(),
});
export type QuoteResponse = z.infer<typeof QuoteResponse>;

export const CvsStoreView = z.object({
  brand: z.enum(CVS_BRANDS),
  id: z.string(),
  name: z.string(),
  address: z.string(),
});
export type CvsStoreView = z.infer<typeof CvsStoreView>;
export const StoreSearchQuery = z
  .object({ brand: z.enum(CVS_BRANDS, { message: '請選擇超商' }), q: z.string().trim().max(40).default('') })
  .strict();
export const StoreSearchResponse = z.object({ stores: z.array(CvsStoreView) });

/** Which payment methods checkout may offer besides the ones always there (LINE Pay when configured). */
export const PaymentOptionsResponse = z.object({ linePay: z.boolean() });
export type PaymentOptionsResponse = z.infer<typeof PaymentOptionsResponse>;
