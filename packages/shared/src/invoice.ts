/*
 * Taiwanese e-invoice (電子發票) field rules.
 *
 * - 手機條碼 (mobile barcode carrier): 8 characters (Code 39), the first is "/", the other seven are 0-9,
 *   upper-case A-Z, ".", "-" or "+" (財政部電子發票整合服務平台 carrier rules, as restated by e-invoice
 *   providers' 手機條碼、自然人憑證條碼與捐贈碼檢核規則).
 * - 自然人憑證條碼 (citizen digital certificate carrier, ECPay CarrierType 2): 16 characters, 2 upper-case
 *   letters A-Z followed by 14 digits (same sources).
 * - 捐贈碼 / 愛心碼 (donation code): 3 to 7 digits.
 * - 統一編號 (business ID): 8 digits; multiply by 1,2,1,2,1,2,4,1, add the two digits of each product and sum.
 *   Since 2023-04-01 (財政部「營利事業統一編號檢查碼邏輯修正說明」) the number is valid when the sum is divisible
 *   by 5 (previously 10). When the 7th digit is 7 its product is 28 → 2+8 = 10, which may also be counted
 *   as 1, so the number is also valid when (sum + 1) is divisible by 5.
 */

const MOBILE_BARCODE = /^\/[0-9A-Z.+-]{7}$/;
const CITIZEN_CERTIFICATE = /^[A-Z]{2}[0-9]{14}$/;
const DONATION_CODE = /^[0-9]{3,7}$/;
const TAX_ID = /^[0-9]{8}$/;
const TAX_ID_WEIGHTS = [1, 2, 1, 2, 1, 2, 4, 1] as const;

/**
 * A mobile barcode (or citizen certificate number) as the shopper meant it: full-width characters
 * (a zh-TW keyboard in full-width mode types ／ＡＢＣ) made half-width, letters upper-case, spaces at
 * the ends dropped. The checkout box applies it as the shopper types and the server applies it
 * again, so both read the same code.
 */
export function normalizeMobileBarcode(value: string): string {
  return value
    .replace(/[\uFF01-\uFF5E]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .trim()
    .toUpperCase();
}

/** 手機條碼載具: "/" followed by 7 characters of 0-9 A-Z . - + */
export function isMobileBarcode(value: string): boolean {
  return MOBILE_BARCODE.test(value);
}

/** 自然人憑證條碼載具: 2 upper-case letters followed by 14 digits */
export function isCitizenCertificate(value: string): boolean {
  return CITIZEN_CERTIFICATE.test(value);
}

/** 捐贈碼 (愛心碼): 3 to 7 digits */
export function isDonationCode(value: string): boolean {
  return DONATION_CODE.test(value);
}

/**
 * A few donation codes Taiwanese shoppers know by heart, offered beside the checkout's 愛心碼 box
 * (each as its recipient announces it: 創世 「919」, 兒癌 「五個 8」, 北台南家扶 「2085」). The
 * box's example is the first of them, so the example itself is a code that exists.
 */
export const WELL_KNOWN_DONATION_CODES = [
  { code: '919', name: '創世基金會' },
  { code: '88888', name: '兒童癌症基金會' },
  { code: '2085', name: '北台南家扶中心' },
] as const satisfies readonly { code: string; name: string }[];

/** 統一編號 (business ID): 8 digits with the weighted checksum (weights 1,2,1,2,1,2,4,1; add the digits of each product), valid when the sum is divisible by 5 (the current rule, 2023 on) — and when the 7th digit is 7, also valid if (sum + 1) is divisible by 5. */
/** What is wrong with a 統一編號 as typed, in words that fit what was typed; null when it is valid. */
export function taxIdProblem(value: string): string | null {
  if (!TAX_ID.test(value)) return '統一編號為 8 位數字';
  return isTaxId(value) ? null : '統一編號的檢查碼不符，請對照發票或營業登記再確認一次';
}

export function isTaxId(value: string): boolean {
  if (!TAX_ID.test(value)) return false;
  let sum = 0;
  TAX_ID_WEIGHTS.forEach((weight, i) => {
    const product = Number(value[i]) * weight;
    sum += Math.floor(product / 10) + (product % 10);
  });
  if (sum % 5 === 0) return true;
  return value[6] === '7' && (sum + 1) % 5 === 0;
}
