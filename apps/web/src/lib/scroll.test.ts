import { describe, expect, it } from 'vitest';
import { ease } from './scroll.ts';

describe('ease (CSS cubic-bezier(0.25, 0.1, 0.25, 1))', () => {
  it('starts at 0, ends at 1 and runs ahead of linear in the middle', () => {
    expect(ease(0)).toBeCloseTo(0, 5);
    expect(ease(1)).toBeCloseTo(1, 5);
    expect(ease(0.5)).toBeCloseTo(0.8024, 2);
    expect(ease(0.25)).toBeGreaterThan(0.25);
  });
});
