import { z } from 'zod';
import {
  EinvoiceInputError,
  type IssueInput,
  buildIssuePayload,
  type InvalidInput,
  buildInvalidPayload,
  type AllowanceInput,
  buildAllowancePayload,
  type OnlineAllowanceInput,
  buildOnlineAllowancePayload,
  type AllowanceInvalidInput,
  buildAllowanceInvalidPayload,
  type GetIssueInput,
  buildGetIssuePayload,
  buildCheckBarcodePayload,
  buildCheckLoveCodePayload,
} from './ecpay-invoice-fields.ts';
import {
  type EinvoiceSettings,
  EINVOICE_PATHS,
  type EinvoiceOperation,
  envelope,
  intField,
  type EinvoiceResult,
  openReply,
} from './ecpay-invoice-protocol.ts';

/**
 * The e-invoice client: one call per operation the shop uses, the replies read into the shop's
 * terms, and the HTTP post it goes through (injected, so tests and the sandbox answer in-process).
 */

export const text = z.union([z.string(), z.number()]).transform(String);

const IssueReply = z.object({
  InvoiceNo: z.string().regex(/^[A-Z]{2}\d{8}$/),
  InvoiceDate: z.string().min(10),
  // String(4) per ECPay, but an all-digit value can arrive as a JSON number that lost its leading zeros.
  RandomNumber: text.transform((v) => v.padStart(4, '0')).pipe(z.string().regex(/^\d{4}$/)),
});

const InvalidReply = z.object({ InvoiceNo: z.string() });

const AllowanceReply = z.object({
  IA_Allow_No: text,
  IA_Invoice_No: z.string(),
  IA_Date: z.string(),
  IA_Remain_Allowance_Amt: intField,
});

// The online allowance answers with the allowance's number at once, and how long the buyer has to agree (ECPay's .NET SDK, AllowanceByCollegiateResult).
const OnlineAllowanceReply = z.object({
  IA_Allow_No: text,
  IA_Invoice_No: z.string(),
  IA_TempDate: z.string().nullish(),
  IA_TempExpireDate: z.string().nullish(),
  IA_Remain_Allowance_Amt: intField.nullish(),
});

const AllowanceInvalidReply = z.object({ IA_Invoice_No: z.string().nullish() });

const GetIssueReply = z.object({
  IIS_Number: z.string(),
  IIS_Relate_Number: text,
  IIS_Create_Date: z.string(),
  IIS_Random_Number: text,
  IIS_Sales_Amount: z.union([z.number(), z.string()]).transform(Number),
  IIS_Invalid_Status: text,
  IIS_Remain_Allowance_Amt: z
    .union([z.number(), z.string()])
    .nullish()
    .transform((v) => (v === null || v === undefined || v === '' ? null : Number(v))),
  // ECPay's .NET SDK reads the type as a number, its JSON may carry either; anything unexpected reads as "not drawn".
  IIS_Award_Flag: text.nullish().transform((v) => (v === '0' || v === '1' || v === 'X' ? v : '')),
  IIS_Award_Type: text.nullish().transform((v) => v ?? ''),
});

const CheckReply = z.object({ IsExist: z.enum(['Y', 'N']) });

export interface IssuedInvoice {
  readonly invoiceNo: string;
  /** 'yyyy-MM-dd HH:mm:ss', Taiwan time, as ECPay writes it. */
  readonly invoiceDate: string;
  readonly randomNumber: string;
}

export interface IssuedAllowance {
  readonly allowanceNo: string;
  readonly invoiceNo: string;
  readonly date: string;
  /** What can still be credited on the invoice after this allowance. */
  readonly remainingAmount: number;
}

export interface RequestedAllowance {
  readonly allowanceNo: string;
  readonly invoiceNo: string;
  /** IA_TempDate / IA_TempExpireDate: when it was asked for and until when the buyer may agree ('yyyy-MM-dd HH:mm:ss' Taiwan time; '' when absent). */
  readonly requestedAt: string;
  readonly expiresAt: string;
  readonly remainingAmount: number | null;
}

export interface InvoiceRecord {
  readonly invoiceNo: string;
  readonly relateNumber: string;
  readonly invoiceDate: string;
  readonly randomNumber: string;
  readonly salesAmount: number;
  readonly voided: boolean;
  readonly remainingAllowance: number | null;
  /**
   * IIS_Award_Flag after the bimonthly draw: '' not drawn (yet) or not in the draw, '0' drawn and
   * not won, '1' won, 'X' an invoice with a 統一編號 (never in the draw).
   */
  readonly awardFlag: '' | '0' | '1' | 'X';
  /** IIS_Award_Type of a winning invoice: which prize (see PRIZES in awards.ts); '' otherwise. */
  readonly awardType: string;
}

/** Posts a JSON body to a URL and resolves with the parsed JSON answer; throws on a network error or an HTTP status other than 2xx. */
export type EinvoicePost = (url: string, jsonBody: unknown) => Promise<unknown>;

/** An HTTP answer other than 2xx. */
export class EinvoiceHttpError extends Error {
  override readonly name = 'EinvoiceHttpError';
  constructor(readonly status: number) {
    super(`ECPay e-invoice answered HTTP ${status}`);
  }
}

/**
 * The production `post`: fetch with a timeout. An answer that is not JSON resolves as its text, so the
 * client reports it as malformed rather than as a network failure.
 */
export function fetchPost(options: { timeoutMs?: number; fetchImpl?: typeof fetch } = {}): EinvoicePost {
  const doFetch = options.fetchImpl ?? fetch;
  return async (url, jsonBody) => {
    const res = await doFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(jsonBody),
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
    if (!res.ok) throw new EinvoiceHttpError(res.status);
    const text = await res.text();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  };
}

export interface InvoiceClient {
  issue(input: IssueInput): Promise<EinvoiceResult<IssuedInvoice>>;
  invalid(input: InvalidInput): Promise<EinvoiceResult<{ invoiceNo: string }>>;
  allowance(input: AllowanceInput): Promise<EinvoiceResult<IssuedAllowance>>;
  /** 線上開立折讓: ECPay mails the buyer, who agrees online; the result comes to ReturnURL (`readAllowanceNotice`). */
  allowanceByCollegiate(input: OnlineAllowanceInput): Promise<EinvoiceResult<RequestedAllowance>>;
  allowanceInvalid(input: AllowanceInvalidInput): Promise<EinvoiceResult<{ invoiceNo: string }>>;
  getIssue(input: GetIssueInput): Promise<EinvoiceResult<InvoiceRecord>>;
  /** IsExist as a boolean. 'unavailable' means the check could not be made (ECPay advises not to block issuing on it). */
  checkBarcode(barcode: string): Promise<EinvoiceResult<{ exists: boolean }>>;
  checkLoveCode(loveCode: string): Promise<EinvoiceResult<{ exists: boolean }>>;
}

/**
 * The B2C operations over an injected `post` (fetchPost in production, app.inject in tests). Every
 * method resolves with { ok: false, error } on a failure; the only throw is a misconfiguration (a
 * HashKey or HashIV that is not 16 bytes), which no retry would mend.
 */
export function invoiceClient(
  settings: EinvoiceSettings,
  post: EinvoicePost,
  now: () => Date = () => new Date(),
): InvoiceClient {
  async function call<S extends z.ZodType, T>(
    operation: EinvoiceOperation,
    build: () => object,
    shape: S,
    map: (reply: z.infer<S>) => T,
  ): Promise<EinvoiceResult<T>> {
    let payload: object;
    try {
      payload = build();
    } catch (error) {
      if (error instanceof EinvoiceInputError)
        return { ok: false, error: { kind: 'input', field: error.field, message: error.message } };
      throw error;
    }
    const request = envelope(settings, payload, now());
    let body: unknown;
    try {
      body = await post(`${settings.host}${EINVOICE_PATHS[operation]}`, request);
    } catch (error) {
      const status = error instanceof EinvoiceHttpError ? error.status : undefined;
      return {
        ok: false,
        error: {
          kind: 'unavailable',
          message: '電子發票服務暫時無法連線',
          ...(status === undefined ? {} : { status }),
        },
      };
    }
    const opened = openReply(body, settings);
    if (!opened.ok) return opened;
    const fields = shape.safeParse(opened.value);
    if (!fields.success) return { ok: false, error: { kind: 'malformed', message: '綠界回應缺少必要欄位' } };
    return { ok: true, value: map(fields.data) };
  }

  const id = settings.merchantId;
  return {
    issue: (input) =>
      call(
        'issue',
        () => buildIssuePayload(id, input),
        IssueReply,
        (r) => ({ invoiceNo: r.InvoiceNo, invoiceDate: r.InvoiceDate, randomNumber: r.RandomNumber }),
      ),
    invalid: (input) =>
      call(
        'invalid',
        () => buildInvalidPayload(id, input),
        InvalidReply,
        (r) => ({ invoiceNo: r.InvoiceNo }),
      ),
    allowance: (input) =>
      call(
        'allowance',
        () => buildAllowancePayload(id, input),
        AllowanceReply,
        (r) => ({
          allowanceNo: r.IA_Allow_No,
          invoiceNo: r.IA_Invoice_No,
          date: r.IA_Date,
          remainingAmount: r.IA_Remain_Allowance_Amt,
        }),
      ),
    allowanceByCollegiate: (input) =>
      call(
        'allowanceByCollegiate',
        () => buildOnlineAllowancePayload(id, input),
        OnlineAllowanceReply,
        (r) => ({
          allowanceNo: r.IA_Allow_No,
          invoiceNo: r.IA_Invoice_No,
          requestedAt: r.IA_TempDate ?? '',
          expiresAt: r.IA_TempExpireDate ?? '',
          remainingAmount: r.IA_Remain_Allowance_Amt ?? null,
        }),
      ),
    allowanceInvalid: (input) =>
      call(
        'allowanceInvalid',
        () => buildAllowanceInvalidPayload(id, input),
        AllowanceInvalidReply,
        (r) => ({ invoiceNo: r.IA_Invoice_No ?? input.invoiceNo }),
      ),
    getIssue: (input) =>
      call(
        'getIssue',
        () => buildGetIssuePayload(id, input),
        GetIssueReply,
        (r) => ({
          invoiceNo: r.IIS_Number,
          relateNumber: r.IIS_Relate_Number,
          invoiceDate: r.IIS_Create_Date,
          randomNumber: r.IIS_Random_Number,
          salesAmount: r.IIS_Sales_Amount,
          voided: r.IIS_Invalid_Status === '1',
          remainingAllowance: r.IIS_Remain_Allowance_Amt,
          awardFlag: r.IIS_Award_Flag,
          awardType: r.IIS_Award_Flag === '1' ? r.IIS_Award_Type : '',
        }),
      ),
    checkBarcode: (barcode) =>
      call(
        'checkBarcode',
        () => buildCheckBarcodePayload(id, barcode),
        CheckReply,
        (r) => ({ exists: r.IsExist === 'Y' }),
      ),
    checkLoveCode: (loveCode) =>
      call(
        'checkLoveCode',
        () => buildCheckLoveCodePayload(id, loveCode),
        CheckReply,
        (r) => ({ exists: r.IsExist === 'Y' }),
      ),
  };
}
