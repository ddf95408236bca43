import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { AtmDetails, DiscountLine } from './order-parts.tsx';

const atm = {
  bankCode: '812',
  bank: '812 台新銀行',
  account: '9103522175887271',
  expireDate: '2026/11/26',
  deadline: '2026/11/26 23:59',
};

describe('ATM transfer details (/payComplete and the order page)', () => {
  it('names the bank beside its code, groups the account in fours, gives the deadline its time', () => {
    render(<AtmDetails atm={atm} total={1280} />);
    expect(screen.getByTestId('atm-bank').textContent).toBe('812 台新銀行');
    expect(screen.getByTestId('atm-account').textContent).toBe('9103 5221 7588 7271');
    expect(screen.getByTestId('atm-deadline').textContent).toBe('2026/11/26 23:59 前');
    expect(screen.getByText('NT$1,280')).toBeTruthy();
  });

  it('copies the account as digits only', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<AtmDetails atm={atm} total={1280} />);
    fireEvent.click(screen.getByRole('button', { name: '複製虛擬帳號' }));
    await vi.waitFor(() => expect(writeText).toHaveBeenCalledWith('9103522175887271'));
  });
});

describe('a discount line (/payComplete, order pages, the console)', () => {
  it('keeps the minus sign with the amount, and breaks the name only between its words', () => {
    const { container } = render(
      <dl>
        <DiscountLine label="優惠碼 SPRING-2026（春茶 NT$100 折價券）" amount={100} />
      </dl>,
    );
    const amount = container.querySelector('dd')!;
    expect(amount.textContent).toBe('−NT$100');
    expect(amount.className).toContain('whitespace-nowrap');
    expect(amount.className).toContain('shrink-0');
    const name = container.querySelector('dt')!;
    expect(name.textContent).toBe('優惠碼 SPRING-2026（春茶 NT$100 折價券）');
    expect(name.className).toContain('break-keep');
  });
});
