import { BadRequestError } from './errors.ts';

/**
 * PostgreSQL text cannot hold U+0000, so a NUL that reached a statement failed it (500). No form,
 * address or gateway field has a use for one: requests that carry one are refused up front.
 */
export const nulRefused = () => new BadRequestError('送出的內容含有無法使用的字元，請刪除後再試。');

const NUL_ESCAPE = '\\u0000';

/** True when a JSON text escapes a NUL (`\u0000` whose backslash is not itself escaped). */
export function jsonEscapesNul(text: string): boolean {
  for (let at = text.indexOf(NUL_ESCAPE); at !== -1; at = text.indexOf(NUL_ESCAPE, at + 1)) {
    let backslashes = 0;
    for (let i = at - 1; i >= 0 && text.charCodeAt(i) === 0x5c; i--) backslashes++;
    if (backslashes % 2 === 0) return true;
  }
  return false;
}

/** True when an address (path and query, as sent) carries a NUL, percent-encoded or raw. */
export function urlCarriesNul(url: string): boolean {
  return url.includes('\0') || /%00/i.test(url);
}

/** True when any key or value of a parsed form holds a NUL. */
export function formCarriesNul(fields: Record<string, string>): boolean {
  return Object.entries(fields).some(([key, value]) => key.includes('\0') || value.includes('\0'));
}
