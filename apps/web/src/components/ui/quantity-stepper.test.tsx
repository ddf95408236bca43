import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QuantityStepper } from './quantity-stepper.tsx';

/** A stepper holding its own quantity, as the product page and a cart line do. */
function Harness({
  start = 2,
  max = 96,
  maxReason,
  onZero,
  onChange,
}: {
  start?: number;
  max?: number;
  maxReason?: string;
  onZero?: () => void;
  onChange?: (n: number) => void;
}) {
  const [value, setValue] = useState(start);
  return (
    <QuantityStepper
      value={value}
      max={max}
      maxReason={maxReason}
      onZero={onZero}
      onChange={(n) => {
        onChange?.(n);
        setValue(n);
      }}
    />
  );
}

const box = () => screen.getByLabelText<HTMLInputElement>('數量');

async function typeIn(text: string) {
  const user = userEvent.setup();
  await user.clear(box());
  await user.type(box(), `${text}{Enter}`);
}

describe('QuantityStepper: a typed quantity is never changed without a word', () => {
  it('brings a number above the stock down to it and says why', async () => {
    render(<Harness maxReason="庫存只剩 96 件" />);
    await typeIn('1000');
    expect(box().value).toBe('96');
    expect(screen.getByRole('status').textContent).toBe('庫存只剩 96 件，已調整為 96');
  });

  it('names the limit when no reason is given', async () => {
    render(<Harness max={5} />);
    await typeIn('9');
    expect(box().value).toBe('5');
    expect(screen.getByRole('status').textContent).toBe('最多可選 5 件，已調整為 5');
  });

  it('refuses a negative number and keeps the quantity it had', async () => {
    const changed = vi.fn();
    render(<Harness onChange={changed} />);
    await typeIn('-3');
    expect(box().value).toBe('2');
    expect(changed).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe('數量不能是負數，請輸入 1 到 96 之間的數字。');
    expect(box().getAttribute('aria-invalid')).toBe('true');
  });

  it('refuses what is not a whole number', async () => {
    render(<Harness />);
    await typeIn('2.5');
    expect(box().value).toBe('2');
    expect(screen.getByRole('alert').textContent).toBe('請輸入 1 到 96 之間的整數。');
  });

  it('turns 0 into 1 with a word where nothing can be removed', async () => {
    render(<Harness />);
    await typeIn('0');
    expect(box().value).toBe('1');
    expect(screen.getByRole('status').textContent).toBe('數量至少 1 件，已調整為 1');
  });

  it('hands 0 to the page that can remove the line, and keeps the quantity meanwhile', async () => {
    const onZero = vi.fn();
    const changed = vi.fn();
    render(<Harness onZero={onZero} onChange={changed} />);
    await typeIn('0');
    expect(onZero).toHaveBeenCalledOnce();
    expect(changed).not.toHaveBeenCalled();
    expect(box().value).toBe('2');
  });

  it('takes a number in range silently, full-width digits too, once the shopper confirms it', async () => {
    const changed = vi.fn();
    const user = userEvent.setup();
    render(<Harness onChange={changed} />);
    await user.clear(box());
    await user.type(box(), '１２');
    // Nothing is sent while typing: 1, then 12, would each be a change.
    expect(changed).not.toHaveBeenCalled();
    await user.tab();
    expect(changed).toHaveBeenCalledExactlyOnceWith(12);
    expect(box().value).toBe('12');
    expect(screen.queryByRole('status')?.textContent ?? '').toBe('');
  });

  it('− at 1 asks to remove where the page can remove the line', async () => {
    const onZero = vi.fn();
    render(<Harness start={1} onZero={onZero} />);
    await userEvent.setup().click(screen.getByRole('button', { name: '減少數量' }));
    expect(onZero).toHaveBeenCalledOnce();
  });
});
