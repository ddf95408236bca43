/**
 * Money is an integer of TWD everywhere. This is the one place it becomes text: `NT$1,280`, with
 * no decimals. (Intl's zh-TW TWD currency style prints `$` and two decimals, so the symbol and
 * digits are set here on purpose.)
 */

/** 1234567 -> 1,234,567, for a whole number of 0 or more. Not Intl.NumberFormat or toLocaleString: a
 * page's first Intl formatter loads the browser's ICU data, a long task on a phone
 * (docs/decisions/026). */
export const groupDigits = (n: number): string =>
  (n < 1e21 ? String(n) : BigInt(n).toString()).replace(/\B(?=(\d{3})+$)/g, ',');

export function formatTwd(amount: number): string {
  if (!Number.isInteger(amount)) throw new RangeError(`money must be an integer of TWD, got ${amount}`);
  const sign = amount < 0 ? '-' : '';
  return `${sign}NT$${groupDigits(Math.abs(amount))}`;
}

/** A price range as shoppers read it: `NT$450` or `NT$450 – NT$1,680`. */
export function formatTwdRange(min: number, max: number): string {
  return min === max ? formatTwd(min) : `${formatTwd(min)} – ${formatTwd(max)}`;
}
