/**
 * How an ATM virtual account is shown to the buyer, the same on the order page, /payComplete and
 * in the mail: the bank by code and name, the account in groups of four digits, and the deadline
 * with its time.
 */
export { bankLabel } from './data/tw-banks.ts';

/** 9103522175887271 as it is read and typed: 9103 5221 7588 7271. */
export const groupDigits = (account: string): string => account.replace(/(\d{4})(?=\d)/g, '$1 ');

/**
 * ECPay's ExpireDate is a Taiwan date (yyyy/MM/dd): the account takes transfers until the end of
 * that day, which the buyer reads as 「2026/11/26 23:59」 (docs/product-rules.md).
 */
export const atmDeadline = (expireDate: string): string =>
  `${expireDate.slice(0, 10).replaceAll('-', '/')} 23:59`;
