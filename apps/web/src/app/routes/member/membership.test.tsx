import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { CouponView, MembershipResponse } from '@shop/shared/membership';
import MembershipPage from './membership.tsx';

const tier = { code: 'regular', name: '一般會員', threshold: 0, discountPercent: 0, freeShippingOver: null };
const coupon = (
  code: string,
  name: string,
  state: CouponView['state'],
  startsAt = '2026-11-01T00:00:00+08:00',
): CouponView => ({
  code,
  name,
  description: '滿 NT$1,000 折 NT$200',
  startsAt,
  endsAt: '2026-12-31T23:59:59+08:00',
  state,
  personal: false,
});

function renderWith(coupons: CouponView[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const data: MembershipResponse = { tiers: [tier], current: tier, next: null, spend: 0, toNext: 0, coupons };
  client.setQueryData(['membership'], data);
  client.setQueryData(['site', 'shipping-rules'], {
    home: { fee: 100, freeOver: 1500, leadTime: '' },
    cvs: { fee: 60, freeOver: 990, leadTime: '' },
    outlyingSurcharge: 150,
    codFee: 30,
  });
  render(
    <QueryClientProvider client={client}>
      <MembershipPage />
    </QueryClientProvider>,
  );
}

describe('我的優惠券', () => {
  it('counts a coupon that has not started apart from the usable ones, and says when it starts', () => {
    renderWith([
      coupon('WELCOME200', '新會員見面禮', 'usable'),
      coupon('XMAS', '聖誕節限定', 'not-yet', '2026-12-20T00:00:00+08:00'),
      coupon('OLD', '週年慶', 'used'),
    ]);
    const usable = screen.getByRole('region', { name: '可使用（1）' });
    expect(within(usable).getByText('新會員見面禮')).toBeTruthy();
    expect(within(usable).queryByText('聖誕節限定')).toBeNull();
    const upcoming = screen.getByRole('region', { name: '即將開始（1）' });
    expect(within(upcoming).getByText('聖誕節限定')).toBeTruthy();
    expect(within(upcoming).getByText('2026/12/20 起可使用')).toBeTruthy();
    expect(screen.getByRole('region', { name: '已使用（1）' })).toBeTruthy();
  });
});
