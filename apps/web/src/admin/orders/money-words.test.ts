import { describe, expect, it } from 'vitest';
import { moneyWords } from './money-words.ts';

const base = {
  status: 'paid',
  paymentMethod: 'credit_card',
  paidAt: '2026-11-20T02:00:00Z',
  issuedInvoice: null,
  amounts: { total: 1080 },
} as const;
const issued = {
  status: 'issued' as const,
  invoiceNo: 'AB12345678',
  invoiceDate: '2026-11-20',
  randomNumber: '1234',
  amount: 1080,
  voidReason: null,
  award: null,
  allowances: [],
};

describe('what a console cancel or refund says it will do', () => {
  it('a paid card order: the shop refunds the card itself, and says nobody should refund it again', () => {
    const words = moneyWords({ ...base, issuedInvoice: issued }, 'cancel').join('');
    expect(words).toContain('系統會透過綠界把 NT$1,080 退回會員的信用卡');
    expect(words).toContain('不需要再到綠界後台操作');
    expect(words).toContain('發票會自動作廢或開立折讓');
    expect(words).not.toMatch(/另外(辦理|完成)/);
  });

  it('a paid ATM order or a delivered cash-on-delivery one: a transfer staff make from the list', () => {
    expect(moneyWords({ ...base, paymentMethod: 'atm' }, 'cancel').join('')).toContain('需要以轉帳退還');
    expect(
      moneyWords({ ...base, paymentMethod: 'cod', paidAt: null, status: 'delivered' }, 'refund').join(''),
    ).toContain('「退貨與退款」的待轉帳清單');
  });

  it('nothing to refund when nothing was collected', () => {
    expect(
      moneyWords({ ...base, paymentMethod: 'cod', paidAt: null, status: 'processing' }, 'cancel'),
    ).toEqual(['取消後訂單無法復原，商品會放回庫存。', '貨到付款尚未收款，不需要退款。']);
    expect(moneyWords({ ...base, paidAt: null, status: 'pending_payment' }, 'cancel')).toEqual([
      '取消後訂單無法復原，商品會放回庫存。',
      '這筆訂單尚未付款，不需要退款。',
    ]);
  });

  it('a refund after delivery leaves the stock alone', () => {
    expect(moneyWords({ ...base, status: 'delivered' }, 'refund')[0]).toBe(
      '退款後訂單結案；商品不會自動放回庫存，實際收回的退貨請用退貨流程入庫。',
    );
  });
});
