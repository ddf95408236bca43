import { z } from 'zod';
import {
  CERTIFICATE_MESSAGE,
  CVS_BRANDS,
  LOGISTICS_NAME_MESSAGES,
  TW_MOBILE,
  isLogisticsName,
  type PlaceOrderBody,
} from '@shop/shared/checkout';
import { findDistrict } from '@shop/shared/data/tw-districts';
import {
  isCitizenCertificate,
  isDonationCode,
  isMobileBarcode,
  normalizeMobileBarcode,
  taxIdProblem,
} from '@shop/shared/invoice';
import type { AddressView } from '@shop/shared/membership';
import { PAYMENT_METHODS } from '@shop/shared/payment-methods';
import { validateValue } from '@shop/shared/validation/rules';

const checkoutShape = z.object({
  shippingMethod: z.enum(['home', 'cvs']),
  recipientName: z.string(),
  phone: z.string(),
  city: z.string(),
  district: z.string(),
  address: z.string(),
  cvsBrand: z.enum(CVS_BRANDS),
  storeId: z.string(),
  storeName: z.string(),
  storeAddress: z.string(),
  storePhone: z.string(),
  storeOutlying: z.boolean(),
  invoiceType: z.enum(['member', 'mobile', 'certificate', 'donation', 'company']),
  mobileBarcode: z.string(),
  certificate: z.string(),
  donationCode: z.string(),
  taxId: z.string(),
  companyTitle: z.string(),
  paymentMethod: z.enum(PAYMENT_METHODS),
  /** Card instalments: '' pays at once, else the term ('3', '6', …). */
  installments: z.string(),
  couponCode: z.string(),
  note: z.string(),
  /** 「儲存這個地址」: the destination joins the address book with the order. */
  saveAddress: z.boolean(),
});
type Shape = z.infer<typeof checkoutShape>;
type Fail = (path: string, message: string) => void;

/** Recipient and destination: a home address or a store. */
function checkDestination(v: Shape, fail: Fail) {
  const rule = (path: keyof Shape, rules: string, label: string) => {
    const message = validateValue(String(v[path]).trim(), rules, label);
    if (message) fail(path, message);
  };
  rule('recipientName', 'required|max:30', v.shippingMethod === 'home' ? '收件人姓名' : '取件人姓名');
  // The carriers' own rule (ECPay's ReceiverName), checked as it is typed, as the server checks it.
  const name = v.recipientName.trim();
  if (name && name.length <= 30 && !isLogisticsName(name))
    fail('recipientName', LOGISTICS_NAME_MESSAGES[v.shippingMethod === 'home' ? 'home' : 'cvs']);
  const phone = v.phone.replace(/[\s-]/g, '');
  if (!phone) fail('phone', '手機號碼為必填欄位');
  else if (!TW_MOBILE.test(phone)) fail('phone', '手機號碼格式不正確，請輸入 09 開頭的 10 位數字');
  if (v.shippingMethod === 'home') {
    if (!v.city) fail('city', '請選擇縣市');
    if (!v.district) fail('district', '請選擇鄉鎮市區');
    else if (v.city && !findDistrict(v.city, v.district)) fail('district', '請選擇正確的鄉鎮市區');
    rule('address', 'required|min:4|max:120', '地址');
  } else if (!v.storeId) {
    fail('storeId', '請選擇取貨門市');
  }
}

/** The checkout page's fields, flat, as the form holds them; mapped to the API body on submit. */
export const CheckoutForm = checkoutShape.superRefine((v, ctx) => {
  const fail: Fail = (path, message) => ctx.addIssue({ code: 'custom', path: [path], message });
  const rule = (path: keyof Shape, rules: string, label: string) => {
    const message = validateValue(String(v[path]).trim(), rules, label);
    if (message) fail(path, message);
  };
  checkDestination(v, fail);
  if (v.invoiceType === 'mobile' && !isMobileBarcode(normalizeMobileBarcode(v.mobileBarcode)))
    fail('mobileBarcode', '手機條碼格式不正確：「/」加上 7 碼英數字');
  if (v.invoiceType === 'certificate' && !isCitizenCertificate(normalizeMobileBarcode(v.certificate)))
    fail('certificate', CERTIFICATE_MESSAGE);
  if (v.invoiceType === 'donation' && !isDonationCode(v.donationCode.trim()))
    fail('donationCode', '捐贈碼為 3 到 7 位數字');
  if (v.invoiceType === 'company') {
    const taxIdError = taxIdProblem(v.taxId.trim());
    if (taxIdError) fail('taxId', taxIdError);
    rule('companyTitle', 'required|max:60', '公司抬頭');
  }
  rule('note', 'max:200', '備註');
});
export type CheckoutForm = z.infer<typeof CheckoutForm>;

/** The address book's form: the same fields, checking only the destination. */
export const AddressForm = checkoutShape.superRefine((v, ctx) =>
  checkDestination(v, (path, message) => ctx.addIssue({ code: 'custom', path: [path], message })),
);

export const EMPTY_CHECKOUT: CheckoutForm = {
  shippingMethod: 'home',
  recipientName: '',
  phone: '',
  city: '',
  district: '',
  address: '',
  cvsBrand: '7-ELEVEN',
  storeId: '',
  storeName: '',
  storeAddress: '',
  storePhone: '',
  storeOutlying: false,
  invoiceType: 'member',
  mobileBarcode: '',
  certificate: '',
  donationCode: '',
  taxId: '',
  companyTitle: '',
  paymentMethod: 'credit_card',
  installments: '',
  couponCode: '',
  note: '',
  saveAddress: false,
};

/** The API body from the form; only the fields of the chosen options are sent. */
export function toPlaceOrderBody(v: CheckoutForm, idempotencyKey: string): PlaceOrderBody {
  const shipping: PlaceOrderBody['shipping'] =
    v.shippingMethod === 'home'
      ? {
          method: 'home',
          recipientName: v.recipientName.trim(),
          phone: v.phone.replace(/[\s-]/g, ''),
          city: v.city,
          district: v.district,
          address: v.address.trim(),
        }
      : {
          method: 'cvs',
          recipientName: v.recipientName.trim(),
          phone: v.phone.replace(/[\s-]/g, ''),
          cvsBrand: v.cvsBrand,
          storeId: v.storeId,
        };
  const invoice: PlaceOrderBody['invoice'] =
    v.invoiceType === 'mobile'
      ? { type: 'mobile', mobileBarcode: normalizeMobileBarcode(v.mobileBarcode) }
      : v.invoiceType === 'certificate'
        ? { type: 'certificate', certificate: normalizeMobileBarcode(v.certificate) }
        : v.invoiceType === 'donation'
          ? { type: 'donation', donationCode: v.donationCode.trim() }
          : v.invoiceType === 'company'
            ? { type: 'company', taxId: v.taxId.trim(), companyTitle: v.companyTitle.trim() }
            : { type: 'member' };
  return {
    idempotencyKey,
    shipping,
    invoice,
    paymentMethod: v.paymentMethod,
    ...(v.paymentMethod === 'credit_card' && v.installments ? { installments: Number(v.installments) } : {}),
    ...(v.couponCode.trim() ? { couponCode: v.couponCode.trim().toUpperCase() } : {}),
    ...(v.note.trim() ? { note: v.note.trim() } : {}),
    ...(v.saveAddress ? { saveAddress: true } : {}),
  };
}

/** Whether the form's recipient and destination are already one of the saved addresses. */
export function isSavedDestination(v: CheckoutForm, saved: readonly AddressView[]): boolean {
  const digits = (phone: string) => phone.replace(/\D/g, '');
  return saved.some(
    (a) =>
      a.kind === v.shippingMethod &&
      a.recipientName === v.recipientName.trim() &&
      digits(a.phone) === digits(v.phone) &&
      (a.kind === 'home'
        ? a.city === v.city && a.district === v.district && a.address === v.address.trim()
        : a.cvsBrand === v.cvsBrand && a.storeId === v.storeId),
  );
}

/** Server field paths (shipping.phone, invoice.taxId) to the form's flat names. */
export function formFieldOf(serverPath: string): keyof CheckoutForm | null {
  const name = serverPath.split('.').pop() ?? '';
  return name in EMPTY_CHECKOUT ? (name as keyof CheckoutForm) : null;
}
