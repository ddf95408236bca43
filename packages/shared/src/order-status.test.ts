import { describe, expect, it } from 'vitest';
import { canTransition, ORDER_STATUSES, TRANSITIONS } from './order-status.ts';

describe('order state machine', () => {
  it('moves a paid order along the delivery path', () => {
    expect(canTransition('pending_payment', 'paid')).toBe(true);
    expect(canTransition('paid', 'processing')).toBe(true);
    expect(canTransition('processing', 'shipped')).toBe(true);
    expect(canTransition('shipped', 'delivered')).toBe(true);
    expect(canTransition('delivered', 'completed')).toBe(true);
  });
  it('refuses skipping and going back', () => {
    expect(canTransition('pending_payment', 'shipped')).toBe(false);
    expect(canTransition('shipped', 'paid')).toBe(false);
    expect(canTransition('shipped', 'cancelled')).toBe(false);
  });
  it('ends for good in expired, cancelled and refunded', () => {
    for (const end of ['expired', 'cancelled', 'refunded'] as const) {
      for (const to of ORDER_STATUSES) expect(canTransition(end, to)).toBe(false);
    }
  });
  it('names only known statuses', () => {
    for (const targets of Object.values(TRANSITIONS))
      for (const t of targets) expect(ORDER_STATUSES).toContain(t);
  });
});
