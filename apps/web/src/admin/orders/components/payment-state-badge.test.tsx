import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { PaymentStateBadge } from './payment-state-badge.tsx';

describe('a payment attempt’s badge in the console', () => {
  it('reads 已由後續付款取代 for an open attempt a later one replaced, and the attempt’s state otherwise', () => {
    render(
      <>
        <PaymentStateBadge state="pending" replaced />
        <PaymentStateBadge state="paid" replaced={false} />
        <PaymentStateBadge state="pending" />
      </>,
    );
    expect(screen.getByText('已由後續付款取代')).toBeTruthy();
    expect(screen.getByText('已收款')).toBeTruthy();
    expect(screen.getAllByText('等待付款')).toHaveLength(1);
  });

  it('reads 會員已取消 for an attempt the shopper cancelled on the gateway’s page, not 付款失敗', () => {
    render(
      <>
        <PaymentStateBadge state="failed" method="line_pay" cancelled />
        <PaymentStateBadge state="failed" method="credit_card" />
      </>,
    );
    expect(screen.getByText('會員已取消')).toBeTruthy();
    expect(screen.getAllByText('付款失敗')).toHaveLength(1);
  });
});
