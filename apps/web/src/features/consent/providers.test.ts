import { afterEach, describe, expect, it } from 'vitest';
import type { ShopEvent } from '../../lib/shop-events.ts';
import { readConsent, writeConsent } from './consent-storage.ts';
import { allowedProviders, sendShopEvent, startProviders } from './providers.ts';

const IDS = {
  ga4MeasurementId: 'G-AB12CD34EF',
  metaPixelId: '123456789012345',
  lineTagId: '1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d',
};
const purchase = (orderNo: string): ShopEvent => ({
  name: 'purchase',
  orderNo,
  value: 600,
  shipping: 120,
  items: [{ id: 'DD-150', name: '凍頂烏龍茶', variant: '150 g', price: 480, quantity: 1 }],
});
const w = window as unknown as { dataLayer?: IArguments[] };
const scripts = () => [...document.querySelectorAll('script')].map((s) => s.src);

afterEach(() => localStorage.clear());

describe('the consent choice', () => {
  it('is read back only in its own version', () => {
    expect(readConsent()).toBeNull();
    writeConsent({ analytics: true, marketing: false });
    expect(readConsent()).toMatchObject({ v: 1, analytics: true, marketing: false });
    localStorage.setItem('shop.consent', JSON.stringify({ v: 0, analytics: true, marketing: true }));
    expect(readConsent()).toBeNull();
  });

  it('allows no provider without a choice, and each only with its category', () => {
    expect(allowedProviders(IDS, null)).toEqual([]);
    expect(allowedProviders(IDS, writeConsent({ analytics: false, marketing: false }))).toEqual([]);
    expect(allowedProviders(IDS, writeConsent({ analytics: true, marketing: false }))).toEqual(['ga4']);
    expect(allowedProviders(IDS, writeConsent({ analytics: false, marketing: true }))).toEqual([
      'meta',
      'line',
    ]);
    expect(
      allowedProviders({ ...IDS, metaPixelId: '' }, writeConsent({ analytics: true, marketing: true })),
    ).toEqual(['ga4', 'line']);
  });
});

describe('the providers', () => {
  it('load nothing and send nothing before consent', () => {
    startProviders(IDS, null);
    sendShopEvent(IDS, null, purchase('TW20261128000001'));
    expect(scripts()).toEqual([]);
    expect(w.dataLayer).toBeUndefined();
  });

  it('after analytics consent load gtag.js from Google’s host and send a purchase once per order', () => {
    const choice = writeConsent({ analytics: true, marketing: false });
    startProviders(IDS, choice);
    expect(scripts()).toEqual(['https://www.googletagmanager.com/gtag/js?id=G-AB12CD34EF']);
    const purchases = () => (w.dataLayer ?? []).filter((a) => a[0] === 'event' && a[1] === 'purchase').length;
    sendShopEvent(IDS, choice, purchase('TW20261128000002'));
    sendShopEvent(IDS, choice, purchase('TW20261128000002'));
    expect(purchases()).toBe(1);
    sendShopEvent(IDS, choice, purchase('TW20261128000003'));
    expect(purchases()).toBe(2);
    // Marketing was not consented to: Meta's and LINE's queues were never made.
    expect('fbq' in window || '_lt' in window).toBe(false);
  });
});
