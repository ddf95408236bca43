import { z } from 'zod';
import { isDonationCode, isMobileBarcode, normalizeMobileBarcode } from './invoice.ts';

/*
 * Checking an e-invoice carrier with ECPay through the shop. Kept out of checkout.ts, which the
 * shop's first page loads: only the checkout page and the server need these.
 */
/** The checkout asks whether a mobile barcode or donation code exists (ECPay's check, through the shop). */
export const CarrierCheckBody = z.discriminatedUnion(
  'kind',
  [
    z
      .object({
        kind: z.literal('mobile'),
        code: z
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
    z
      .object({
        kind: z.literal('donation'),
        code: z
          .string()
          .trim()
          .max(7, { message: '捐贈碼為 3 到 7 位數字', abort: true })
          .refine(isDonationCode, '捐贈碼為 3 到 7 位數字'),
      })
      .strict(),
  ],
  { error: '請指定要查詢手機條碼或捐贈碼' },
);
/** `unverified`: the check could not be made now; the code is accepted and checked again before the invoice is issued. */
export const CarrierCheckResponse = z.object({ result: z.enum(['valid', 'invalid', 'unverified']) });
export type CarrierCheckResponse = z.infer<typeof CarrierCheckResponse>;

/** What the shop says when ECPay does not know a code. */
export const CARRIER_NOT_FOUND = {
  mobile: '查無這個手機條碼，請確認與手機上顯示的相同',
  donation: '查無這個捐贈碼，請確認受贈單位的愛心碼',
} as const;
