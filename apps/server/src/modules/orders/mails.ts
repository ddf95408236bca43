import { formatTwd } from '@shop/shared/money';
import { PAYMENT_METHOD_LABELS, type PaymentMethod } from '@shop/shared/order-status';
import { renderMail } from '../../lib/mail-layout.ts';
import type { MailMessage } from '../../plugins/mail.ts';

export interface MailOrder {
  orderNo: string;
  email: string;
  name: string;
  total: number;
  paymentMethod: PaymentMethod;
  items: Array<{ productName: string; variantLabel: string; quantity: number }>;
}

const items = (o: MailOrder) => o.items.map((i) => `${i.productName}（${i.variantLabel}）× ${i.quantity}`);
const orderUrl = (publicUrl: string, orderNo: string) => `${publicUrl}/member/orderList/${encodeURIComponent(orderNo)}`;

export function orderPlacedMail(o: MailOrder, publicUrl: string): MailMessage {
  const next =
    o.paymentMethod === 'cod'
      ? '我們會盡快為您備貨出貨，商品送達時請準備現金付款。'
      : o.paymentMethod === 'atm'
        ? '請於 30 分鐘內取得 ATM 虛擬帳號，逾時訂單會自動取消；還沒取得的話，可以在訂單頁按「前往付款」。取得後請依通知信轉帳，入帳後我們會為您出貨。'
        : '請於 30 分鐘內完成信用卡付款，逾時訂單會自動取消。';
  return {
    to: o.email,
    ...renderMail({
      title: `訂單已成立：${o.orderNo}`,
      greeting: `${o.name} 您好：`,
      paragraphs: [`感謝您的訂購！訂單編號 ${o.orderNo}，金額 ${formatTwd(o.total)}，付款方式為${PAYMENT_METHOD_LABELS[o.paymentMethod]}。`, next, `購買內容：${items(o).join('、')}`],
      action: { label: '查看訂單', url: orderUrl(publicUrl, o.orderNo) },
    }),
    meta: { link: orderUrl(publicUrl, o.orderNo), kind: 'order-placed' },
  };
}

export function orderPaidMail(o: MailOrder, publicUrl: string): MailMessage {
  return {
    to: o.email,
    ...renderMail({
      title: `付款完成：${o.orderNo}`,
      greeting: `${o.name} 您好：`,
      paragraphs: [`我們已收到訂單 ${o.orderNo} 的款項 ${formatTwd(o.total)}，謝謝您。`, '茶師會在 1–3 個工作天內為您備貨出貨，出貨時會再寄信通知。'],
      action: { label: '查看訂單', url: orderUrl(publicUrl, o.orderNo) },
    }),
    meta: { link: orderUrl(publicUrl, o.orderNo), kind: 'order-paid' },
  };
}

export function atmInfoMail(o: MailOrder, atm: { bankCode: string; account: string; expireDate: string }, publicUrl: string): MailMessage {
  return {
    to: o.email,
    ...renderMail({
      title: `ATM 轉帳資訊：${o.orderNo}`,
      greeting: `${o.name} 您好：`,
      paragraphs: [
        `請於 ${atm.expireDate} 前轉帳 ${formatTwd(o.total)} 至以下虛擬帳號，入帳後訂單即完成付款。`,
        `銀行代碼：${atm.bankCode}`,
        `虛擬帳號：${atm.account}`,
        '每筆訂單的虛擬帳號都不同，請勿重複使用。',
      ],
      action: { label: '查看訂單', url: orderUrl(publicUrl, o.orderNo) },
    }),
    meta: { link: orderUrl(publicUrl, o.orderNo), kind: 'atm-info' },
  };
}

export function orderShippedMail(o: MailOrder, shipment: { carrier: string | null; trackingNo: string | null }, publicUrl: string): MailMessage {
  const url = `${publicUrl}/member/orderTracking/${encodeURIComponent(o.orderNo)}`;
  return {
    to: o.email,
    ...renderMail({
      title: `訂單已出貨：${o.orderNo}`,
      greeting: `${o.name} 您好：`,
      paragraphs: [
        `您的訂單 ${o.orderNo} 已經出貨。`,
        shipment.carrier || shipment.trackingNo ? `物流：${shipment.carrier ?? '—'}，追蹤編號：${shipment.trackingNo ?? '—'}` : '您可以在會員中心追蹤配送進度。',
      ],
      action: { label: '追蹤配送進度', url },
    }),
    meta: { link: url, kind: 'order-shipped' },
  };
}

export function parcelAtStoreMail(o: MailOrder, store: { label: string; address: string }, deadline: string, publicUrl: string): MailMessage {
  const url = `${publicUrl}/member/orderTracking/${encodeURIComponent(o.orderNo)}`;
  return {
    to: o.email,
    ...renderMail({
      title: `包裹已到店：${o.orderNo}`,
      greeting: `${o.name} 您好：`,
      paragraphs: [
        `您的訂單 ${o.orderNo} 已送達 ${store.label}（${store.address}）。`,
        `請於 ${deadline} 前攜帶證件到門市取貨${o.paymentMethod === 'cod' ? `，並於取貨時付款 ${formatTwd(o.total)}` : ''}；逾期未取，包裹會退回山嵐茶事。`,
      ],
      action: { label: '查看取貨資訊', url },
    }),
    meta: { link: url, kind: 'parcel-at-store' },
  };
}

export function parcelReturnedMail(o: MailOrder, publicUrl: string): MailMessage {
  const url = `${publicUrl}/member/orderTracking/${encodeURIComponent(o.orderNo)}`;
  return {
    to: o.email,
    ...renderMail({
      title: `包裹未取件：${o.orderNo}`,
      greeting: `${o.name} 您好：`,
      paragraphs: [
        `您的訂單 ${o.orderNo} 的包裹在取貨期限內沒有取件，已退回山嵐茶事。`,
        o.paymentMethod === 'cod' ? '這筆訂單是取貨付款，您沒有被收取任何費用。' : '我們會與您聯絡，確認要重新寄送或辦理退款。',
        '如果想重新寄送，也歡迎直接回覆這封信或與客服聯絡。',
      ],
      action: { label: '查看訂單', url },
    }),
    meta: { link: url, kind: 'parcel-returned' },
  };
}

export function storeClosedMail(o: MailOrder, store: string, publicUrl: string): MailMessage {
  const url = `${publicUrl}/member/orderTracking/${encodeURIComponent(o.orderNo)}`;
  return {
    to: o.email,
    ...renderMail({
      title: `請重新選擇取件門市：${o.orderNo}`,
      greeting: `${o.name} 您好：`,
      paragraphs: [
        `您訂單 ${o.orderNo} 的取件門市（${store}）已關轉，包裹無法送達。`,
        '請{action}打開訂單，從門市地圖選擇同一家超商的另一間門市，我們會把包裹改送到新門市。',
      ],
      action: { label: '選擇新門市', url },
    }),
    meta: { link: url, kind: 'store-closed' },
  };
}
