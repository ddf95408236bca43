import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { AdminOrderDetail } from '@shop/shared/admin-orders';
import { RecipientCorrection } from './recipient-correction.tsx';

vi.mock('../api.ts', () => ({
  ordersApi: {
    correctRecipient: vi.fn(async (_no: string, body: object) => ({
      ...order,
      shipping: { ...order.shipping, ...body },
    })),
  },
}));

const order = {
  orderNo: 'TW20261128000007',
  status: 'processing',
  shipping: { method: 'cvs', recipientName: '歐陽小明 先生', phone: '0912345678' },
} as unknown as AdminOrderDetail;

function renderIt(o: AdminOrderDetail = order) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RecipientCorrection order={o} />
    </QueryClientProvider>,
  );
}

describe('修正收件人 in the console', () => {
  it('refuses a name the carriers refuse beside the field, and saves one they take', async () => {
    const { ordersApi } = await import('../api.ts');
    renderIt();
    await userEvent.click(screen.getByRole('button', { name: '修正收件人' }));
    const name = await screen.findByRole('textbox', { name: /取件人姓名/ });
    await userEvent.click(screen.getByRole('button', { name: '儲存' }));
    await vi.waitFor(() =>
      expect(
        document.getElementById(
          name
            .getAttribute('aria-describedby')
            ?.split(' ')
            .find((id) => id.endsWith('error')) ?? '',
        )?.textContent,
      ).toContain('超商取件人姓名須為 2–5 個中文字'),
    );
    expect(ordersApi.correctRecipient).not.toHaveBeenCalled();
    await userEvent.clear(name);
    await userEvent.type(name, '歐陽小明');
    await userEvent.click(screen.getByRole('button', { name: '儲存' }));
    await vi.waitFor(() =>
      expect(ordersApi.correctRecipient).toHaveBeenCalledWith('TW20261128000007', {
        recipientName: '歐陽小明',
        phone: '0912345678',
      }),
    );
  });

  it('is not offered once the order is on its way', () => {
    renderIt({ ...order, status: 'shipped' } as AdminOrderDetail);
    expect(screen.queryByRole('button', { name: '修正收件人' })).toBeNull();
  });
});
