import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import type { OrderDetail } from '@shop/shared/orders';
import { ReturnForm } from './return-form.tsx';

vi.mock('../api/orders-api.ts', () => ({
  requestReturn: vi.fn(async () => ({ orderNo: 'TW20261126000001' })),
  uploadReturnPhoto: vi.fn(),
}));

const item = (id: string, name: string, quantity: number) => ({
  id,
  productSlug: id,
  productName: name,
  variantLabel: '75 g',
  sku: id,
  imageSrc: null,
  unitPrice: 480,
  quantity,
  lineTotal: 480 * quantity,
});

function order(needsAccount: boolean): OrderDetail {
  return {
    orderNo: 'TW20261126000001',
    items: [
      item('11111111-1111-4111-8111-111111111111', '凍頂烏龍茶', 2),
      item('22222222-2222-4222-8222-222222222222', '東方美人茶', 1),
    ],
    returnable: {
      until: '2026-12-03T08:00:00Z',
      items: [
        { itemId: '11111111-1111-4111-8111-111111111111', quantity: 2 },
        { itemId: '22222222-2222-4222-8222-222222222222', quantity: 1 },
      ],
      needsAccount,
    },
  } as unknown as OrderDetail;
}

describe('the member’s return request', () => {
  it('asks for an item and a reason beside their fields, and sends nothing until they are given', async () => {
    const { requestReturn } = await import('../api/orders-api.ts');
    render(<ReturnForm order={order(false)} onDone={() => {}} onCancel={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: '送出退貨申請' }));
    expect(await screen.findByText('請勾選要退回的商品')).toBeTruthy();
    expect(await screen.findByText('請選擇退貨原因')).toBeTruthy();
    expect(requestReturn).not.toHaveBeenCalled();
    // A card order asks no bank account.
    expect(screen.queryByLabelText(/帳號/)).toBeNull();
    // Ticking an item takes the message away at once.
    fireEvent.click(screen.getAllByRole('checkbox')[0]!);
    await vi.waitFor(() => expect(screen.queryByText('請勾選要退回的商品')).toBeNull());
  });

  it('sends the ticked items with their quantity, the reason and the account for a transfer refund', async () => {
    const { requestReturn } = await import('../api/orders-api.ts');
    const done = vi.fn();
    render(<ReturnForm order={order(true)} onDone={done} onCancel={() => {}} />);
    fireEvent.click(screen.getByRole('checkbox', { name: /凍頂烏龍茶/ }));
    fireEvent.change(screen.getByLabelText('數量'), { target: { value: '1' } });
    fireEvent.change(screen.getByLabelText(/退貨原因/), { target: { value: 'damaged' } });
    fireEvent.change(screen.getByLabelText(/^銀行/), { target: { value: '812' } });
    fireEvent.input(screen.getByLabelText(/^帳號/), { target: { value: '12' } });
    fireEvent.input(screen.getByLabelText(/^戶名/), { target: { value: '林小嵐' } });
    fireEvent.click(screen.getByRole('button', { name: '送出退貨申請' }));
    expect(await screen.findByText('帳號為 10–16 位數字（可省略空格與「-」）')).toBeTruthy();
    expect(requestReturn).not.toHaveBeenCalled();
    fireEvent.input(screen.getByLabelText(/^帳號/), { target: { value: '2888 1234 5678' } });
    fireEvent.click(screen.getByRole('button', { name: '送出退貨申請' }));
    await vi.waitFor(() =>
      expect(requestReturn).toHaveBeenCalledWith('TW20261126000001', {
        items: [{ itemId: '11111111-1111-4111-8111-111111111111', quantity: 1 }],
        reason: 'damaged',
        detail: '',
        photos: [],
        refundAccount: { bankCode: '812', account: '2888 1234 5678', holder: '林小嵐' },
      }),
    );
    await vi.waitFor(() => expect(done).toHaveBeenCalled());
  });
});
