import type { StoreCode } from '../../../db/schema.ts';
import { storeDeadlineInstant } from '@shop/shared/store-payments';

/** Code 39's characters (ECPay's barcodes are digits and capital letters), at most 20 each (Barcode1–3 are String(20)). */
const CODE39 = /^[0-9A-Z\-. $/+%]{1,20}$/;
/** PaymentNo is String(14): letters and digits. */
const PAYMENT_NO = /^[0-9A-Za-z]{1,14}$/;

/**
 * The code or barcodes of a signed payment-info notice with RtnCode 10100073 (ECPay's PaymentInfoURL
 * page: PaymentNo and ExpireDate for CVS; Barcode1–3 and ExpireDate for BARCODE, whose PaymentNo is
 * blank). Null when it carries neither in a form we can show, or no readable deadline: the notice is
 * refused and changes nothing.
 */
export function storeCodeOf(form: Readonly<Record<string, string>>): StoreCode | null {
  const expireDate = (form.ExpireDate ?? '').trim();
  if (!storeDeadlineInstant(expireDate)) return null;
  const type = form.PaymentType ?? '';
  if (type.startsWith('BARCODE')) {
    const barcodes = [form.Barcode1, form.Barcode2, form.Barcode3].map((b) => (b ?? '').trim());
    if (!barcodes.every((b) => CODE39.test(b))) return null;
    return { paymentNo: null, barcodes: barcodes as [string, string, string], expireDate };
  }
  if (type.startsWith('CVS')) {
    const paymentNo = (form.PaymentNo ?? '').trim();
    if (!PAYMENT_NO.test(paymentNo)) return null;
    return { paymentNo, barcodes: null, expireDate };
  }
  return null;
}
