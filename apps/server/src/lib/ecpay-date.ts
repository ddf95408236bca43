import { formatTaipeiDateTime } from '@shop/shared/taipei-time';

/** yyyy/MM/dd HH:mm:ss in Taiwan time, as ECPay writes dates (MerchantTradeDate, UpdateStatusDate…). */
export function ecpayDate(date: Date): string {
  return formatTaipeiDateTime(date, { seconds: true });
}
