import { formatTwd } from '@shop/shared/money';
import type { AdminOrderDetail } from '@shop/shared/admin-orders';

type Order = Pick<AdminOrderDetail, 'status' | 'paymentMethod' | 'paidAt' | 'issuedInvoice'> & {
  amounts: Pick<AdminOrderDetail['amounts'], 'total'>;
};

/**
 * What a cancel or a refund will do with the goods, the money and the invoice, and what is left
 * for staff to do: the shop refunds a card through ECPay itself, so the dialog must never send
 * the owner to refund it again by hand; a transfer is the one thing staff do themselves.
 */
export function moneyWords(order: Order, action: 'cancel' | 'refund'): string[] {
  const total = formatTwd(order.amounts.total);
  const goodsHeld = ['pending_payment', 'payment_failed', 'paid', 'processing', 'returned'].includes(
    order.status,
  );
  const moneyTaken = order.paymentMethod === 'cod' ? action === 'refund' : order.paidAt !== null;
  const words = [
    action === 'cancel'
      ? `取消後訂單無法復原${goodsHeld ? '，商品會放回庫存' : ''}。`
      : goodsHeld
        ? '退款後訂單結案，商品會放回庫存。'
        : '退款後訂單結案；商品不會自動放回庫存，實際收回的退貨請用退貨流程入庫。',
  ];
  if (!moneyTaken)
    words.push(
      order.paymentMethod === 'cod' ? '貨到付款尚未收款，不需要退款。' : '這筆訂單尚未付款，不需要退款。',
    );
  else if (order.paymentMethod === 'credit_card')
    words.push(`系統會透過綠界把 ${total} 退回會員的信用卡，並寄信通知會員；不需要再到綠界後台操作。`);
  else if (order.paymentMethod === 'line_pay')
    words.push(
      `系統會透過 LINE Pay 把 ${total} 退回會員付款的帳戶，並寄信通知會員；不需要再到 LINE Pay 商家後台操作。`,
    );
  else
    words.push(
      `${total} 需要以轉帳退還：系統會寄信請會員填寫退款帳戶，填好後會出現在「退貨與退款」的待轉帳清單，請在那裡轉帳並標記完成。`,
    );
  if (moneyTaken && order.issuedInvoice?.status === 'issued')
    words.push('已開立的發票會自動作廢或開立折讓。');
  return words;
}
