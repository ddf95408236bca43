import { z } from 'zod';

/**
 * The shipping fee rules. The owner edits the amounts and lead times in the console (they live in
 * the database); checkout computes fees from them on the server, and the /shippingFee, cart and
 * payment pages show them from GET /api/site/shipping-rules, so the pages and checkout never
 * disagree. The method names are fixed here. Amounts are integer TWD.
 */
export const SHIPPING_METHODS = ['home', 'cvs'] as const;
export type ShippingMethod = (typeof SHIPPING_METHODS)[number];

/** The methods' names: orders, e-mails and pages use them, so they are not editable. */
export const SHIPPING_METHOD_LABELS: Readonly<Record<ShippingMethod, string>> = {
  home: '宅配到府',
  cvs: '超商取貨',
};

export const ShippingRule = z.object({
  method: z.enum(SHIPPING_METHODS),
  label: z.string(),
  fee: z.number().int(),
  /** Orders at or above this amount (after discounts) ship free. */
  freeOver: z.number().int(),
  leadTime: z.string(),
});
export type ShippingRule = z.infer<typeof ShippingRule>;

/** The whole table, as the public API serves it. */
export const ShippingRules = z.object({
  home: ShippingRule,
  cvs: ShippingRule,
  /** Added for delivery to outlying islands (澎湖、金門、馬祖、綠島、蘭嶼、小琉球), home or pickup store, never waived. */
  outlyingSurcharge: z.number().int(),
  /** Collected for cash on delivery: paid to the courier (宅配) or at the store counter (超商取貨付款). */
  codFee: z.number().int(),
});
export type ShippingRules = z.infer<typeof ShippingRules>;

/** What the owner may change (the database row holds this shape). */
export interface EditableShippingRules {
  readonly home: { readonly fee: number; readonly freeOver: number; readonly leadTime: string };
  readonly cvs: { readonly fee: number; readonly freeOver: number; readonly leadTime: string };
  readonly outlyingSurcharge: number;
  readonly codFee: number;
}

/** The rules until the owner saves others (and the shop's values before they moved to the database). */
export const DEFAULT_SHIPPING_RULES: ShippingRules = {
  home: {
    method: 'home',
    label: SHIPPING_METHOD_LABELS.home,
    fee: 120,
    freeOver: 1500,
    leadTime: '付款後 1–3 個工作天出貨，出貨後約 1–2 天送達',
  },
  cvs: {
    method: 'cvs',
    label: SHIPPING_METHOD_LABELS.cvs,
    fee: 65,
    freeOver: 1000,
    leadTime: '付款後 1–3 個工作天出貨，出貨後約 2–3 天到店',
  },
  outlyingSurcharge: 150,
  codFee: 30,
};

/** The public table from the editable values: labels come from code. */
export function withLabels(values: EditableShippingRules): ShippingRules {
  const rule = (method: ShippingMethod) => ({
    method,
    label: SHIPPING_METHOD_LABELS[method],
    fee: values[method].fee,
    freeOver: values[method].freeOver,
    leadTime: values[method].leadTime,
  });
  return {
    home: rule('home'),
    cvs: rule('cvs'),
    outlyingSurcharge: values.outlyingSurcharge,
    codFee: values.codFee,
  };
}

/** The editable part of a table (what the console's form and the database row hold). */
export function editablePart(rules: ShippingRules): EditableShippingRules {
  const part = (method: ShippingMethod) => ({
    fee: rules[method].fee,
    freeOver: rules[method].freeOver,
    leadTime: rules[method].leadTime,
  });
  return {
    home: part('home'),
    cvs: part('cvs'),
    outlyingSurcharge: rules.outlyingSurcharge,
    codFee: rules.codFee,
  };
}

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

/** The fee for one order under the given rules (pure: the caller reads the current rules). */
export function shippingFee(rules: ShippingRules, input: FeeInput): FeeBreakdown {
  const rule = rules[input.method];
  const freeOver = Math.min(rule.freeOver, input.freeOverOverride ?? rule.freeOver);
  const base = input.amount >= freeOver ? 0 : rule.fee;
  const outlyingSurcharge = input.outlying ? rules.outlyingSurcharge : 0;
  const codFee = input.cashOnDelivery ? rules.codFee : 0;
  return {
    base,
    outlyingSurcharge,
    codFee,
    total: base + outlyingSurcharge + codFee,
    freeOver,
    toFree: Math.max(0, freeOver - input.amount),
  };
}

/** The free-shipping threshold a member tier gets: its own, when lower than the rule's. */
export function effectiveFreeOver(ruleFreeOver: number, tierFreeOver: number | null | undefined): number {
  return tierFreeOver === null || tierFreeOver === undefined
    ? ruleFreeOver
    : Math.min(ruleFreeOver, tierFreeOver);
}
