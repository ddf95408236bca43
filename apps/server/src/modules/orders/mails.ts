import { atmDeadline, bankLabel, groupDigits } from '@shop/shared/atm';
import { carrierTracking } from '@shop/shared/carrier-tracking';
import { formatTwd } from '@shop/shared/money';
import { PAYMENT_METHOD_LABELS, type PaymentMethod } from '@shop/shared/order-status';
import { SHIPPING_METHOD_LABELS, type ShippingMethod } from '@shop/shared/shipping';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';
import {
  BARCODE_STORES,
  CVS_CODE_KIOSKS,
  installmentWords,
  storeDeadline,
} from '@shop/shared/store-payments';
import type { StoreCode } from '../../db/schema.ts';
import { renderMail } from '../../lib/mail-layout.ts';
import type { MailMessage } from '../../plugins/mail.ts';

export interface MailOrder {
  orderNo: string;
  email: string;
  name: string;
  total: number;
  paymentMethod: PaymentMethod;
  /** Card instalments (分期期數); null or absent when paid at once. */
  installments?: number | null;
  items: Array<{ productName: string; variantLabel: string; quantity: number; lineTotal?: number }>;
  /** What the order mail lists beside the items: the amounts as the order was priced, and where it goes. */
  summary?: {
    subtotal: number;
    discounts: ReadonlyArray<{ label: string; amount: number }>;
    /** Shipping, with the cash-on-delivery fee when there is one. */
    shippingFee: number;
    destination: string;
  };
  /** Money was taken for it (a cancelled paid order is refunded). */
  paid?: boolean;
  /** Store pickup: the store's name (cash on delivery is paid at its counter), else absent. */
  pickupStore?: string | null;
}

const items = (o: MailOrder) => o.items.map((i) => `${i.productName}（${i.variantLabel}）× ${i.quantity}`);
export const orderUrl = (publicUrl: string, orderNo: string) =>
  `${publicUrl}/member/orderList/${encodeURIComponent(orderNo)}`;
const trackingUrl = (publicUrl: string, orderNo: string) =>
  `${publicUrl}/member/orderTracking/${encodeURIComponent(orderNo)}`;

/** One mail to the member about their order: greeting, the words, and one button to the order (the invoice mails too). */
export function memberMail(
  o: Pick<MailOrder, 'orderNo' | 'email' | 'name'>,
  kind: string,
  title: string,
  paragraphs: string[],
  action: { label: string; url: string },
): MailMessage {
  return {
    to: o.email,
    ...renderMail({ title: `${title}：${o.orderNo}`, greeting: `${o.name} 您好：`, paragraphs, action }),
    meta: { link: action.url, kind },
  };
}

export function orderPlacedMail(o: MailOrder, publicUrl: string): MailMessage {
  const next =
    o.paymentMethod === 'cod'
      ? o.pickupStore
        ? `我們會盡快為您備貨出貨；商品到達「${o.pickupStore}」後會寄信通知您，請在門市櫃台付款 ${formatTwd(o.total)} 取貨（取貨付款）。`
        : '我們會盡快為您備貨出貨，商品送達時請準備現金付款。'
      : o.paymentMethod === 'atm'
        ? '請於 30 分鐘內取得 ATM 虛擬帳號，逾時訂單會自動取消；還沒取得的話，可以在訂單頁按「前往付款」。取得後請依通知信轉帳，入帳後我們會為您出貨。'
        : o.paymentMethod === 'cvs_code' || o.paymentMethod === 'cvs_barcode'
          ? `請於 30 分鐘內取得超商繳費${o.paymentMethod === 'cvs_code' ? '代碼' : '條碼'}，逾時訂單會自動取消；還沒取得的話，可以在訂單頁按「前往付款」。取得後請依通知信在期限內到超商繳費，收到款項後我們會為您出貨。`
          : o.installments
            ? `請於 30 分鐘內完成信用卡分期付款（${installmentWords(o.total, o.installments)}），逾時訂單會自動取消。`
            : '請於 30 分鐘內完成信用卡付款，逾時訂單會自動取消。';
  return memberMail(
    o,
    'order-placed',
    '訂單已成立',
    [
      `感謝您的訂購！訂單編號 ${o.orderNo}，金額 ${formatTwd(o.total)}，付款方式：${paymentWords(o)}。`,
      next,
      ...(o.summary
        ? [
            [
              '購買內容：',
              ...o.items.map(
                (i) =>
                  `${i.productName}（${i.variantLabel}）× ${i.quantity}${i.lineTotal !== undefined ? `\u3000${formatTwd(i.lineTotal)}` : ''}`,
              ),
            ].join('\n'),
            [
              `商品小計：${formatTwd(o.summary.subtotal)}`,
              ...o.summary.discounts.map((d) => `${d.label}：−${formatTwd(d.amount)}`),
              `${o.paymentMethod === 'cod' ? '運費與貨到付款手續費' : '運費'}：${formatTwd(o.summary.shippingFee)}`,
              `應付總額：${formatTwd(o.total)}`,
            ].join('\n'),
            `收件資訊：\n${o.summary.destination}`,
          ]
        : [`購買內容：${items(o).join('、')}`]),
    ],
    {
      label: '查看訂單',
      url: orderUrl(publicUrl, o.orderNo),
    },
  );
}

/** Where an order goes, as its mail says it: the recipient, then the address or the pickup store. */
export function destinationWords(s: {
  method: ShippingMethod;
  recipientName: string;
  phone: string;
  postalCode?: string;
  city?: string;
  district?: string;
  address?: string;
  store?: string | null;
  storeAddress?: string;
}): string {
  const where =
    s.method === 'cvs'
      ? `${s.store ?? ''}${s.storeAddress ? `（${s.storeAddress}）` : ''}`
      : `${s.postalCode ? `${s.postalCode} ` : ''}${s.city ?? ''}${s.district ?? ''}${s.address ?? ''}`;
  return `${s.recipientName}\u3000${s.phone}\n${SHIPPING_METHOD_LABELS[s.method]}：${where}`;
}

export function orderPaidMail(o: MailOrder, publicUrl: string): MailMessage {
  return memberMail(
    o,
    'order-paid',
    '付款完成',
    [
      `我們已收到訂單 ${o.orderNo} 的款項 ${formatTwd(o.total)}，謝謝您。`,
      '茶師會在 1–3 個工作天內為您備貨出貨，出貨時會再寄信通知。',
    ],
    {
      label: '查看訂單',
      url: orderUrl(publicUrl, o.orderNo),
    },
  );
}

/** The gateway's reason, when it gave one, is one clause of a sentence that ends in 。 (without its own 「付款未成功：」). */
export function paymentFailedMail(o: MailOrder, reason: string | null, publicUrl: string): MailMessage {
  const why = (reason ?? '')
    .trim()
    .replace(/^付款未成功[：:]?/, '')
    .replace(/[。.!！]+$/, '');
  return memberMail(
    o,
    'payment-failed',
    '付款未完成',
    [
      `訂單 ${o.orderNo} 的付款沒有成功${why ? `：${why}` : ''}。`,
      '商品仍為您保留到付款期限為止；請{action}打開訂單，按「重新付款」再試一次，或換一張卡片。',
    ],
    { label: '重新付款', url: orderUrl(publicUrl, o.orderNo) },
  );
}

/** What the buyer reads about their cart when an unpaid order ended (docs/product-rules.md). */
export interface MailCartReturn {
  readonly note: string;
  readonly inCart: boolean;
}

const cartParagraph = (back: MailCartReturn) =>
  `${back.note}${back.inCart ? '想購買的話，可以直接從購物車結帳。' : ''}`;

export function orderExpiredMail(
  o: MailOrder,
  publicUrl: string,
  back: MailCartReturn | null = null,
): MailMessage {
  return memberMail(
    o,
    'order-expired',
    '訂單已逾期取消',
    [
      `訂單 ${o.orderNo} 在付款期限內沒有收到款項，已自動取消。`,
      back ? cartParagraph(back) : '如果還想購買，歡迎重新下單。',
      '若您其實已經付款，請與客服聯絡，我們會為您確認。',
    ],
    { label: '查看訂單', url: orderUrl(publicUrl, o.orderNo) },
  );
}

/** Cancelled by the member, by staff (with their reason) or, for cash on delivery, before it shipped. */
export function orderCancelledMail(
  o: MailOrder,
  by: 'member' | 'staff',
  note: string | null,
  publicUrl: string,
  back: MailCartReturn | null = null,
): MailMessage {
  const why =
    by === 'member'
      ? `您已取消訂單 ${o.orderNo}。`
      : `訂單 ${o.orderNo} 已由山嵐茶事取消${note ? `，原因是${note.replace(/[。.]$/, '')}。` : '。'}`;
  const money =
    o.paid && o.paymentMethod === 'atm'
      ? `已付的 ${formatTwd(o.total)} 會以轉帳退還：請{action}打開訂單，填寫您的退款帳戶，轉帳完成後會另外寄信通知。`
      : o.paid
        ? `已付的 ${formatTwd(o.total)} 會退還給您，退款進度會另外寄信通知。`
        : o.paymentMethod === 'cod'
          ? '這筆訂單是貨到付款，您不需要支付任何費用。'
          : '這筆訂單尚未付款，不會向您收取任何費用。';
  return memberMail(
    o,
    'order-cancelled',
    '訂單已取消',
    [why, money, ...(back ? [cartParagraph(back)] : []), '如有任何疑問，歡迎與客服聯絡。'],
    { label: '查看訂單', url: orderUrl(publicUrl, o.orderNo) },
  );
}

/** An ATM or cash-on-delivery order refunded: the money goes back by transfer, to the account the member gives on the order page. */
export function refundByTransferMail(o: MailOrder, publicUrl: string): MailMessage {
  return memberMail(
    o,
    'refund-transfer',
    '訂單退款處理中',
    [
      `訂單 ${o.orderNo} 已辦理退款，款項會以銀行轉帳退還給您。`,
      '如果還沒提供退款帳戶，請{action}打開訂單填寫；轉帳完成後會再寄信通知您。',
    ],
    { label: '填寫退款帳戶', url: orderUrl(publicUrl, o.orderNo) },
  );
}

export function orderRefundedMail(o: MailOrder, amount: number, publicUrl: string): MailMessage {
  const how =
    o.paymentMethod === 'credit_card'
      ? '信用卡退款會退回原付款卡片，依發卡銀行作業，約 7–14 個工作天後可在帳單上看到。'
      : o.paymentMethod === 'line_pay'
        ? '款項會退回您付款時使用的 LINE Pay 帳戶或卡片，入帳時間依 LINE Pay 與發卡銀行作業而定。'
        : '款項已轉入您提供的銀行帳戶，實際入帳時間依各銀行作業而定。';
  return memberMail(
    o,
    'order-refunded',
    '退款已辦理',
    [`訂單 ${o.orderNo} 的退款 ${formatTwd(amount)} 已辦理完成。`, how],
    { label: '查看訂單', url: orderUrl(publicUrl, o.orderNo) },
  );
}

export function orderDeliveredMail(o: MailOrder, publicUrl: string): MailMessage {
  return memberMail(
    o,
    'order-delivered',
    '商品已送達',
    [
      `訂單 ${o.orderNo} 已送達，希望這些茶陪您度過好時光。`,
      '商品如有任何問題，請於收到後 7 天內與我們聯絡。',
    ],
    {
      label: '查看訂單',
      url: orderUrl(publicUrl, o.orderNo),
    },
  );
}

export function atmInfoMail(
  o: MailOrder,
  atm: { bankCode: string; account: string; expireDate: string },
  publicUrl: string,
): MailMessage {
  return memberMail(
    o,
    'atm-info',
    'ATM 轉帳資訊',
    [
      `請於 ${atmDeadline(atm.expireDate)} 前轉帳 ${formatTwd(o.total)} 至以下虛擬帳號，入帳後訂單即完成付款。`,
      `銀行代碼：${bankLabel(atm.bankCode)}`,
      `虛擬帳號：${groupDigits(atm.account)}`,
      '每筆訂單的虛擬帳號都不同，請勿重複使用。',
    ],
    { label: '查看訂單', url: orderUrl(publicUrl, o.orderNo) },
  );
}

/**
 * A CVS code or barcodes issued: where to pay, how much and until when. A barcode mail gives the
 * three numbers and sends the buyer to the order page, where they are drawn to be scanned (mail
 * programs do not reliably show pictures).
 */
export function storeCodeMail(o: MailOrder, store: StoreCode, publicUrl: string): MailMessage {
  const deadline = storeDeadline(store.expireDate);
  const lines = store.barcodes
    ? [
        `請於 ${deadline} 前，到 ${BARCODE_STORES.join('、')}的櫃檯出示繳費條碼，繳費 ${formatTwd(o.total)}。`,
        '條碼請在訂單頁打開給店員掃描（也可以列印出來）。三段條碼的號碼：',
        store.barcodes.map((b, i) => `第 ${i + 1} 段：${b}`).join('\n'),
      ]
    : [
        `請於 ${deadline} 前，到超商的多媒體機（${CVS_CODE_KIOSKS.join('、')}）輸入以下繳費代碼，列印繳費單後到櫃檯繳費 ${formatTwd(o.total)}。`,
        `繳費代碼：${store.paymentNo ?? ''}`,
      ];
  return memberMail(
    o,
    'store-code',
    store.barcodes ? '超商條碼繳費資訊' : '超商代碼繳費資訊',
    [...lines, '逾期未繳費，訂單會自動取消。每筆訂單的代碼都不同，請勿重複繳費。'],
    { label: '查看訂單', url: orderUrl(publicUrl, o.orderNo) },
  );
}

/** 「信用卡（分 6 期，每期 NT$500）」 or the method's label. */
const paymentWords = (o: MailOrder) =>
  o.paymentMethod === 'credit_card' && o.installments
    ? `信用卡（${installmentWords(o.total, o.installments)}）`
    : PAYMENT_METHOD_LABELS[o.paymentMethod];

/**
 * The card reminder, shortly before the hold ends (docs/product-rules.md#reminders): what is held,
 * until when, and the way back to pay. Transactional: no unsubscribe headers.
 */
export function cardPaymentReminderMail(o: MailOrder, deadline: Date, publicUrl: string): MailMessage {
  return memberMail(
    o,
    'card-payment-reminder',
    '信用卡付款即將逾時',
    [
      `您的訂單 ${o.orderNo} 還沒有完成信用卡付款，商品為您保留到 ${formatTaipeiDateTime(deadline)}（台灣時間）。`,
      `訂購內容：\n${items(o).join('\n')}\n應付金額：${formatTwd(o.total)}`,
      '請在期限前{action}打開訂單，按「前往付款」完成付款。逾時訂單會自動取消，商品會放回您的購物車。',
      '如果您剛剛已經付款成功，請忽略這封信。',
    ],
    { label: '前往付款', url: orderUrl(publicUrl, o.orderNo) },
  );
}

/** The ATM reminder, a day before the account closes: the account, the amount and the deadline again. */
export function atmTransferReminderMail(
  o: MailOrder,
  atm: { bankCode: string; account: string; expireDate: string },
  publicUrl: string,
): MailMessage {
  return memberMail(
    o,
    'atm-transfer-reminder',
    'ATM 轉帳期限將至',
    [
      `訂單 ${o.orderNo} 還沒有收到您的轉帳。請於 ${atmDeadline(atm.expireDate)} 前轉帳，逾期訂單會自動取消。`,
      `銀行代碼：${bankLabel(atm.bankCode)}\n虛擬帳號：${groupDigits(atm.account)}\n轉帳金額：${formatTwd(o.total)}\n轉帳期限：${atmDeadline(atm.expireDate)}`,
      '請轉入剛好的金額；每筆訂單的虛擬帳號都不同，請勿重複使用。',
      '如果您已經轉帳，請忽略這封信，入帳後我們會再寄信通知您。',
    ],
    { label: '查看訂單', url: orderUrl(publicUrl, o.orderNo) },
  );
}

export function orderShippedMail(
  o: MailOrder,
  shipment: { carrier: string | null; trackingNo: string | null },
  publicUrl: string,
): MailMessage {
  // The carrier's own page for the parcel (the same table as the order pages).
  const tracking = carrierTracking(shipment.carrier, shipment.trackingNo);
  return memberMail(
    o,
    'order-shipped',
    '訂單已出貨',
    [
      `您的訂單 ${o.orderNo} 已經出貨。`,
      shipment.carrier || shipment.trackingNo
        ? `物流：${shipment.carrier ?? '—'}，追蹤編號：${shipment.trackingNo ?? '—'}`
        : '您可以在會員中心追蹤配送進度。',
      ...(tracking
        ? [
            tracking.opensParcel
              ? `在物流業者網站查詢這件包裹：${tracking.url}`
              : `到物流業者網站輸入追蹤編號查詢：${tracking.url}`,
          ]
        : []),
    ],
    { label: '追蹤配送進度', url: trackingUrl(publicUrl, o.orderNo) },
  );
}

export function parcelAtStoreMail(
  o: MailOrder,
  store: { label: string; address: string },
  deadline: string,
  publicUrl: string,
): MailMessage {
  return memberMail(
    o,
    'parcel-at-store',
    '包裹已到店',
    [
      `您的訂單 ${o.orderNo} 已送達 ${store.label}（${store.address}）。`,
      `請於 ${deadline}前攜帶證件到門市取貨${o.paymentMethod === 'cod' ? `，並於取貨時付款 ${formatTwd(o.total)}` : ''}；逾期未取，包裹會退回山嵐茶事。`,
    ],
    { label: '查看取貨資訊', url: trackingUrl(publicUrl, o.orderNo) },
  );
}

/** A parcel on its way back: not collected at the store, or (home delivery) not delivered (refused, not collected at the carrier's office). */
export function parcelReturnedMail(o: MailOrder, publicUrl: string, home = false): MailMessage {
  return memberMail(
    o,
    'parcel-returned',
    home ? '包裹未能送達' : '包裹未取件',
    [
      home
        ? `您的訂單 ${o.orderNo} 的宅配包裹未能送達，將退回山嵐茶事。`
        : `您的訂單 ${o.orderNo} 的包裹在取貨期限內沒有取件，已退回山嵐茶事。`,
      o.paymentMethod === 'cod'
        ? '這筆訂單是取貨付款，您沒有被收取任何費用。'
        : '我們會與您聯絡，確認要重新寄送或辦理退款。',
      '如果想重新寄送，請與客服聯絡。',
    ],
    { label: '查看訂單', url: trackingUrl(publicUrl, o.orderNo) },
  );
}

export function storeClosedMail(o: MailOrder, store: string, publicUrl: string): MailMessage {
  return memberMail(
    o,
    'store-closed',
    '請重新選擇取件門市',
    [
      `您訂單 ${o.orderNo} 的取件門市（${store}）已關轉，包裹無法送達。`,
      '請{action}打開訂單，從門市地圖選擇同一家超商的另一間門市，我們會把包裹改送到新門市。',
    ],
    { label: '選擇新門市', url: trackingUrl(publicUrl, o.orderNo) },
  );
}

/** To the shop: an order to fulfil (paid, or placed with cash on delivery). */
export function newOrderMail(
  o: MailOrder & { shippingMethod: ShippingMethod; note: string },
  to: string,
  publicUrl: string,
): MailMessage {
  const url = `${publicUrl}/admin/orders/${encodeURIComponent(o.orderNo)}`;
  return {
    to,
    ...renderMail({
      title: `新訂單 ${o.orderNo}：${formatTwd(o.total)}`,
      paragraphs: [
        `${o.name}（${o.email}）下了一筆訂單，${PAYMENT_METHOD_LABELS[o.paymentMethod]}，${SHIPPING_METHOD_LABELS[o.shippingMethod]}。`,
        `內容：${items(o).join('、')}`,
        ...(o.note ? [`買家備註：${o.note}`] : []),
      ],
      action: { label: '到後台處理訂單', url },
    }),
    meta: { link: url, kind: 'shop-new-order' },
  };
}
