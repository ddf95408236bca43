/**
 * The payment and delivery marks the footer may show (plain text chips, no logos), in the order
 * they are shown. No zod here: the footer imports this on every page's first load.
 */
export const STOREFRONT_MARKS = [
  'visa',
  'mastercard',
  'jcb',
  'atm',
  'cod',
  'seven-eleven',
  'family-mart',
  'hi-life',
  'ok-mart',
  't-cat',
] as const;
export type StorefrontMark = (typeof STOREFRONT_MARKS)[number];

export const STOREFRONT_MARK_LABELS: Readonly<Record<StorefrontMark, string>> = {
  visa: 'VISA',
  mastercard: 'Mastercard',
  jcb: 'JCB',
  atm: 'ATM 轉帳',
  cod: '貨到付款',
  'seven-eleven': '7-ELEVEN',
  'family-mart': '全家',
  'hi-life': '萊爾富',
  'ok-mart': 'OK mart',
  't-cat': '黑貓宅急便',
};

/** Which group a mark is listed under: how the shopper pays, or how the parcel travels. */
export const PAYMENT_MARKS: readonly StorefrontMark[] = ['visa', 'mastercard', 'jcb', 'atm', 'cod'];
export const DELIVERY_MARKS: readonly StorefrontMark[] = [
  'seven-eleven',
  'family-mart',
  'hi-life',
  'ok-mart',
  't-cat',
];
