import { randomUUID } from 'node:crypto';
import {
  REQUEST_PATH,
  checkPath,
  confirmPath,
  parseLinePayJson,
  refundPath,
  signedHeaders,
  type LinePayAnswer,
} from './protocol.ts';

/**
 * The shop's calls to LINE Pay's Online API v3: Request, Confirm, Refund and Check Payment Status,
 * each signed with a fresh nonce. An answer is LINE's (code, message, info with exact ids); a call
 * that got no readable answer (network, time-out, not JSON) is `unreachable`: the caller cannot
 * tell whether LINE acted, and asks again (Check Payment Status) before doing anything twice.
 */

export interface LinePayChannel {
  readonly channelId: string;
  readonly channelSecret: string;
  /** https://api-pay.line.me, https://sandbox-api-pay.line.me or the built-in sandbox's base. */
  readonly apiBase: string;
}

export type LinePayResult =
  | { readonly ok: true; readonly answer: LinePayAnswer }
  | { readonly ok: false; readonly unreachable: string };

export interface RequestBody {
  readonly amount: number;
  readonly currency: 'TWD';
  readonly orderId: string;
  readonly packages: ReadonlyArray<{
    readonly id: string;
    readonly amount: number;
    readonly name: string;
    readonly products: ReadonlyArray<{
      readonly name: string;
      readonly quantity: number;
      readonly price: number;
    }>;
  }>;
  readonly redirectUrls: { readonly confirmUrl: string; readonly cancelUrl: string };
  readonly options?: { readonly display?: { readonly locale?: string } };
}

export interface LinePayClient {
  request(body: RequestBody): Promise<LinePayResult>;
  confirm(transactionId: string, amount: number): Promise<LinePayResult>;
  /** Without an amount, LINE refunds what is left of the payment. */
  refund(transactionId: string, refundAmount?: number): Promise<LinePayResult>;
  check(transactionId: string): Promise<LinePayResult>;
  /** Payment Details (GET /v3/payments?transactionId=…): the payment with its refundList. */
  details(transactionId: string): Promise<LinePayResult>;
}

/** LINE asks for read time-outs of at least 10 s (Request), 20 s (Refund, Check) and 40 s (Confirm). */
const TIMEOUTS = { request: 15_000, confirm: 40_000, refund: 20_000, check: 20_000 } as const;

/** GET /v3/payments: LINE Pay's payment details, by transaction. */
export const DETAILS_PATH = '/v3/payments';

export function linePayClient(channel: LinePayChannel, doFetch: typeof fetch): LinePayClient {
  async function call(
    method: 'GET' | 'POST',
    apiPath: string,
    body: unknown,
    timeoutMs: number,
    query = '',
  ): Promise<LinePayResult> {
    // POST signs the body as sent, GET the query string without its "?".
    const text = method === 'POST' ? JSON.stringify(body ?? {}) : query;
    const headers = signedHeaders(channel, apiPath, text, randomUUID());
    try {
      const res = await doFetch(`${channel.apiBase}${apiPath}${query ? `?${query}` : ''}`, {
        method,
        headers,
        ...(method === 'POST' ? { body: text } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const raw = await res.text();
      let parsed: unknown;
      try {
        parsed = parseLinePayJson(raw);
      } catch {
        return { ok: false, unreachable: `HTTP ${res.status}: not JSON` };
      }
      const answer = parsed as Partial<LinePayAnswer> | null;
      if (!answer || typeof answer.returnCode !== 'string')
        return { ok: false, unreachable: `HTTP ${res.status}: no returnCode` };
      return {
        ok: true,
        answer: {
          returnCode: answer.returnCode,
          returnMessage: typeof answer.returnMessage === 'string' ? answer.returnMessage : '',
          ...(answer.info !== undefined ? { info: answer.info } : {}),
        },
      };
    } catch (error) {
      return { ok: false, unreachable: error instanceof Error ? error.message : String(error) };
    }
  }
  return {
    request: (body) => call('POST', REQUEST_PATH, body, TIMEOUTS.request),
    confirm: (transactionId, amount) =>
      call('POST', confirmPath(transactionId), { amount, currency: 'TWD' }, TIMEOUTS.confirm),
    refund: (transactionId, refundAmount) =>
      call(
        'POST',
        refundPath(transactionId),
        refundAmount === undefined ? {} : { refundAmount },
        TIMEOUTS.refund,
      ),
    check: (transactionId) => call('GET', checkPath(transactionId), null, TIMEOUTS.check),
    details: (transactionId) =>
      call('GET', DETAILS_PATH, null, TIMEOUTS.check, new URLSearchParams({ transactionId }).toString()),
  };
}
