import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SHIPPING_RULES,
  ShippingRules,
  editablePart,
  effectiveFreeOver,
  shippingFee,
  withLabels,
} from './shipping.ts';

const rules = DEFAULT_SHIPPING_RULES;
const edited = withLabels({
  home: { fee: 100, freeOver: 2000, leadTime: '付款後 2 天內出貨' },
  cvs: { fee: 0, freeOver: 1, leadTime: '付款後 3 天內出貨' },
  outlyingSurcharge: 200,
  codFee: 0,
});

describe('shipping fee', () => {
  it('charges the method fee below the threshold and nothing at or above it', () => {
    expect(
      shippingFee(rules, { method: 'home', amount: 1499, outlying: false, cashOnDelivery: false }),
    ).toMatchObject({ total: 120, toFree: 1 });
    expect(
      shippingFee(rules, { method: 'home', amount: 1500, outlying: false, cashOnDelivery: false }),
    ).toMatchObject({ total: 0, toFree: 0 });
    expect(
      shippingFee(rules, { method: 'cvs', amount: 999, outlying: false, cashOnDelivery: false }).total,
    ).toBe(65);
    expect(
      shippingFee(rules, { method: 'cvs', amount: 1000, outlying: false, cashOnDelivery: false }).total,
    ).toBe(0);
  });
  it('adds the outlying-island surcharge to home delivery and to a pickup store on an island, even when shipping is free', () => {
    expect(
      shippingFee(rules, { method: 'home', amount: 3000, outlying: true, cashOnDelivery: false }).total,
    ).toBe(150);
    expect(
      shippingFee(rules, { method: 'cvs', amount: 300, outlying: true, cashOnDelivery: false })
        .outlyingSurcharge,
    ).toBe(150);
    expect(
      shippingFee(rules, { method: 'cvs', amount: 3000, outlying: true, cashOnDelivery: false }).total,
    ).toBe(150);
  });
  it('adds the cash-on-delivery fee', () => {
    expect(
      shippingFee(rules, { method: 'home', amount: 500, outlying: false, cashOnDelivery: true }),
    ).toMatchObject({ base: 120, codFee: 30, total: 150 });
  });
  it('lets a membership benefit lower, never raise, the free threshold', () => {
    expect(
      shippingFee(rules, {
        method: 'home',
        amount: 1000,
        outlying: false,
        cashOnDelivery: false,
        freeOverOverride: 999,
      }),
    ).toMatchObject({ total: 0, freeOver: 999 });
    expect(
      shippingFee(rules, {
        method: 'home',
        amount: 1600,
        outlying: false,
        cashOnDelivery: false,
        freeOverOverride: 5000,
      }),
    ).toMatchObject({ total: 0, freeOver: 1500 });
    expect(effectiveFreeOver(1500, 1000)).toBe(1000);
    expect(effectiveFreeOver(800, 1000)).toBe(800);
    expect(effectiveFreeOver(1500, null)).toBe(1500);
  });
  it('charges by the rules it is given, not by the defaults', () => {
    expect(
      shippingFee(edited, { method: 'home', amount: 1500, outlying: true, cashOnDelivery: true }),
    ).toEqual({ base: 100, outlyingSurcharge: 200, codFee: 0, total: 300, freeOver: 2000, toFree: 500 });
    expect(
      shippingFee(edited, { method: 'cvs', amount: 0, outlying: false, cashOnDelivery: false }),
    ).toMatchObject({ base: 0, total: 0, toFree: 1 });
    expect(
      shippingFee(edited, { method: 'cvs', amount: 1, outlying: false, cashOnDelivery: false }).total,
    ).toBe(0);
  });
});

describe('shipping rules', () => {
  it('keep the method names in code, whatever is stored', () => {
    expect(edited.home).toEqual({
      method: 'home',
      label: '宅配到府',
      fee: 100,
      freeOver: 2000,
      leadTime: '付款後 2 天內出貨',
    });
    expect(edited.cvs.label).toBe('超商取貨');
    expect(ShippingRules.parse(edited)).toEqual(edited);
  });
  it('round-trip between the public table and the editable part', () => {
    expect(withLabels(editablePart(rules))).toEqual(rules);
    expect(editablePart(rules)).toEqual({
      home: { fee: 120, freeOver: 1500, leadTime: rules.home.leadTime },
      cvs: { fee: 65, freeOver: 1000, leadTime: rules.cvs.leadTime },
      outlyingSurcharge: 150,
      codFee: 30,
    });
  });
});
