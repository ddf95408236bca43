import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import type { CouponView } from '@shop/shared/membership';
import { EMPTY_CHECKOUT, type CheckoutForm } from '../schema.ts';
import { CouponSection } from './checkout-sections.tsx';

const coupon = (code: string, name: string, state: CouponView['state']): CouponView => ({
  code,
  name,
  description: '滿 NT$1,000 折 NT$200',
  startsAt: '2026-11-01T00:00:00+08:00',
  endsAt: '2026-12-31T23:59:59+08:00',
  state,
  personal: false,
});

const row = (name: string) => screen.getByText(name).closest('li')!;

function Harness({ coupons }: { coupons: CouponView[] }) {
  const form = useForm<CheckoutForm>({ defaultValues: EMPTY_CHECKOUT });
  const values = form.watch();
  return <CouponSection form={form} values={values} quote={undefined} coupons={coupons} />;
}

describe('the checkout coupon step: 我的優惠券', () => {
  it('says 已套用 on the coupon in use instead of offering 使用 again, and 使用 on the others', async () => {
    const user = userEvent.setup();
    render(
      <Harness
        coupons={[coupon('WELCOME200', '新會員見面禮', 'usable'), coupon('TEA100', '茶友回饋', 'usable')]}
      />,
    );
    const welcome = row('新會員見面禮');
    await user.click(within(welcome).getByRole('button', { name: '使用' }));
    expect(within(welcome).queryByRole('button', { name: '使用' })).toBeNull();
    expect(within(welcome).getByText('已套用')).toBeTruthy();
    const other = row('茶友回饋');
    await user.click(within(other).getByRole('button', { name: '使用' }));
    expect(within(welcome).getByRole('button', { name: '使用' })).toBeTruthy();
    expect(within(other).getByText('已套用')).toBeTruthy();
  });

  it('offers only coupons that can be used today', () => {
    render(
      <Harness
        coupons={[coupon('WELCOME200', '新會員見面禮', 'usable'), coupon('XMAS', '聖誕節限定', 'not-yet')]}
      />,
    );
    expect(screen.queryByText('聖誕節限定')).toBeNull();
  });
});
