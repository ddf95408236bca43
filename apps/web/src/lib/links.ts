/**
 * Links that leave the shop for the visitor's own programs. Every value is percent-encoded, so an
 * address or number taken from a customer can never add recipients, headers or a fragment.
 */

/**
 * `mailto:` for one address, with optional subject and body. The address is encoded whole (only
 * its `@` is left readable), so `x?cc=someone@…` stays one odd address instead of a carbon copy.
 * Fields use %20 for spaces, as mail programs expect (not the `+` of form encoding).
 */
export function mailtoHref(address: string, fields: { subject?: string; body?: string } = {}): string {
  const query = Object.entries(fields)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '')
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('&');
  return `mailto:${encodeURIComponent(address).replaceAll('%40', '@')}${query ? `?${query}` : ''}`;
}

/**
 * `tel:` for a number as typed: digits, a leading `+` and `#` (an extension, 02-2345-6789#123)
 * are kept, `#` percent-encoded so it reaches the dialer instead of starting a fragment.
 */
export function telHref(phone: string): string {
  const dialable = phone.replace(/[^0-9+#]/g, '');
  return `tel:${encodeURIComponent(dialable).replaceAll('%2B', '+')}`;
}
