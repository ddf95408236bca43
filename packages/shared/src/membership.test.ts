import { describe, expect, it } from 'vitest';
import { percentOf, UpdateProfileBody } from './membership.ts';

describe('membership rules', () => {
  it('rounds percentage discounts half up to whole TWD', () => {
    expect(percentOf(1230, 5)).toBe(62); // 61.5 → 62
    expect(percentOf(1229, 5)).toBe(61); // 61.45 → 61
    expect(percentOf(999, 3)).toBe(30); // 29.97 → 30
    expect(percentOf(0, 10)).toBe(0);
  });
  it('accepts an empty or real birthday and a Taiwanese mobile', () => {
    expect(UpdateProfileBody.safeParse({ displayName: '林小嵐', phone: '', birthday: '' }).success).toBe(
      true,
    );
    expect(
      UpdateProfileBody.parse({ displayName: '林小嵐', phone: '0912-345-678', birthday: '1990-02-28' }).phone,
    ).toBe('0912345678');
    expect(
      UpdateProfileBody.safeParse({ displayName: '林小嵐', phone: '', birthday: '1990-02-30' }).success,
    ).toBe(false);
    expect(
      UpdateProfileBody.safeParse({ displayName: '林小嵐', phone: '', birthday: '2999-01-01' }).success,
    ).toBe(false);
    expect(UpdateProfileBody.safeParse({ displayName: '林小嵐', phone: '12345', birthday: '' }).success).toBe(
      false,
    );
  });
});
