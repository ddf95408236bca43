import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import type { OrderDetail } from '@shop/shared/orders';
import { OrderLead } from './order-page.tsx';

describe('the order page header lead', () => {
  it('never starts a wrapped line with 「・」: the order time is its own unbreakable piece', () => {
    const { container } = render(
      <OrderLead
        order={
          { orderNo: 'TW20261123000042', status: 'paid', createdAt: '2026-11-23T15:13:00Z' } as OrderDetail
        }
      />,
    );
    const pieces = [...container.firstElementChild!.children].map((el) => el.textContent ?? '');
    expect(pieces[0]).toBe('TW20261123000042');
    for (const piece of pieces) expect(piece.startsWith('・')).toBe(false);
    const time = container.querySelector('time')!;
    expect(time.textContent).toBe('下單時間 2026/11/23 23:13');
    expect(time.className).toContain('whitespace-nowrap');
  });
});
