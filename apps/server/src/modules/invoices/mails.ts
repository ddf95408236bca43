import { formatTwd } from '@shop/shared/money';
import { formatEcpayDate, formatTaipeiDateTime } from '@shop/shared/taipei-time';
import type { InvoiceDetails } from '../../db/schema.ts';
import type { MailMessage } from '../../plugins/mail.ts';
import { memberMail, orderUrl } from '../orders/mails.ts';

export interface MailInvoice {
  readonly orderNo: string;
  readonly email: string;
  readonly name: string;
  readonly invoiceNo: string;
  /** 'yyyy-MM-dd HH:mm:ss', Taiwan time. */
  readonly invoiceDate: string;
  readonly randomNumber: string;
  readonly amount: number;
  readonly issuedTo: InvoiceDetails;
}

/** AB12345678 as it is printed: AB-12345678. */
export const formatInvoiceNo = (no: string) => `${no.slice(0, 2)}-${no.slice(2)}`;

function whereItIs(to: InvoiceDetails): string {
  switch (to.type) {
    case 'member':
      return '發票存放在您的綠界會員載具（以您的電子信箱為載具）。每期開獎後我們會代為對獎，中獎時以電子郵件通知您領獎方式。';
    case 'mobile':
      return `發票已存入您的手機條碼載具（${to.mobileBarcode ?? ''}），可在財政部電子發票整合服務平台查詢與對獎。`;
    case 'certificate':
      return `發票已存入您的自然人憑證載具（${to.certificate ?? ''}），可在財政部電子發票整合服務平台查詢與對獎。`;
    case 'donation':
      return `發票已依您的意願捐贈（愛心碼 ${to.donationCode ?? ''}），謝謝您的愛心。`;
    case 'company':
      return `公司戶發票（${to.companyTitle ?? ''}，統一編號 ${to.taxId ?? ''}）的紙本證明聯會隨商品寄出。`;
  }
}

export function invoiceIssuedMail(i: MailInvoice, publicUrl: string, note: string | null): MailMessage {
  return memberMail(
    i,
    'invoice-issued',
    '電子發票已開立',
    [
      `訂單 ${i.orderNo} 的電子發票已開立。`,
      `發票號碼：${formatInvoiceNo(i.invoiceNo)}`,
      `開立日期：${formatEcpayDate(i.invoiceDate)}`,
      `隨機碼：${i.randomNumber}`,
      `金額：${formatTwd(i.amount)}（含稅）`,
      whereItIs(i.issuedTo),
      ...(note ? [note] : []),
    ],
    { label: '查看訂單與發票', url: orderUrl(publicUrl, i.orderNo) },
  );
}

export function invoiceVoidedMail(i: MailInvoice, reason: string, publicUrl: string): MailMessage {
  return memberMail(
    i,
    'invoice-voided',
    '電子發票已作廢',
    [
      `訂單 ${i.orderNo} 的電子發票 ${formatInvoiceNo(i.invoiceNo)}（${formatTwd(i.amount)}）已作廢，原因：${reason}。`,
      '作廢的發票不會參加對獎；如有疑問，歡迎與客服聯絡。',
    ],
    { label: '查看訂單', url: orderUrl(publicUrl, i.orderNo) },
  );
}

/** Sent when an allowance is asked for: ECPay mails a consent link, valid 72 hours; nothing is credited until the buyer agrees. */
export function allowanceRequestedMail(
  i: MailInvoice,
  allowance: { no: string; amount: number; expiresAt: Date },
  publicUrl: string,
): MailMessage {
  return memberMail(
    i,
    'invoice-allowance-requested',
    '請同意發票折讓',
    [
      `因為退款，我們要為訂單 ${i.orderNo} 的電子發票 ${formatInvoiceNo(i.invoiceNo)} 開立折讓 ${formatTwd(allowance.amount)}（折讓單號 ${allowance.no}）。`,
      `綠界科技會另外寄一封「折讓同意通知」到這個信箱，請在 ${formatTaipeiDateTime(allowance.expiresAt)} 前點選信中的連結同意；同意後折讓才會開立，不需要寄回任何紙本。`,
      '如果沒有收到綠界的信，請查看垃圾郵件匣，或與客服聯絡。',
    ],
    { label: '查看訂單', url: orderUrl(publicUrl, i.orderNo) },
  );
}

export function allowanceMail(
  i: MailInvoice,
  allowance: { no: string; amount: number },
  publicUrl: string,
): MailMessage {
  return memberMail(
    i,
    'invoice-allowance',
    '發票折讓已開立',
    [
      `您已同意折讓，訂單 ${i.orderNo} 的電子發票 ${formatInvoiceNo(i.invoiceNo)} 已開立折讓 ${formatTwd(allowance.amount)}。`,
      `折讓單號：${allowance.no}`,
      '折讓後發票仍然有效，並照常參加對獎。',
    ],
    { label: '查看訂單', url: orderUrl(publicUrl, i.orderNo) },
  );
}

export interface AwardMail {
  readonly orderNo: string;
  readonly email: string;
  readonly name: string;
  readonly invoiceNo: string;
  readonly period: { year: number; month: number; claimFrom: string; claimUntil: string };
  readonly prize: { name: string; amount: number | null };
}

const rocDate = (day: string) =>
  `${Number(day.slice(0, 4)) - 1911} 年 ${Number(day.slice(5, 7))} 月 ${Number(day.slice(8, 10))} 日`;

/**
 * A winning invoice in the ECPay member carrier: the seller tells the winner and, asked, prints the
 * winning invoice's 證明聯 and mails it. How to claim, and until when.
 */
export function invoiceAwardMail(a: AwardMail, publicUrl: string): MailMessage {
  const p = a.period;
  return memberMail(
    a,
    'invoice-award',
    '發票中獎通知',
    [
      `恭喜！訂單 ${a.orderNo} 的電子發票 ${formatInvoiceNo(a.invoiceNo)}（${p.year - 1911} 年 ${p.month}-${p.month + 1} 月期）中了${a.prize.name}${a.prize.amount === null ? '' : `，獎金 ${formatTwd(a.prize.amount)}`}。`,
      '這張發票存在您的綠界會員載具，領獎方式請擇一：',
      '一、到財政部電子發票整合服務平台（或統一發票兌獎 APP），把綠界會員載具歸戶到您的手機條碼並設定領獎帳戶，獎金會自動匯入。',
      '二、回覆這封信或聯絡客服，告訴我們收件人與地址，我們會列印這張發票的電子發票證明聯，以掛號免費寄給您；請帶著證明聯與身分證到兌獎據點領獎。',
      `領獎期間：${rocDate(p.claimFrom)}至 ${rocDate(p.claimUntil)}，逾期不能領獎。中獎金額依規定扣繳所得稅或印花稅後發給。`,
    ],
    { label: '查看訂單', url: orderUrl(publicUrl, a.orderNo) },
  );
}
