import { describe, expect, it } from 'vitest';
import { COD_FEE, OUTLYING_SURCHARGE, SHIPPING_RULES, shippingFee } from './shipping.ts';

describe('shipping fee table', () => {
  it('charges the method fee below the threshold and nothing at or above it', () => {
    expect(shippingFee({ method: 'home', amount: 1499, outlying: false, cashOnDelivery: false })).toMatchObject({ total: 120, toFree: 1 });
    expect(shippingFee({ method: 'home', amount: 1500, outlying: false, cashOnDelivery: false })).toMatchObject({ total: 0, toFree: 0 });
    expect(shippingFee({ method: 'cvs', amount: 999, outlying: false, cashOnDelivery: false }).total).toBe(SHIPPING_RULES.cvs.fee);
    expect(shippingFee({ method: 'cvs', amount: 1000, outlying: false, cashOnDelivery: false }).total).toBe(0);
  });
  it('adds the outlying-island surcharge to home delivery, even when shipping is free', () => {
    expect(shippingFee({ method: 'home', amount: 3000, outlying: true, cashOnDelivery: false }).total).toBe(OUTLYING_SURCHARGE);
    expect(shippingFee({ method: 'cvs', amount: 300, outlying: true, cashOnDelivery: false }).outlyingSurcharge).toBe(0);
  });
  it('adds the cash-on-delivery fee', () => {
    expect(shippingFee({ method: 'home', amount: 500, outlying: false, cashOnDelivery: true }).total).toBe(120 + COD_FEE);
  });
  it('lets a membership benefit lower, never raise, the free threshold', () => {
    expect(shippingFee({ method: 'home', amount: 1000, outlying: false, cashOnDelivery: false, freeOverOverride: 999 }).total).toBe(0);
    expect(shippingFee({ method: 'home', amount: 1600, outlying: false, cashOnDelivery: false, freeOverOverride: 5000 }).total).toBe(0);
  });
});
