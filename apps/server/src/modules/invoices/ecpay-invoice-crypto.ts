import { createCipheriv, createDecipheriv } from 'node:crypto';

/**
 * The e-invoice API's own URL encoding and its AES-128-CBC envelope data (ecpay-invoice-protocol.ts
 * says how a call is made of them).
 */

const UNRESERVED = /^[A-Za-z0-9\-_.]$/;

/**
 * The urlencode applied to the JSON before encryption. ECPay's official PHP SDK uses PHP's
 * urlencode(): letters, digits and - _ . stay, a space becomes +, every other character becomes %XX
 * (upper-case hex) per UTF-8 byte. It reproduces both of ECPay's published ciphertexts byte for byte.
 * ECPay's server is .NET and decodes any percent-encoding, so this is also what it accepts.
 */
export function einvoiceUrlEncode(text: string): string {
  let out = '';
  for (const char of text) {
    if (char === ' ') out += '+';
    else if (UNRESERVED.test(char)) out += char;
    else
      for (const byte of Buffer.from(char, 'utf8'))
        out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * The reverse, as PHP's urldecode() and .NET's UrlDecode read it: + is a space, %XX (either case) a
 * byte, anything else itself; the bytes must be UTF-8. Throws on a broken % sequence or bad UTF-8,
 * so a reply that does not decode is refused rather than half read.
 */
export function einvoiceUrlDecode(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '+') bytes.push(0x20);
    else if (c === '%') {
      const hex = text.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw new Error('bad percent-encoding');
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      for (const byte of Buffer.from(c, 'utf8')) bytes.push(byte);
    }
  }
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
}

/** A reply or request whose Data cannot be trusted or read: wrong key, broken base64, bad padding, not JSON. */
export class EinvoiceDataError extends Error {
  override readonly name = 'EinvoiceDataError';
}

function keyBytes(value: string, what: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  // AES-128 needs exactly 16 bytes; PHP would silently cut a longer key, which hides a misconfiguration.
  if (bytes.length !== 16) throw new Error(`ECPay ${what} must be 16 bytes, got ${bytes.length}`);
  return bytes;
}

/** base64(AES-128-CBC(text)) with PKCS7 padding: the last step of Data, for text already URL-encoded. */
export function encryptText(text: string, hashKey: string, hashIV: string): string {
  const cipher = createCipheriv('aes-128-cbc', keyBytes(hashKey, 'HashKey'), keyBytes(hashIV, 'HashIV'));
  return Buffer.concat([cipher.update(Buffer.from(text, 'utf8')), cipher.final()]).toString('base64');
}

/** Data for a request or reply: base64(AES-128-CBC(urlencode(JSON.stringify(payload)))), PKCS7 padding. */
export function encryptData(payload: unknown, hashKey: string, hashIV: string): string {
  return encryptText(einvoiceUrlEncode(JSON.stringify(payload)), hashKey, hashIV);
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Data opened: base64 → AES-128-CBC → urldecode → JSON. Throws EinvoiceDataError when any step fails. */
export function decryptData(data: string, hashKey: string, hashIV: string): unknown {
  const key = keyBytes(hashKey, 'HashKey');
  const iv = keyBytes(hashIV, 'HashIV');
  // Buffer.from(…, 'base64') skips what it cannot read; a strict check keeps a mangled Data from half-decrypting.
  if (data.length === 0 || !BASE64.test(data)) throw new EinvoiceDataError('Data is not base64');
  const sealed = Buffer.from(data, 'base64');
  if (sealed.length % 16 !== 0) throw new EinvoiceDataError('Data is not a whole number of AES blocks');
  let text: string;
  try {
    const decipher = createDecipheriv('aes-128-cbc', key, iv);
    text = Buffer.concat([decipher.update(sealed), decipher.final()]).toString('latin1');
  } catch {
    throw new EinvoiceDataError('Data does not decrypt with this HashKey/HashIV');
  }
  // The plaintext is URL-encoded and therefore ASCII; anything else means the wrong key got lucky with the padding.
  if (!/^[\x20-\x7e]*$/.test(text))
    throw new EinvoiceDataError('Data does not decrypt with this HashKey/HashIV');
  try {
    return JSON.parse(einvoiceUrlDecode(text));
  } catch {
    throw new EinvoiceDataError('Data does not hold URL-encoded JSON');
  }
}
