import { describe, expect, it } from 'vitest';
import {
  DEFAULT_STORE_PAYMENTS,
  installmentPlan,
  installmentWords,
  minutesInWords,
  storeDeadline,
  storeDeadlineInstant,
  storePaymentOffer,
} from './store-payments.ts';

describe('store payments and instalments: the words and the offer', () => {
  it('puts what does not divide on the first instalment, as the banks bill it', () => {
    expect(installmentPlan(1000, 3)).toEqual({ first: 334, each: 333 });
    expect(installmentPlan(3000, 6)).toEqual({ first: 500, each: 500 });
    expect(installmentWords(3000, 6)).toBe('分 6 期，每期 NT$500');
    expect(installmentWords(1000, 3)).toBe('分 3 期，第一期 NT$334，之後每期 NT$333');
  });

  it('words a code’s deadline and reads ECPay’s ExpireDate as Taiwan time', () => {
    expect(minutesInWords(10_080)).toBe('7 天');
    expect(minutesInWords(120)).toBe('2 小時');
    expect(minutesInWords(90)).toBe('90 分鐘');
    expect(storeDeadline('2026/12/05 10:30:00')).toBe('2026/12/05 10:30');
    expect(storeDeadline('2026/12/05')).toBe('2026/12/05 23:59');
    expect(storeDeadlineInstant('2026/12/05 10:30:00')?.toISOString()).toBe('2026-12-05T02:30:00.000Z');
    expect(storeDeadlineInstant('2026/12/05')?.toISOString()).toBe('2026-12-05T15:59:59.000Z');
    expect(storeDeadlineInstant('soon')).toBeNull();
  });

  it('offers a store method only inside its range, and terms from the minimum', () => {
    const s = DEFAULT_STORE_PAYMENTS; // code 33–6,000, barcode 17–20,000, terms 3/6/12 from 3,000
    expect(storePaymentOffer(s, 32)).toMatchObject({ cvsCode: false, cvsBarcode: true, installments: [] });
    expect(storePaymentOffer(s, 33)).toMatchObject({ cvsCode: true });
    expect(storePaymentOffer(s, 6_001)).toMatchObject({ cvsCode: false, cvsBarcode: true });
    expect(storePaymentOffer(s, 2_999).installments).toEqual([]);
    expect(storePaymentOffer(s, 3_000)).toMatchObject({ installments: [3, 6, 12], installmentsFrom: 3_000 });
  });
});
