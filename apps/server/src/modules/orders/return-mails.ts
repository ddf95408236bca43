import { BRAND } from '@shop/shared/brand';
import { formatTwd } from '@shop/shared/money';
import { renderMail } from '../../lib/mail-layout.ts';
import type { MailMessage } from '../../plugins/mail.ts';
import { memberMail, orderUrl } from './mails.ts';

/** The mails of a return's life (docs/product-rules.md#returns): to the member at each step, and to the shop when one is asked for. */

export interface MailReturn {
  readonly orderNo: string;
  readonly returnNo: string;
  readonly email: string;
  readonly name: string;
  readonly items: ReadonlyArray<{ name: string; quantity: number }>;
  readonly amount: number;
  readonly card: boolean;
}

const list = (r: MailReturn) => r.items.map((i) => `${i.name} × ${i.quantity}`).join('、');
const button = (publicUrl: string, r: MailReturn) => ({
  label: '查看退貨進度',
  url: orderUrl(publicUrl, r.orderNo),
});

export function returnRequestedMail(r: MailReturn, publicUrl: string): MailMessage {
  return memberMail(
    r,
    'return-requested',
    '已收到您的退貨申請',
    [
      `我們已收到訂單 ${r.orderNo} 的退貨申請（${r.returnNo}）：${list(r)}。`,
      '客服會在 1–2 個工作天內審核，結果會寄信通知您；核准前請先保留商品與包裝，不用寄回。',
    ],
    button(publicUrl, r),
  );
}

export function returnApprovedMail(r: MailReturn, message: string, publicUrl: string): MailMessage {
  return memberMail(
    r,
    'return-approved',
    '退貨申請已核准',
    [
      `訂單 ${r.orderNo} 的退貨申請（${r.returnNo}）已核准。`,
      `請將商品連同原包裝寄回「${BRAND.address}，${BRAND.name} 退貨組」（電話 ${BRAND.phone}），並在包裹上註明退貨編號 ${r.returnNo}；運費由我們負擔，可選擇到付。`,
      ...(message ? [`客服留言：${message}`] : []),
      `收到商品後，我們會退還 ${formatTwd(r.amount)}，${r.card ? '退回您付款的信用卡' : '轉入您提供的銀行帳戶'}。`,
    ],
    button(publicUrl, r),
  );
}

export function returnRefusedMail(r: MailReturn, message: string, publicUrl: string): MailMessage {
  return memberMail(
    r,
    'return-refused',
    '退貨申請未核准',
    [
      `很抱歉，訂單 ${r.orderNo} 的退貨申請（${r.returnNo}）未能核准。`,
      `原因：${message}`,
      '如有疑問，歡迎與客服聯絡，我們會再為您確認。',
    ],
    button(publicUrl, r),
  );
}

export function returnReceivedMail(r: MailReturn, publicUrl: string): MailMessage {
  return memberMail(
    r,
    'return-received',
    '已收到退貨商品',
    [
      `我們已收到訂單 ${r.orderNo} 退回的商品（${r.returnNo}）：${list(r)}。`,
      r.card
        ? `退款 ${formatTwd(r.amount)} 已送交綠界，退回您付款的信用卡；辦理完成後會再寄信通知您。`
        : `退款 ${formatTwd(r.amount)} 會在 3 個工作天內轉入您提供的銀行帳戶，完成後會再寄信通知您。`,
    ],
    button(publicUrl, r),
  );
}

/** To the shop: a member asked to return something. */
export function shopReturnMail(
  r: MailReturn & { reason: string; detail: string },
  to: string,
  publicUrl: string,
): MailMessage {
  const url = `${publicUrl}/admin/orders/${encodeURIComponent(r.orderNo)}`;
  return {
    to,
    ...renderMail({
      title: `退貨申請 ${r.returnNo}：${formatTwd(r.amount)}`,
      paragraphs: [
        `${r.name}（${r.email}）申請退回訂單 ${r.orderNo} 的 ${list(r)}。`,
        `原因：${r.reason}${r.detail ? `（${r.detail}）` : ''}`,
      ],
      action: { label: '到後台審核', url },
    }),
    meta: { link: url, kind: 'shop-return' },
  };
}
