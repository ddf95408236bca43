import { createHash, timingSafeEqual } from 'node:crypto';

/*
 * ECPay (綠界) CheckMacValue: SHA256 for payments (AIO, EncryptType=1), MD5 for logistics (物流整合;
 * the same steps with another hash: docs/integrations/ecpay-logistics.md, section 2).
 *
 * Algorithm (ECPay 全方位金流 API 技術文件, 附錄 / 檢查碼機制, https://developers.ecpay.com.tw/?p=2902):
 *   1. every parameter except CheckMacValue, sorted by key A–Z (ECPay's SDKs compare keys case-insensitively),
 *      joined as k=v with &;
 *   2. prefixed with HashKey=…& and suffixed with &HashIV=…;
 *   3. URL-encoded the way .NET's HttpUtility.UrlEncode does it (ECPay's 「.NET編碼(ecpay)」 column of its
 *      URLEncode 轉換表): letters, digits and - _ . ! * ( ) stay as they are, a space becomes +, every other
 *      character becomes %xx per UTF-8 byte — including ~ (%7e) and ' (%27);
 *   4. lower-cased;
 *   5. SHA256 (payments) or MD5 (logistics), hex, upper-cased.
 */

const UNRESERVED = /[A-Za-z0-9\-_.!*()]/;

/** .NET HttpUtility.UrlEncode-compatible encoding, as ECPay specifies for CheckMacValue. */
export function ecpayUrlEncode(value: string): string {
  let out = '';
  for (const char of value) {
    if (char === ' ') {
      out += '+';
    } else if (UNRESERVED.test(char)) {
      out += char;
    } else {
      for (const byte of Buffer.from(char, 'utf8')) {
        out += `%${byte.toString(16).padStart(2, '0')}`;
      }
    }
  }
  return out;
}

/** ECPay's key order: case-insensitive A–Z (like PHP strcasecmp); exact ordinal order only breaks ties. */
function compareKeys(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The string that is URL-encoded and hashed (steps 1–2), exposed for tests. */
export function checkMacPlaintext(
  params: Readonly<Record<string, string | number>>,
  hashKey: string,
  hashIV: string,
): string {
  const pairs = Object.keys(params)
    .filter((key) => key !== 'CheckMacValue')
    .sort(compareKeys)
    .map((key) => `${key}=${String(params[key])}`);
  return [`HashKey=${hashKey}`, ...pairs, `HashIV=${hashIV}`].join('&');
}

/** Payments sign with SHA256 (EncryptType=1), logistics with MD5. */
export type CheckMacHash = 'sha256' | 'md5';
const HEX_LENGTH: Record<CheckMacHash, number> = { sha256: 64, md5: 32 };

/** CheckMacValue: params (CheckMacValue itself excluded) sorted by key (ECPay's order: case-insensitive A–Z), joined as `HashKey=…&k=v&…&HashIV=…`, URL-encoded .NET style, lower-cased, hashed, upper-case hex. */
export function checkMacValue(
  params: Readonly<Record<string, string | number>>,
  hashKey: string,
  hashIV: string,
  hash: CheckMacHash = 'sha256',
): string {
  const encoded = ecpayUrlEncode(checkMacPlaintext(params, hashKey, hashIV)).toLowerCase();
  return createHash(hash).update(encoded, 'utf8').digest('hex').toUpperCase();
}

/** True when params.CheckMacValue equals the computed value (constant-time compare; case-insensitive hex). */
export function verifyCheckMacValue(
  params: Readonly<Record<string, string>>,
  hashKey: string,
  hashIV: string,
  hash: CheckMacHash = 'sha256',
): boolean {
  const received = params.CheckMacValue;
  if (
    typeof received !== 'string' ||
    received.length !== HEX_LENGTH[hash] ||
    !/^[0-9A-Fa-f]+$/.test(received)
  )
    return false;
  const expected = Buffer.from(checkMacValue(params, hashKey, hashIV, hash), 'hex');
  return timingSafeEqual(expected, Buffer.from(received, 'hex'));
}
