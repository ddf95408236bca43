import { ecpayDate } from '../../../lib/ecpay-date.ts';
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
  readonly method: 'credit_card' | 'atm';
  readonly returnUrl: string;
  readonly orderResultUrl: string;
  readonly clientBackUrl: string;
  /** ATM only: where ECPay posts the virtual account (server) and sends the browser. */
  readonly paymentInfoUrl?: string;
  readonly clientRedirectUrl?: string;
  readonly atmExpireDays?: number;
}

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
    ChoosePayment: request.method === 'credit_card' ? 'Credit' : 'ATM',
    EncryptType: '1',
    OrderResultURL: request.orderResultUrl,
    ClientBackURL: request.clientBackUrl,
    // Y: the paid notice carries the card's authorisation number (gwsr), which a refund's trade query needs.
    NeedExtraPaidInfo: 'Y',
  };
  if (request.method === 'atm') {
    fields.ExpireDate = String(request.atmExpireDays ?? 3);
    if (request.paymentInfoUrl) fields.PaymentInfoURL = request.paymentInfoUrl;
    if (request.clientRedirectUrl) fields.ClientRedirectURL = request.clientRedirectUrl;
  }
  fields.CheckMacValue = checkMacValue(fields, settings.hashKey, settings.hashIV);
  return fields;
}
