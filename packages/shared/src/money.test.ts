import { describe, expect, it } from 'vitest';
import { formatTwd, formatTwdRange } from './money.ts';

describe('formatTwd', () => {
  it('prints NT$ with thousands separators and no decimals', () => {
    expect(formatTwd(1280)).toBe('NT$1,280');
    expect(formatTwd(0)).toBe('NT$0');
    expect(formatTwd(999)).toBe('NT$999');
    expect(formatTwd(1234567)).toBe('NT$1,234,567');
    expect(formatTwd(-150)).toBe('-NT$150');
  });
  it('differs from the default zh-TW currency format, which would print $ and decimals', () => {
    expect(new Intl.NumberFormat('zh-TW', { style: 'currency', currency: 'TWD' }).format(1280)).not.toBe(
      formatTwd(1280),
    );
  });
  it('refuses fractions: money is an integer of TWD', () => {
    expect(() => formatTwd(12.5)).toThrow(RangeError);
    expect(() => formatTwd(Number.NaN)).toThrow(RangeError);
  });
  it('prints a range only when the ends differ', () => {
    expect(formatTwdRange(450, 450)).toBe('NT$450');
    expect(formatTwdRange(450, 1680)).toBe('NT$450 – NT$1,680');
  });
});
