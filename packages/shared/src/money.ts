/**
 * Money is an integer of TWD everywhere. This is the one place it becomes text: `NT$1,280`, with
 * no decimals. (Intl's zh-TW TWD currency style prints `$` and two decimals, so the symbol and
 * digits are set here on purpose.)
 */
const grouping = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0, minimumFractionDigits: 0 });

export function formatTwd(amount: number): string {
  if (!Number.isInteger(amount)) throw new RangeError(`money must be an integer of TWD, got ${amount}`);
  const sign = amount < 0 ? '-' : '';
  return `${sign}NT$${grouping.format(Math.abs(amount))}`;
}

/** A price range as shoppers read it: `NT$450` or `NT$450 – NT$1,680`. */
export function formatTwdRange(min: number, max: number): string {
  return min === max ? formatTwd(min) : `${formatTwd(min)} – ${formatTwd(max)}`;
}
