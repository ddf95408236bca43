import fp from 'fastify-plugin';
import type { DiscountProvider } from './provider.ts';
import { membershipDiscounts } from '../membership/service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Checkout's discounts (membership tiers and coupons plug in here). */
    discounts: DiscountProvider;
  }
}

export interface CommerceOptions {
  discounts?: DiscountProvider;
}

export default fp<CommerceOptions>(
  async (app, options) => {
    app.decorate('discounts', options.discounts ?? membershipDiscounts());
  },
  { name: 'commerce' },
);
