/**
 * The one shipping fee table: checkout computes fees from it and the /shippingFee page shows it,
 * so the two can never disagree. Amounts are integer TWD.
 */
export type ShippingMethod = 'home' | 'cvs';

export interface ShippingRule {
  readonly method: ShippingMethod;
  readonly label: string;
  readonly fee: number;
  /** Orders at or above this amount (after discounts) ship free. */
  readonly freeOver: number;
  readonly leadTime: string;
}

export const SHIPPING_RULES: Readonly<Record<ShippingMethod, ShippingRule>> = {
  home: { method: 'home', label: '宅配到府', fee: 120, freeOver: 1500, leadTime: '付款後 1–3 個工作天出貨，出貨後約 1–2 天送達' },
  cvs: { method: 'cvs', label: '超商取貨', fee: 65, freeOver: 1000, leadTime: '付款後 1–3 個工作天出貨，出貨後約 2–3 天到店' },
};

/** Added for home delivery to outlying islands (澎湖、金門、馬祖、綠島、蘭嶼、小琉球), never waived. */
export const OUTLYING_SURCHARGE = 150;

/** Collected for cash on delivery: paid to the courier (宅配) or at the store counter (超商取貨付款). */
export const COD_FEE = 30;

export interface FeeInput {
  readonly method: ShippingMethod;
  /** Order amount after discounts. */
  readonly amount: number;
  readonly outlying: boolean;
  readonly cashOnDelivery: boolean;
  /** A membership benefit may lower the free-shipping threshold. */
  readonly freeOverOverride?: number;
}

export interface FeeBreakdown {
  readonly base: number;
  readonly outlyingSurcharge: number;
  readonly codFee: number;
  readonly total: number;
  readonly freeOver: number;
  /** How much more to spend for free shipping; 0 when already free. */
  readonly toFree: number;
}

export function shippingFee(input: FeeInput): FeeBreakdown {
  const rule = SHIPPING_RULES[input.method];
  const freeOver = Math.min(rule.freeOver, input.freeOverOverride ?? rule.freeOver);
  const base = input.amount >= freeOver ? 0 : rule.fee;
  const outlyingSurcharge = input.method === 'home' && input.outlying ? OUTLYING_SURCHARGE : 0;
  const codFee = input.cashOnDelivery ? COD_FEE : 0;
  return { base, outlyingSurcharge, codFee, total: base + outlyingSurcharge + codFee, freeOver, toFree: Math.max(0, freeOver - input.amount) };
}
