import type { PaymentForm } from '@shop/shared/orders';
import type { OnlinePaymentMethod } from '@shop/shared/payment-methods';
import type { StorePaymentSettings } from '@shop/shared/store-payments';
import { buildAioFields, type EcpaySettings } from './ecpay/aio.ts';

export interface GatewaySettings extends EcpaySettings {
  /** ECPay's cashier; null means the built-in sandbox gateway. */
  readonly endpoint: string | undefined;
  readonly publicUrl: string;
}

export const SANDBOX_PATH = '/sandbox/ecpay/aio';

/** Where the browser posts to leave for LINE Pay: the shop requests the payment, then redirects. */
export const LINE_PAY_START_PATH = '/api/payments/linepay/start';

/** The signed form the browser posts to pay one attempt of an order. */
export function paymentForm(
  settings: GatewaySettings,
  attempt: {
    merchantTradeNo: string;
    amount: number;
    method: OnlinePaymentMethod;
    createdAt: Date;
    installments?: number | null;
  },
  order: { orderNo: string; itemNames: string[] },
  store: Pick<StorePaymentSettings, 'cvsCode' | 'cvsBarcode'>,
): PaymentForm {
  const base = settings.publicUrl;
  // LINE Pay's page address comes from its Request API, made when the member leaves (startLinePay).
  if (attempt.method === 'line_pay')
    return { action: `${base}${LINE_PAY_START_PATH}`, fields: { order: order.orderNo } };
  const method = attempt.method;
  const fields = buildAioFields(settings, {
    merchantTradeNo: attempt.merchantTradeNo,
    amount: attempt.amount,
    tradeDate: attempt.createdAt,
    itemNames: order.itemNames,
    method,
    returnUrl: `${base}/api/payments/ecpay/notify`,
    orderResultUrl: `${base}/api/payments/ecpay/result`,
    clientBackUrl: `${base}/payComplete?order=${encodeURIComponent(order.orderNo)}`,
    paymentInfoUrl: `${base}/api/payments/ecpay/payment-info`,
    clientRedirectUrl: `${base}/api/payments/ecpay/result`,
    cvsExpireMinutes: store.cvsCode.expireMinutes,
    barcodeExpireDays: store.cvsBarcode.expireDays,
    installments: attempt.installments ?? null,
  });
  return { action: settings.endpoint ?? `${base}${SANDBOX_PATH}`, fields };
}
