/**
 * The ways a shopper can pay, with their zh-TW labels: the one list every schema, filter, badge
 * and mail derives from.
 */

export const PAYMENT_METHODS = ['credit_card', 'atm', 'cod', 'line_pay', 'cvs_code', 'cvs_barcode'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** Methods paid through the gateway, which open payment attempts (cash on delivery has none). */
export const ONLINE_PAYMENT_METHODS = [
  'credit_card',
  'atm',
  'line_pay',
  'cvs_code',
  'cvs_barcode',
] as const satisfies readonly PaymentMethod[];
export type OnlinePaymentMethod = (typeof ONLINE_PAYMENT_METHODS)[number];

/** The shopper's wording (order pages, mails). */
export const PAYMENT_METHOD_LABELS: Readonly<Record<PaymentMethod, string>> = {
  credit_card: '信用卡',
  atm: 'ATM 轉帳（虛擬帳號）',
  cod: '貨到付款',
  line_pay: 'LINE Pay',
  cvs_code: '超商代碼繳費',
  cvs_barcode: '超商條碼繳費',
};

/** Short labels for tables and filters. */
export const PAYMENT_METHOD_SHORT: Readonly<Record<PaymentMethod, string>> = {
  credit_card: '信用卡',
  atm: 'ATM 轉帳',
  cod: '貨到付款',
  line_pay: 'LINE Pay',
  cvs_code: '超商代碼',
  cvs_barcode: '超商條碼',
};

/** How the console names a gateway payment attempt's channel. */
export const PAYMENT_ATTEMPT_LABELS: Readonly<Record<OnlinePaymentMethod, string>> = {
  credit_card: '信用卡',
  atm: 'ATM 虛擬帳號',
  line_pay: 'LINE Pay',
  cvs_code: '超商代碼',
  cvs_barcode: '超商條碼',
};

/**
 * Methods whose money goes back the way it came, through the gateway's refund API (ECPay's card
 * action, LINE Pay's Refund API); the others (ATM, cash on delivery) are refunded by bank transfer.
 */
export const GATEWAY_REFUNDED_METHODS = [
  'credit_card',
  'line_pay',
] as const satisfies readonly PaymentMethod[];

export const refundsThroughGateway = (method: string): boolean =>
  (GATEWAY_REFUNDED_METHODS as readonly string[]).includes(method);

/** Where a gateway refund's money goes back, in words (信用卡, LINE Pay); null: by bank transfer. */
export const gatewayRefundTo = (method: string): string | null =>
  method === 'line_pay' ? 'LINE Pay' : method === 'credit_card' ? '信用卡' : null;

export const isPaymentMethod = (value: unknown): value is PaymentMethod =>
  (PAYMENT_METHODS as readonly unknown[]).includes(value);
