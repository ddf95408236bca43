import fp from 'fastify-plugin';
import { demoStoreLocator, type StoreLocator } from '../logistics/demo-stores.ts';
import type { DiscountProvider } from './provider.ts';
import { membershipDiscounts } from '../membership/service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Convenience-store lookup (a demo list now; ECPay's logistics map can replace it). */
    stores: StoreLocator;
    /** Checkout's discounts (membership tiers and coupons plug in here). */
    discounts: DiscountProvider;
  }
}

export interface CommerceOptions {
  stores?: StoreLocator;
  discounts?: DiscountProvider;
}

export default fp<CommerceOptions>(
  async (app, options) => {
    app.decorate('stores', options.stores ?? demoStoreLocator());
    app.decorate('discounts', options.discounts ?? membershipDiscounts());
  },
  { name: 'commerce' },
);
