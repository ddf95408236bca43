import type { DbOrTx } from '../../db/client.ts';
import type { AppliedDiscount } from '../../db/schema.ts';

export interface DiscountLine {
  readonly productId: string;
  readonly variantId: string;
  readonly lineTotal: number;
}

export interface DiscountQuote {
  readonly discounts: AppliedDiscount[];
  /** A membership benefit may lower the free-shipping threshold. */
  readonly freeOverOverride?: number;
  /** Why the entered coupon was refused (zh-TW), or null. */
  readonly couponError: string | null;
  /** Called inside the order transaction: counts coupon use, so a last use cannot be taken twice. */
  commit?(tx: DbOrTx, orderId: string): Promise<void>;
}

export interface DiscountInput {
  readonly userId: string;
  readonly subtotal: number;
  readonly lines: readonly DiscountLine[];
  readonly couponCode?: string | undefined;
}

/** How checkout asks for discounts; the membership issue provides the real one. */
export interface DiscountProvider {
  quote(db: DbOrTx, input: DiscountInput): Promise<DiscountQuote>;
}

/** No tiers or coupons yet: a coupon code is refused with a clear reason. */
export const noDiscounts: DiscountProvider = {
  async quote(_db, input) {
    return { discounts: [], couponError: input.couponCode ? '找不到這個優惠碼。' : null };
  },
};
