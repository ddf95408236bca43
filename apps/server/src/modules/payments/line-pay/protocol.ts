import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * LINE Pay Online API v3, the parts both the shop's client and the built-in sandbox speak
 * (developers-pay.line.me, "Prerequisites", "Transaction ID", each API's page): the paths, the HMAC
 * signature of each call, JSON whose 19-digit transaction ids stay exact, and the return codes the
 * shop acts on. Facts and sources: docs/decisions/045-line-pay.md.
 */

export const REQUEST_PATH = '/v3/payments/request';
export const confirmPath = (transactionId: string) => `/v3/payments/${transactionId}/confirm`;
export const refundPath = (transactionId: string) => `/v3/payments/${transactionId}/refund`;
export const checkPath = (transactionId: string) => `/v3/payments/requests/${transactionId}/check`;

/** LINE's transaction ids: 19 digits today, more than a JavaScript number holds exactly. */
export const TRANSACTION_ID = /^\d{1,20}$/;

/**
 * X-LINE-Authorization: Base64(HMAC-SHA256(key = channel secret, message = channel secret + API
 * path + (POST: the request body as sent; GET: the query string without "?") + nonce)).
 */
export function linePaySignature(
  channelSecret: string,
  apiPath: string,
  bodyOrQuery: string,
  nonce: string,
): string {
  return createHmac('sha256', channelSecret)
    .update(channelSecret + apiPath + bodyOrQuery + nonce)
    .digest('base64');
}

/** The three credential headers of one call. */
export function signedHeaders(
  channel: { channelId: string; channelSecret: string },
  apiPath: string,
  bodyOrQuery: string,
  nonce: string,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-line-channelid': channel.channelId,
    'x-line-authorization-nonce': nonce,
    'x-line-authorization': linePaySignature(channel.channelSecret, apiPath, bodyOrQuery, nonce),
  };
}

/** Constant-time check of a received signature. */
export function signatureMatches(expected: string, received: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(received);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * JSON.parse, with every integer too long for a number (16 digits or more: LINE's transactionId and
 * refundTransactionId) read as its digits in a string. One pass over the text that skips strings,
 * so digits inside a string are never touched.
 */
export function parseLinePayJson(text: string): unknown {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if ((c >= '0' && c <= '9') || c === '-') {
      let j = i + 1;
      while (j < text.length && /[0-9.eE+-]/.test(text[j]!)) j++;
      const token = text.slice(i, j);
      if (/^-?\d{16,}$/.test(token)) {
        out += `${text.slice(from, i)}"${token}"`;
        from = j;
      }
      i = j - 1;
    }
  }
  return JSON.parse(out + text.slice(from)) as unknown;
}

/**
 * JSON as LINE writes it: the named ids, held as digit strings, written as bare numbers. Only for
 * values made of digits (a sandbox's own ids).
 */
export function stringifyWithBareIds(
  value: unknown,
  idKeys: readonly string[] = ['transactionId', 'refundTransactionId'],
): string {
  let text = JSON.stringify(value);
  for (const key of idKeys) text = text.replace(new RegExp(`"${key}":"(\\d+)"`, 'g'), `"${key}":$1`);
  return text;
}

/** An answer of any LINE Pay API: its code, message and info. */
export interface LinePayAnswer {
  readonly returnCode: string;
  readonly returnMessage: string;
  readonly info?: unknown;
}

/**
 * The codes the shop acts on (the API pages' "Return codes" and LINE Pay's error code appendix),
 * with the shopper's and staff's words for them.
 */
export const RETURN_CODES: Readonly<Record<string, string>> = {
  '0000': '成功',
  '0110': '已完成 LINE Pay 認證，等待確認付款',
  '0121': '已取消付款或超過付款時間',
  '0122': '付款失敗',
  '0123': '付款完成',
  '1101': '不是 LINE Pay 會員',
  '1102': '這個 LINE Pay 帳號目前無法交易',
  '1104': '找不到這個 LINE Pay 合作商店',
  '1105': '這個合作商店目前無法使用 LINE Pay',
  '1106': '請求標頭（簽章）錯誤',
  '1110': '這張信用卡無法使用',
  '1124': '金額資料錯誤',
  '1141': '付款帳戶狀態異常',
  '1142': '餘額不足',
  '1145': '付款處理中',
  '1150': '找不到交易紀錄',
  '1152': '這筆交易已經付款',
  '1153': '付款金額與請求的金額不符',
  '1155': '這筆交易無法退款',
  '1159': '找不到付款請求資料',
  '1163': '已超過可退款的期限',
  '1164': '超過可退款的金額',
  '1165': '這筆交易已經退款',
  '1169': '尚未在 LINE Pay 選擇付款方式並完成認證',
  '1170': 'LINE Pay 帳戶餘額有變動',
  '1172': '這個訂單編號已有交易紀錄',
  '1178': '商店不支援這個幣別',
  '1179': '目前無法處理這筆交易',
  '1180': '付款期限已過',
  '1183': '付款金額必須大於 0',
  '1184': '付款金額超過請求的金額',
  '1198': '請求重複或正在處理中',
  '1199': 'LINE Pay 內部錯誤',
  '1280': '信用卡付款暫時發生錯誤',
  '1281': '信用卡付款錯誤',
  '1282': '信用卡授權錯誤',
  '2101': '參數錯誤',
  '2102': 'JSON 資料格式錯誤',
  '9000': 'LINE Pay 內部錯誤',
};

/** 「餘額不足（1142）」: the code's words with the code, or LINE's own message for a code not listed. */
export function describeReturn(answer: Pick<LinePayAnswer, 'returnCode' | 'returnMessage'>): string {
  const words = RETURN_CODES[answer.returnCode] ?? (answer.returnMessage || 'LINE Pay 沒有說明原因');
  return `${words}（${answer.returnCode}）`;
}
