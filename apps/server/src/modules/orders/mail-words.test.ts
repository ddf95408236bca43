import { describe, expect, it } from 'vitest';
import type { MailMessage } from '../../plugins/mail.ts';
import {
  verificationMail,
  resetPasswordMail,
  passwordChangedMail,
  emailChangedMail,
  staffInviteMail,
} from '../auth/mails.ts';
import { allowanceMail, invoiceIssuedMail, invoiceVoidedMail } from '../invoices/mails.ts';
import {
  atmInfoMail,
  storeCodeMail,
  newOrderMail,
  orderCancelledMail,
  orderDeliveredMail,
  orderExpiredMail,
  orderPaidMail,
  orderPlacedMail,
  destinationWords,
  orderRefundedMail,
  orderShippedMail,
  parcelAtStoreMail,
  parcelReturnedMail,
  paymentFailedMail,
  refundByTransferMail,
  storeClosedMail,
  type MailOrder,
} from './mails.ts';
import {
  returnApprovedMail,
  returnReceivedMail,
  returnRefusedMail,
  returnRequestedMail,
  shopReturnMail,
} from './return-mails.ts';

const URL = 'http://localhost:3000';
const order = (paymentMethod: MailOrder['paymentMethod']): MailOrder => ({
  orderNo: 'TW20261126000001',
  email: 'lan@example.com',
  name: '林小嵐',
  total: 1280,
  paymentMethod,
  items: [{ productName: '凍頂烏龍茶', variantLabel: '75 g', quantity: 2 }],
});
const ret = {
  orderNo: 'TW20261126000001',
  returnNo: 'TW20261126000001-R1',
  email: 'lan@example.com',
  name: '林小嵐',
  items: [{ name: '凍頂烏龍茶（75 g）', quantity: 1 }],
  amount: 480,
  card: true,
};
const invoice = {
  orderNo: 'TW20261126000001',
  email: 'lan@example.com',
  name: '林小嵐',
  invoiceNo: 'AB12345678',
  invoiceDate: '2026-11-26 10:00:00',
  randomNumber: '1234',
  amount: 1280,
  issuedTo: { type: 'mobile' as const, mobileBarcode: '/ABC1234' },
};
const back = { note: '商品已放回購物車。', inCart: true };
/** An order as notify.ts gives it to the order mail: line prices, amounts and where it goes. */
const priced = (paymentMethod: MailOrder['paymentMethod']): MailOrder => ({
  ...order(paymentMethod),
  total: 1010,
  items: [{ productName: '凍頂烏龍茶', variantLabel: '75 g', quantity: 2, lineTotal: 900 }],
  summary: {
    subtotal: 900,
    discounts: [{ label: '新會員見面禮', amount: 50 }],
    shippingFee: paymentMethod === 'cod' ? 150 : 120,
    destination: destinationWords({
      method: 'home',
      recipientName: '林小嵐',
      phone: '0912345678',
      postalCode: '558',
      city: '南投縣',
      district: '鹿谷鄉',
      address: '興產路 87 號',
    }),
  },
});
const when = new Date('2026-11-26T02:00:00Z');

/** Every mail the shop sends, with sample data. */
const ALL: Array<[string, MailMessage]> = [
  ['placed (ATM)', orderPlacedMail(order('atm'), URL)],
  ['placed, priced (card)', orderPlacedMail(priced('credit_card'), URL)],
  ['placed, priced (cash on delivery, home)', orderPlacedMail(priced('cod'), URL)],
  ['placed (card)', orderPlacedMail(order('credit_card'), URL)],
  ['placed (cash on delivery, home)', orderPlacedMail(order('cod'), URL)],
  [
    'placed (cash on delivery, store pickup)',
    orderPlacedMail({ ...order('cod'), pickupStore: '7-ELEVEN 鹿谷門市' }, URL),
  ],
  ['paid', orderPaidMail(order('credit_card'), URL)],
  ['payment failed', paymentFailedMail(order('credit_card'), '付款未成功：授權失敗。', URL)],
  ['payment failed without a reason', paymentFailedMail(order('credit_card'), null, URL)],
  ['expired', orderExpiredMail(order('credit_card'), URL, back)],
  ['cancelled by the member', orderCancelledMail(order('credit_card'), 'member', null, URL, back)],
  [
    'cancelled by staff (ATM, paid)',
    orderCancelledMail({ ...order('atm'), paid: true }, 'staff', '商品缺貨', URL),
  ],
  ['refund by transfer', refundByTransferMail(order('cod'), URL)],
  ['refunded', orderRefundedMail(order('credit_card'), 1280, URL)],
  ['delivered', orderDeliveredMail(order('cod'), URL)],
  [
    'ATM account',
    atmInfoMail(
      order('atm'),
      { bankCode: '812', account: '9103522175887271', expireDate: '2026/11/29' },
      URL,
    ),
  ],
  [
    'CVS code',
    storeCodeMail(
      order('cvs_code'),
      { paymentNo: 'LLL22251222', barcodes: null, expireDate: '2026/12/05 10:30:00' },
      URL,
    ),
  ],
  [
    'store barcodes',
    storeCodeMail(
      order('cvs_barcode'),
      {
        paymentNo: null,
        barcodes: ['2612056R1', '1234567890123456', '1226000000001280'],
        expireDate: '2026/12/05 10:30:00',
      },
      URL,
    ),
  ],
  ['placed, card in instalments', orderPlacedMail({ ...order('credit_card'), installments: 6 }, URL)],
  ['placed, store code', orderPlacedMail(order('cvs_code'), URL)],
  ['shipped', orderShippedMail(order('cod'), { carrier: '7-ELEVEN 交貨便', trackingNo: 'F12345678' }, URL)],
  [
    'at the store',
    parcelAtStoreMail(
      order('cod'),
      { label: '7-ELEVEN 鹿谷門市', address: '南投縣鹿谷鄉中正路一段 1 號' },
      '2026/12/03（週四）',
      URL,
    ),
  ],
  ['parcel returned', parcelReturnedMail(order('cod'), URL)],
  ['home parcel returned', parcelReturnedMail(order('credit_card'), URL, true)],
  ['store closed', storeClosedMail(order('cod'), '7-ELEVEN 鹿谷門市', URL)],
  [
    'new order (shop)',
    newOrderMail({ ...order('atm'), shippingMethod: 'home', note: '' }, 'service@example.com', URL),
  ],
  ['return requested', returnRequestedMail(ret, URL)],
  ['return approved', returnApprovedMail(ret, '', URL)],
  ['return refused', returnRefusedMail(ret, '商品已拆封', URL)],
  ['return received', returnReceivedMail(ret, URL)],
  ['return (shop)', shopReturnMail({ ...ret, reason: '商品瑕疵', detail: '' }, 'service@example.com', URL)],
  ['invoice issued', invoiceIssuedMail(invoice, URL, null)],
  ['invoice voided', invoiceVoidedMail(invoice, '訂單取消', URL)],
  ['allowance', allowanceMail(invoice, { no: 'AL0001', amount: 480 }, URL)],
  ['verification', verificationMail('lan@example.com', '林小嵐', `${URL}/emailVerification?code=x`)],
  ['reset password', resetPasswordMail('lan@example.com', '林小嵐', `${URL}/resetPassword?code=x`)],
  ['password changed', passwordChangedMail('lan@example.com', '林小嵐', when, `${URL}/login`)],
  ['e-mail changed', emailChangedMail('lan@example.com', '林小嵐', 'new@example.com', when)],
  [
    'staff invite',
    staffInviteMail('staff@example.com', '王小茶', '店員', `${URL}/admin/invite?code=x`, when),
  ],
];

/** Chinese next to a Latin letter or digit with no space between (DESIGN.md: 「共 3 件商品」). */
const UNSPACED = /[\u4e00-\u9fff][A-Za-z0-9]|[A-Za-z0-9][\u4e00-\u9fff]/;

describe('what the shop’s mails say, in words a shopper reads', () => {
  it.each(ALL.filter(([name]) => !name.includes('(shop)')))(
    '%s: never asks for a reply the footer says not to send',
    (_name, mail) => {
      // The footer: 「這封信由系統自動寄出，請勿直接回覆」 with the service address and phone.
      expect(mail.text).not.toMatch(/回覆這封信/);
    },
  );

  it.each(ALL)('%s: the plain text never points at a button it does not have', (_name, mail) => {
    expect(mail.text).not.toContain('按鈕');
    expect(mail.text).not.toContain('{action}');
    expect(mail.html).not.toContain('{action}');
  });

  it.each(ALL)('%s: a space between Chinese and Latin letters or digits', (_name, mail) => {
    const lines = mail.text.split('\n').filter((line) => !/^https?:\/\//.test(line));
    expect(lines.filter((line) => UNSPACED.test(line))).toEqual([]);
    expect(UNSPACED.test(mail.subject.replace(/^【[^】]*】/, ''))).toBe(false);
  });

  it.each(ALL)('%s: dates in one format, 2026/11/26', (_name, mail) => {
    const text = mail.text
      .split('\n')
      .filter((line) => !/^https?:\/\//.test(line))
      .join('\n');
    expect(text).not.toMatch(/\d{4}-\d{1,2}-\d{1,2}|\d{4}年\d{1,2}月/);
  });

  it('the 訂單已成立 mail lists each item with its price, the amounts and where the order goes', () => {
    const [, mail] = ALL.find(([name]) => name === 'placed, priced (cash on delivery, home)')!;
    expect(mail.text).toContain('購買內容：\n凍頂烏龍茶（75 g）× 2　NT$900');
    expect(mail.text).toContain(
      '商品小計：NT$900\n新會員見面禮：−NT$50\n運費與貨到付款手續費：NT$150\n應付總額：NT$1,010',
    );
    expect(mail.text).toContain('收件資訊：\n林小嵐　0912345678\n宅配到府：558 南投縣鹿谷鄉興產路 87 號');
    // Each line on its own line in the HTML too.
    expect(mail.html).toContain('white-space:pre-line');
  });

  it('the invoice mail gives its date as 2026/11/26', () => {
    const [, issued] = ALL.find(([name]) => name === 'invoice issued')!;
    expect(issued.text).toContain('開立日期：2026/11/26');
  });

  it('a failed payment is one sentence ending in 。, the gateway’s reason said once', () => {
    const [, failed] = ALL.find(([name]) => name === 'payment failed')!;
    expect(failed.text).toContain('訂單 TW20261126000001 的付款沒有成功：授權失敗。');
    expect(failed.text).not.toContain('付款未成功：');
    const [, bare] = ALL.find(([name]) => name === 'payment failed without a reason')!;
    expect(bare.text).toContain('訂單 TW20261126000001 的付款沒有成功。');
  });

  it('the ATM mail names the bank, groups the account in fours and gives the deadline its time', () => {
    const [, atm] = ALL.find(([name]) => name === 'ATM account')!;
    expect(atm.text).toContain('請於 2026/11/29 23:59 前轉帳 NT$1,280 至以下虛擬帳號');
    expect(atm.text).toContain('銀行代碼：812 台新銀行');
    expect(atm.text).toContain('虛擬帳號：9103 5221 7588 7271');
  });

  it("the shipped mail gives the carrier's tracking page", () => {
    const tcat = orderShippedMail(order('cod'), { carrier: '黑貓宅急便', trackingNo: '905512345678' }, URL);
    expect(tcat.text).toContain(
      '在物流業者網站查詢這件包裹：https://www.t-cat.com.tw/Inquire/TraceDetail.aspx?BillID=905512345678',
    );
    const [, seven] = ALL.find(([name]) => name === 'shipped')!;
    expect(seven.text).toContain(
      '到物流業者網站輸入追蹤編號查詢：https://eservice.7-11.com.tw/e-tracking/search.aspx',
    );
  });

  it('the order mail names the payment method after a colon, with its space (ATM 轉帳)', () => {
    const [, placed] = ALL.find(([name]) => name === 'placed (ATM)')!;
    expect(placed.text).toContain('付款方式：ATM 轉帳（虛擬帳號）。');
  });
});

describe('cash on delivery in the order mail', () => {
  it('at a pickup store is paid at its counter, not handed to a courier', () => {
    const store = orderPlacedMail({ ...order('cod'), pickupStore: '7-ELEVEN 鹿谷門市' }, URL).text;
    expect(store).toContain('商品到達「7-ELEVEN 鹿谷門市」後會寄信通知您，請在門市櫃台付款');
    expect(store).toContain('取貨付款');
    expect(store).not.toContain('送達時請準備現金');
    expect(orderPlacedMail(order('cod'), URL).text).toContain('商品送達時請準備現金付款');
  });
});
