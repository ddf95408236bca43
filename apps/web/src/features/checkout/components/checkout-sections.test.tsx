import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { CheckoutForm, EMPTY_CHECKOUT, toPlaceOrderBody } from '../schema.ts';
import { InvoiceSection } from './checkout-sections.tsx';

let latest: CheckoutForm = EMPTY_CHECKOUT;

/** The invoice step on the checkout page's own form settings (checked as it is typed). */
function Harness() {
  const form = useForm<CheckoutForm>({
    resolver: zodResolver(CheckoutForm),
    mode: 'onChange',
    defaultValues: EMPTY_CHECKOUT,
  });
  const values = form.watch();
  latest = form.getValues();
  return <InvoiceSection form={form} values={values} />;
}

describe('the checkout invoice step: the citizen digital certificate (自然人憑證) carrier', () => {
  it('offers the certificate as a fifth choice with its own box, upper-cased as typed, its problem told beside it', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(screen.getAllByRole('radio')).toHaveLength(5);
    expect(screen.queryByLabelText('自然人憑證條碼')).toBeNull();

    await user.click(screen.getByRole('radio', { name: /自然人憑證載具/ }));
    const box = screen.getByRole('textbox', { name: '自然人憑證條碼' });
    expect(box).toHaveProperty('placeholder', 'AB12345678901234');
    expect(box.getAttribute('autocomplete')).toBe('off');
    expect(box.getAttribute('inputmode')).toBe('text');
    expect(box.getAttribute('aria-required')).toBe('true');
    expect(screen.getByText('2 碼英文字母加上 14 碼數字')).toBeTruthy();

    await user.type(box, 'ab123');
    expect(box).toHaveProperty('value', 'AB123');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('自然人憑證條碼格式不正確：2 碼英文字母加上 14 碼數字');
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(box.getAttribute('aria-describedby')).toBe(alert.id);

    await user.type(box, '45678901234');
    expect(box).toHaveProperty('value', 'AB12345678901234');
    await vi.waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(toPlaceOrderBody(latest, 'k'.repeat(20)).invoice).toEqual({
      type: 'certificate',
      certificate: 'AB12345678901234',
    });
  });
});

describe('the checkout invoice step: a donation (捐贈發票)', () => {
  it('gives an example code that is itself valid and fills a well-known 愛心碼 with one tap', async () => {
    const { isDonationCode, WELL_KNOWN_DONATION_CODES } = await import('@shop/shared/invoice');
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('radio', { name: /捐贈發票/ }));
    const box = screen.getByRole('textbox', { name: '捐贈碼（愛心碼）' });
    expect(box).toHaveProperty('placeholder', '例如 919');
    expect(isDonationCode('919')).toBe(true);
    for (const { code } of WELL_KNOWN_DONATION_CODES) expect(isDonationCode(code), code).toBe(true);

    const picks = screen.getByRole('group', { name: '常用愛心碼' });
    const children = within(picks).getByRole('button', { name: '兒童癌症基金會 88888' });
    expect(children.getAttribute('aria-pressed')).toBe('false');
    await user.click(children);
    expect(box).toHaveProperty('value', '88888');
    expect(children.getAttribute('aria-pressed')).toBe('true');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(toPlaceOrderBody(latest, 'k'.repeat(20)).invoice).toEqual({
      type: 'donation',
      donationCode: '88888',
    });
  });
});
