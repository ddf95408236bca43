import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { IssuedInvoiceView } from '@shop/shared/orders';
import { IssuedInvoice } from './issued-invoice.tsx';

const issued: IssuedInvoiceView = {
  status: 'issued',
  invoiceNo: 'AB12345678',
  invoiceDate: '2026-11-20 10:00:00',
  randomNumber: '1234',
  amount: 1080,
  voidReason: null,
  award: null,
  allowances: [
    {
      allowanceNo: '2026112800000001',
      amount: 480,
      reason: '退貨',
      state: 'pending',
      createdAt: '2026-11-28T02:00:00Z',
      expiresAt: '2026-12-01T02:00:00Z',
      issuedAt: null,
    },
    {
      allowanceNo: '2026112800000002',
      amount: 120,
      reason: '運費',
      state: 'issued',
      createdAt: '2026-11-28T02:00:00Z',
      expiresAt: null,
      issuedAt: '2026-11-28T05:00:00Z',
    },
    {
      allowanceNo: '2026112800000003',
      amount: 60,
      reason: '補償',
      state: 'expired',
      createdAt: '2026-11-20T02:00:00Z',
      expiresAt: '2026-11-23T02:00:00Z',
      issuedAt: null,
    },
  ],
};

describe('an issued invoice as the member and the console see it', () => {
  it('says where each allowance stands: waiting for the buyer (until when), issued, or lapsed', () => {
    render(<IssuedInvoice invoice={issued} />);
    const list = screen.getByRole('list', { name: '發票折讓' }).textContent ?? '';
    expect(list).toContain('待買受人同意，期限 2026/12/01 10:00（綠界已寄信）');
    expect(list).toContain('已開立（2026/11/28）');
    expect(list).toContain('逾期未同意，未折讓');
  });

  it('names a winning invoice, its prize and the last day to claim it', () => {
    render(
      <IssuedInvoice
        invoice={{
          ...issued,
          allowances: [],
          award: { label: '已中獎', prize: '六獎', amount: 200, claimUntil: '2027-04-05' },
        }}
      />,
    );
    expect(screen.getByTestId('invoice-award').textContent).toBe(
      '已中獎：六獎（NT$200），領獎期限至 2027/04/05',
    );
  });
});
