import { ecpayDate } from '../../../lib/ecpay-date.ts';
import type { OnlinePaymentMethod } from '@shop/shared/payment-methods';
import { checkMacValue } from '../../../lib/ecpay-check-mac.ts';

export interface EcpaySettings {
  readonly merchantId: string;
  readonly hashKey: string;
  readonly hashIV: string;
}

export interface AioRequest {
  readonly merchantTradeNo: string;
  readonly amount: number;
  readonly tradeDate: Date;
  /** Item names; ECPay shows them joined by `#`. */
  readonly itemNames: readonly string[];
  readonly method: EcpayMethod;
  readonly returnUrl: string;
  readonly orderResultUrl: string;
  readonly clientBackUrl: string;
  /** ATM only: where ECPay posts the virtual account (server) and sends the browser. */
  readonly paymentInfoUrl?: string;
  readonly clientRedirectUrl?: string;
  readonly atmExpireDays?: number;
  /** CVS code: StoreExpireDate in minutes (ECPay: 1–43,200). */
  readonly cvsExpireMinutes?: number;
  /** BARCODE: StoreExpireDate in days (ECPay: 1–30). */
  readonly barcodeExpireDays?: number;
  /** Card: the one instalment term the shopper picked (CreditInstallment); absent to pay at once. */
  readonly installments?: number | null;
}

/** The methods paid through ECPay's all-in-one cashier (LINE Pay has its own API). */
export type EcpayMethod = Exclude<OnlinePaymentMethod, 'line_pay'>;

const CHOOSE_PAYMENT: Readonly<Record<EcpayMethod, string>> = {
  credit_card: 'Credit',
  atm: 'ATM',
  cvs_code: 'CVS',
  cvs_barcode: 'BARCODE',
};

export { ecpayDate };

/** ECPay allows 400 characters of item names; characters it reserves are replaced. */
export function itemNameField(names: readonly string[]): string {
  const joined = names.map((n) => n.replace(/[#&=<>'"]/g, ' ').trim()).join('#');
  return joined.length > 200 ? `${joined.slice(0, 197)}…` : joined;
}

/** The signed AIO form (EncryptType=1, SHA256 CheckMacValue) for the browser to post. */
export function buildAioFields(settings: EcpaySettings, request: AioRequest): Record<string, string> {
  const fields: Record<string, string> = {
    MerchantID: settings.merchantId,
    MerchantTradeNo: request.merchantTradeNo,
    MerchantTradeDate: ecpayDate(request.tradeDate),
    PaymentType: 'aio',
    TotalAmount: String(request.amount),
    TradeDesc: '山嵐茶事線上訂單',
    ItemName: itemNameField(request.itemNames),
    ReturnURL: request.returnUrl,
    ChoosePayment: CHOOSE_PAYMENT[request.method],
    EncryptType: '1',
    OrderResultURL: request.orderResultUrl,
    ClientBackURL: request.clientBackUrl,
    // Y: the paid notice carries the card's authorisation number (gwsr), which a refund's trade query needs.
    NeedExtraPaidInfo: 'Y',
  };
  if (request.method === 'atm') fields.ExpireDate = String(request.atmExpireDays ?? 3);
  // StoreExpireDate counts minutes for a code and days for a barcode (ECPay's CVS and BARCODE pages).
  if (request.method === 'cvs_code') fields.StoreExpireDate = String(request.cvsExpireMinutes ?? 10_080);
  if (request.method === 'cvs_barcode') fields.StoreExpireDate = String(request.barcodeExpireDays ?? 7);
  if (request.method !== 'credit_card') {
    // The code, barcodes or account come to PaymentInfoURL (server) and ClientRedirectURL (browser).
    if (request.paymentInfoUrl) fields.PaymentInfoURL = request.paymentInfoUrl;
    if (request.clientRedirectUrl) fields.ClientRedirectURL = request.clientRedirectUrl;
  }
  if (request.method === 'credit_card' && request.installments)
    fields.CreditInstallment = String(request.installments);
  fields.CheckMacValue = checkMacValue(fields, settings.hashKey, settings.hashIV);
  return fields;
}
