import { randomInt } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { taipeiParts } from '@shop/shared/taipei-time';
import { WELL_KNOWN_DONATION_CODES } from '@shop/shared/invoice';
import type { Db } from '../../db/client.ts';
import { sandboxEinvoices } from '../../db/schema.ts';
import { ecpayUrlEncode } from '../../lib/ecpay-check-mac.ts';
import { acceptForms, type FormPost } from '../../lib/form-post.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../plugins/json-body.ts';
import {
  EINVOICE_LIMITS,
  EINVOICE_PATHS,
  RETURN_URL_MAX,
  allowanceNoticeForm,
  encryptText,
  isCitizenCertificate,
  isInvoiceNo,
  isLoveCode,
  isMobileBarcode,
  isRelateNumber,
  isTaxId,
  openRequest,
  refusalEnvelope,
  replyEnvelope,
  voidDeadline,
  type EinvoiceSettings,
} from './ecpay-invoice.ts';

/**
 * An e-invoice gateway that speaks ECPay's B2C protocol (the encrypted JSON envelope of
 * ecpay-invoice.ts), for running the shop without ECPay. It reads requests as ECPay does, checks
 * them with ECPay's documented rules, keeps the invoices it issued in a store and answers
 * encrypted. The app gives it the database store (`dbEinvoices`), so a restarted sandbox still
 * knows what it issued, as ECPay would; unit tests use the in-memory one (`memoryEinvoices`, the
 * default). It registers its routes under whatever prefix it is registered with. What it imitates
 * and what it does not: docs/integrations/ecpay-einvoice.md.
 *
 * Register it only outside production: it issues nothing real.
 */

export interface EinvoiceSandboxOptions {
  readonly settings: Pick<EinvoiceSettings, 'merchantId' | 'hashKey' | 'hashIV'>;
  /** Where issued invoices are kept; in memory (forgotten on restart) unless given. */
  readonly store?: SandboxInvoiceStore;
  readonly now?: () => Date;
  /** While it returns true every route answers HTTP 503, as when ECPay (or the MOF service behind its checks) is down. */
  readonly down?: () => boolean;
  /** How the buyer's consent to an online allowance is posted to its ReturnURL; a plain form post unless given. */
  readonly notify?: FormPost;
}

/** How long the buyer has to agree to an online allowance: the link in ECPay's mail is valid 72 hours (?p=15391). */
export const CONSENT_HOURS = 72;

/**
 * The sandbox's RtnCodes for a refused operation. ECPay publishes its own list only in the merchant
 * back office, so these are the sandbox's (a client must treat every RtnCode other than 1 as a refusal).
 */
export const SANDBOX_RTN = {
  ok: 1,
  invalidField: 8000001,
  duplicateRelateNumber: 8000002,
  amountMismatch: 8000003,
  carrierRule: 8000004,
  notFound: 8000005,
  alreadyVoided: 8000006,
  hasAllowances: 8000007,
  overAllowance: 8000008,
  allowanceVoided: 8000009,
  outOfScope: 8000010,
  voidPeriodOver: 8000011,
} as const;

/**
 * Sandbox data, not the real registries. Mobile barcodes: every well-formed one exists except
 * these. Donation codes: only these exist (168001 is the code in ECPay's own SDK example, 5299 is
 * made up; the well-known ones the checkout offers exist too, so a shopper trying them is not refused).
 */
export const SANDBOX_UNKNOWN_BARCODES: ReadonlySet<string> = new Set(['/0000000']);
export const SANDBOX_LOVE_CODES: ReadonlySet<string> = new Set([
  '168001',
  '5299',
  ...WELL_KNOWN_DONATION_CODES.map((c) => c.code),
]);

/** Invoices the in-memory store keeps at most; the oldest are forgotten first. */
const MAX_INVOICES = 10_000;

export interface SandboxAllowance {
  readonly allowanceNo: string;
  readonly amount: number;
  /** IA_Date as ECPay writes it (yyyy-MM-dd HH:mm:ss, Taiwan time). */
  readonly date: string;
  readonly voided: boolean;
  /**
   * An online allowance (AllowanceByCollegiate): waiting for the buyer's consent until `expiresAt`
   * (ISO time; it lapses unanswered after that), agreed when the buyer clicked, with `date` then
   * the day it was issued. A pending one already holds its amount of the invoice.
   */
  readonly online?: {
    readonly state: 'pending' | 'agreed';
    readonly expiresAt: string;
    readonly returnUrl: string;
    readonly notifyMail: string;
  };
}

/**
 * An invoice as the sandbox keeps it. Plain JSON throughout (its dates are ECPay's own date
 * strings, not Date objects), so the database store keeps it in a jsonb column and reads it back
 * unchanged.
 */
export interface SandboxInvoice {
  readonly invoiceNo: string;
  /** As the shop sent it; compared in upper case. */
  readonly relateNumber: string;
  /** yyyy-MM-dd HH:mm:ss, Taiwan time. */
  readonly invoiceDate: string;
  readonly randomNumber: string;
  readonly salesAmount: number;
  readonly data: z.infer<typeof IssueData>;
  readonly voided: boolean;
  readonly allowances: readonly SandboxAllowance[];
  /** After the draw (set through the sandbox's /award route): not won ('0'), or won ('1') the prize `type` (IIS_Award_Type). */
  readonly award?: { readonly flag: '0' | '1'; readonly type: string };
}

/** Where the sandbox keeps the invoices it issued. */
export interface SandboxInvoiceStore {
  get(invoiceNo: string): Promise<SandboxInvoice | undefined>;
  /** By RelateNumber in any letter case: ECPay treats ABC1 and abc1 as the same number. */
  getByRelateNumber(relateNumber: string): Promise<SandboxInvoice | undefined>;
  /**
   * Keeps a newly issued invoice unless its RelateNumber (in any case) or its number is taken, and
   * says which was. Checking and keeping are one step, so two issues of one RelateNumber that
   * arrive together never both succeed.
   */
  add(invoice: SandboxInvoice): Promise<'added' | 'relate-number-taken' | 'invoice-number-taken'>;
  /** Replaces an invoice already kept (voided, an allowance made or voided). */
  save(invoice: SandboxInvoice): Promise<void>;
  /** Whether an allowance number was ever given out, on any invoice. */
  allowanceNoTaken(allowanceNo: string): Promise<boolean>;
}

/** Invoices in memory, at most `limit`, the oldest forgotten first; all of them gone on restart. */
export function memoryEinvoices(limit = MAX_INVOICES): SandboxInvoiceStore {
  const invoices = new Map<string, SandboxInvoice>();
  const byRelate = new Map<string, SandboxInvoice>();
  const allowanceNos = new Set<string>();
  return {
    async get(invoiceNo) {
      return invoices.get(invoiceNo);
    },
    async getByRelateNumber(relateNumber) {
      return byRelate.get(relateNumber.toUpperCase());
    },
    async add(invoice) {
      const relate = invoice.relateNumber.toUpperCase();
      if (byRelate.has(relate)) return 'relate-number-taken';
      if (invoices.has(invoice.invoiceNo)) return 'invoice-number-taken';
      invoices.set(invoice.invoiceNo, invoice);
      byRelate.set(relate, invoice);
      while (invoices.size > limit) {
        const oldest = invoices.values().next().value;
        if (!oldest) break;
        invoices.delete(oldest.invoiceNo);
        byRelate.delete(oldest.relateNumber.toUpperCase());
      }
      return 'added';
    },
    async save(invoice) {
      // One forgotten meanwhile stays forgotten (a Map keeps a replaced entry in its old place, so
      // the order of forgetting is still the order of issue).
      if (!invoices.has(invoice.invoiceNo)) return;
      invoices.set(invoice.invoiceNo, invoice);
      byRelate.set(invoice.relateNumber.toUpperCase(), invoice);
      for (const a of invoice.allowances) allowanceNos.add(a.allowanceNo);
    },
    async allowanceNoTaken(allowanceNo) {
      return allowanceNos.has(allowanceNo);
    },
  };
}

/**
 * Invoices in the database (sandbox_einvoices), so a restarted sandbox still knows what it issued:
 * a retried issue finds the invoice by RelateNumber instead of issuing a second one, and an
 * invoice issued before the restart can still be voided or credited. relate_number holds the
 * RelateNumber in upper case, which makes its unique constraint case-insensitive.
 */
export function dbEinvoices(db: Db): SandboxInvoiceStore {
  const stored = (invoice: SandboxInvoice) => invoice as unknown as Record<string, unknown>;
  const revive = (row: { invoice: Record<string, unknown> } | undefined) =>
    row ? (row.invoice as unknown as SandboxInvoice) : undefined;
  const byRelate = async (relateNumber: string) =>
    revive(
      (
        await db
          .select({ invoice: sandboxEinvoices.invoice })
          .from(sandboxEinvoices)
          .where(eq(sandboxEinvoices.relateNumber, relateNumber.toUpperCase()))
          .limit(1)
      )[0],
    );
  return {
    async get(invoiceNo) {
      return revive(
        (
          await db
            .select({ invoice: sandboxEinvoices.invoice })
            .from(sandboxEinvoices)
            .where(eq(sandboxEinvoices.invoiceNo, invoiceNo))
            .limit(1)
        )[0],
      );
    },
    getByRelateNumber: byRelate,
    async add(invoice) {
      const inserted = await db
        .insert(sandboxEinvoices)
        .values({
          invoiceNo: invoice.invoiceNo,
          relateNumber: invoice.relateNumber.toUpperCase(),
          invoice: stored(invoice),
        })
        .onConflictDoNothing()
        .returning({ invoiceNo: sandboxEinvoices.invoiceNo });
      if (inserted.length > 0) return 'added';
      return (await byRelate(invoice.relateNumber)) ? 'relate-number-taken' : 'invoice-number-taken';
    },
    async save(invoice) {
      await db
        .update(sandboxEinvoices)
        .set({ invoice: stored(invoice) })
        .where(eq(sandboxEinvoices.invoiceNo, invoice.invoiceNo));
    },
    async allowanceNoTaken(allowanceNo) {
      const probe = JSON.stringify([{ allowanceNo }]);
      const [row] = await db
        .select({ invoiceNo: sandboxEinvoices.invoiceNo })
        .from(sandboxEinvoices)
        .where(sql`${sandboxEinvoices.invoice}->'allowances' @> ${probe}::jsonb`)
        .limit(1);
      return row !== undefined;
    },
  };
}

type Answer = Record<string, unknown> & { RtnCode: number; RtnMsg: string };
const fail = (RtnCode: number, RtnMsg: string): Answer => ({ RtnCode, RtnMsg });

// Amounts may come as JSON numbers or numeric strings (older integrations send strings).
const num = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^-?\d+(\.\d+)?$/),
  ])
  .transform(Number)
  .pipe(z.number().finite());
const opt = (max: number) =>
  z
    .string()
    .max(max)
    .optional()
    .transform((v) => v ?? '');

const Item = z.object({
  ItemSeq: num.optional(),
  ItemName: z.string().min(1).max(EINVOICE_LIMITS.itemName),
  ItemCount: num,
  ItemWord: z.string().min(1).max(EINVOICE_LIMITS.itemWord),
  ItemPrice: num,
  ItemTaxType: z
    .string()
    .max(1)
    .optional()
    .transform((v) => v ?? ''),
  ItemAmount: num,
  ItemRemark: z
    .string()
    .max(EINVOICE_LIMITS.itemRemark)
    .nullish()
    .transform((v) => v ?? ''),
});
type Item = z.infer<typeof Item>;

const IssueData = z.object({
  RelateNumber: z.string().min(1).max(30),
  CustomerID: opt(20),
  CustomerIdentifier: opt(8),
  CustomerName: opt(EINVOICE_LIMITS.customerName),
  CustomerAddr: opt(EINVOICE_LIMITS.customerAddr),
  CustomerPhone: opt(EINVOICE_LIMITS.customerPhone),
  CustomerEmail: opt(EINVOICE_LIMITS.customerEmail),
  ClearanceMark: opt(1),
  Print: z.enum(['0', '1']),
  Donation: z.enum(['0', '1']),
  LoveCode: opt(7),
  CarrierType: z
    .enum(['', '1', '2', '3'])
    .optional()
    .transform((v) => v ?? ''),
  CarrierNum: opt(64),
  TaxType: z.string(),
  SalesAmount: num,
  InvoiceRemark: opt(EINVOICE_LIMITS.invoiceRemark),
  Items: z.array(Item).min(1).max(EINVOICE_LIMITS.items),
  InvType: z.string(),
  vat: z
    .string()
    .optional()
    .transform((v) => v ?? '1'),
});

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/)
  .transform((v) => v.slice(0, 10));
const InvalidData = z.object({
  InvoiceNo: z.string().max(10),
  InvoiceDate: day,
  Reason: z.string().trim().min(1).max(120),
});
const AllowanceData = z.object({
  InvoiceNo: z.string().max(10),
  InvoiceDate: day,
  AllowanceNotify: z.enum(['S', 'E', 'A', 'N']),
  CustomerName: opt(EINVOICE_LIMITS.customerName),
  NotifyMail: opt(100),
  NotifyPhone: opt(20),
  AllowanceAmount: num,
  Items: z.array(Item).min(1).max(EINVOICE_LIMITS.items),
});
const OnlineAllowanceData = AllowanceData.extend({ ReturnURL: z.string().min(1).max(RETURN_URL_MAX) });
const AllowanceInvalidData = z.object({
  InvoiceNo: z.string().max(10),
  AllowanceNo: z.string().max(16),
  Reason: z.string().trim().min(1).max(120),
});
const GetIssueData = z.union([
  z.object({ InvoiceNo: z.string().max(10), InvoiceDate: day }),
  z.object({ RelateNumber: z.string().min(1).max(30) }),
]);
const CheckBarcodeData = z.object({ BarCode: z.string().max(8) });
const CheckLoveCodeData = z.object({ LoveCode: z.string().max(7) });

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DUPLICATE_RELATE = '特店自訂編號（RelateNumber）重複，不可重複開立';

/** What zod refused, as ECPay words a field error: the field's name and that it is wrong. */
function fieldError(error: z.ZodError): Answer {
  const issue = error.issues[0];
  const field = issue?.path.filter((p) => typeof p === 'string').join('.') || 'Data';
  return fail(SANDBOX_RTN.invalidField, `${field} 格式錯誤`);
}

/** Why the items of an invoice or allowance break ECPay's amount rules; null when they hold. */
function itemsProblem(items: readonly Item[], total: number, totalName: string): string | null {
  for (const [i, it] of items.entries()) {
    const at = `第 ${i + 1} 項商品`;
    if (!(it.ItemCount > 0)) return `${at}數量（ItemCount）必須大於 0`;
    // Negative prices are refused here; ECPay's field table does not say it takes them, and the shop never sends them.
    if (it.ItemPrice < 0 || it.ItemAmount < 0) return `${at}單價與小計不可為負數`;
    if (it.ItemTaxType !== '' && it.ItemTaxType !== '1')
      return `${at}課稅別（ItemTaxType）與發票課稅類別不符`;
    // ItemPrice × ItemCount = ItemAmount, allowing ECPay's rounding to whole dollars (its SDK example sends 10.5 × 3 as 32).
    if (Math.round(it.ItemPrice * it.ItemCount) !== Math.round(it.ItemAmount))
      return `${at}小計（ItemAmount）不等於單價乘以數量`;
  }
  if (!Number.isInteger(total) || total <= 0) return `${totalName} 必須是大於 0 的整數`;
  const sum = items.reduce((s, it) => s + it.ItemAmount, 0);
  if (Math.round(sum) !== total) return `商品小計合計（${Math.round(sum)}）不等於 ${totalName}（${total}）`;
  return null;
}

/** yyyy-MM-dd HH:mm:ss in Taiwan time, as ECPay writes InvoiceDate and IA_Date. */
function ecpayDateTime(when: Date): string {
  const p = taipeiParts(when);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

const einvoiceSandbox: FastifyPluginAsync<EinvoiceSandboxOptions> = async (app, opts) => {
  const { settings } = opts;
  const now = opts.now ?? (() => new Date());
  const store = opts.store ?? memoryEinvoices();

  // One 字軌 for the sandbox's lifetime, numbered on from a random point, like a real allocation.
  const track = String.fromCharCode(65 + randomInt(26), 65 + randomInt(26));
  let nextNumber = randomInt(10_000_000, 90_000_000);
  const digits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');

  // .NET-style encoding for the answers (lower-case hex, ! * ( ) left as they are), as ECPay's
  // servers answer; a client must read it as readily as the PHP style it sends.
  const seal = (data: object) =>
    encryptText(ecpayUrlEncode(JSON.stringify(data)), settings.hashKey, settings.hashIV);

  app.addHook('onRequest', async (_request, reply) => {
    if (opts.down?.()) {
      reply
        .code(503)
        .header('retry-after', '60')
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-store');
      return reply.send('Service Unavailable');
    }
  });

  // ECPay reads a JSON body on every route; the shop's own parser takes JSON only where a route
  // declares a body schema. Here a body that is not JSON reaches openRequest, which refuses it as
  // ECPay would (TransCode), rather than Fastify answering in the shop's error shape.
  if (app.hasContentTypeParser('application/json')) app.removeContentTypeParser('application/json');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: 256 * 1024 },
    (request, body, done) => {
      const text = String(body);
      if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return done(null, text);
      parseJson(request, text, (error, value) => done(null, error ? text : value));
    },
  );

  // Operations that change invoices run one at a time, each read-check-save whole, as they did
  // when the invoices were only a Map: two voids of one invoice cannot both pass the "already
  // voided" check, nor two allowances the "what remains" one. (Separate processes sharing one
  // database are not ordered against each other; only a new invoice is guarded there, by the
  // store's unique keys.)
  let queue: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };

  function route(
    path: string,
    handle: (payload: Record<string, unknown>) => Promise<Answer> | Answer,
    changes = false,
  ): void {
    app.post(path, async (request: FastifyRequest, reply: FastifyReply) => {
      reply.header('cache-control', 'no-store');
      const at = now();
      const opened = openRequest(request.body, settings, at);
      if (!opened.ok) return refusalEnvelope(opened.merchantId, opened.transCode, opened.transMsg, at);
      const answer = changes
        ? await oneAtATime(async () => handle(opened.payload))
        : await handle(opened.payload);
      return replyEnvelope(settings, answer, at, seal);
    });
  }

  /** An online allowance nobody agreed to in time lapses and gives its amount back. */
  const lapsed = (a: SandboxAllowance, at: Date) =>
    a.online?.state === 'pending' && at.getTime() > Date.parse(a.online.expiresAt);
  /** Allowances that count: issued, or online ones still waiting for consent (they hold their amount). */
  const live = (inv: SandboxInvoice, at = now()) => inv.allowances.filter((a) => !a.voided && !lapsed(a, at));
  const remaining = (inv: SandboxInvoice) => inv.salesAmount - live(inv).reduce((s, a) => s + a.amount, 0);
  const post: FormPost =
    opts.notify ??
    (async (url, fields) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
        signal: AbortSignal.timeout(10_000),
      });
      return res.text();
    });

  /** The invoice a request names by number and issue day, or why there is none. */
  async function findInvoice(invoiceNo: string, invoiceDay: string): Promise<SandboxInvoice | Answer> {
    if (!isInvoiceNo(invoiceNo)) return fail(SANDBOX_RTN.invalidField, 'InvoiceNo 格式錯誤');
    const inv = await store.get(invoiceNo);
    if (!inv || inv.invoiceDate.slice(0, 10) !== invoiceDay)
      return fail(SANDBOX_RTN.notFound, '查無此發票（請確認發票號碼與開立日期）');
    return inv;
  }
  const isAnswer = (x: SandboxInvoice | Answer): x is Answer => 'RtnCode' in x;

  // ── 開立發票 ──
  route(
    EINVOICE_PATHS.issue,
    async (payload) => {
      const parsed = IssueData.safeParse(payload);
      if (!parsed.success) return fieldError(parsed.error);
      const d = parsed.data;
      if (!isRelateNumber(d.RelateNumber))
        return fail(SANDBOX_RTN.invalidField, 'RelateNumber 只能使用英文、數字與底線');
      // ECPay treats RelateNumber case-insensitively: ABC1 and abc1 are the same number.
      if (await store.getByRelateNumber(d.RelateNumber))
        return fail(SANDBOX_RTN.duplicateRelateNumber, DUPLICATE_RELATE);
      if (d.TaxType !== '1' || d.InvType !== '07' || d.vat !== '1')
        return fail(
          SANDBOX_RTN.outOfScope,
          '沙盒只模擬應稅含稅價的一般稅額發票（TaxType 1、InvType 07、vat 1）',
        );

      if (!d.CustomerPhone && !d.CustomerEmail)
        return fail(SANDBOX_RTN.invalidField, 'CustomerPhone 與 CustomerEmail 至少須填一項');
      if (d.CustomerEmail && !EMAIL.test(d.CustomerEmail))
        return fail(SANDBOX_RTN.invalidField, 'CustomerEmail 格式錯誤');
      if (d.CustomerPhone && !/^\d+$/.test(d.CustomerPhone))
        return fail(SANDBOX_RTN.invalidField, 'CustomerPhone 只能是數字');
      if (d.CustomerID && !/^\w+$/.test(d.CustomerID))
        return fail(SANDBOX_RTN.invalidField, 'CustomerID 只能使用英文、數字與底線');

      // Carriers: the number must fit the type, and an invoice kept in a carrier is not printed.
      if ((d.CarrierType === '' || d.CarrierType === '1') && d.CarrierNum !== '')
        return fail(SANDBOX_RTN.carrierRule, 'CarrierType 為空或 1 時，CarrierNum 請帶空字串');
      if (d.CarrierType === '2' && !isCitizenCertificate(d.CarrierNum))
        return fail(SANDBOX_RTN.carrierRule, '自然人憑證條碼（CarrierNum）為 2 碼大寫英文加 14 碼數字');
      if (d.CarrierType === '3' && !isMobileBarcode(d.CarrierNum))
        return fail(SANDBOX_RTN.carrierRule, '手機條碼（CarrierNum）為「/」加 7 碼數字、大寫英文或 + - .');

      if (d.CustomerIdentifier) {
        if (!isTaxId(d.CustomerIdentifier))
          return fail(SANDBOX_RTN.invalidField, 'CustomerIdentifier 統一編號格式錯誤');
        if (d.Donation === '1') return fail(SANDBOX_RTN.carrierRule, '有統一編號的發票不可捐贈');
        if (d.CarrierType === '' && d.Print !== '1')
          return fail(SANDBOX_RTN.carrierRule, '有統一編號且無載具時，Print 必須為 1');
        if ((d.CarrierType === '1' || d.CarrierType === '2') && d.Print !== '0')
          return fail(SANDBOX_RTN.carrierRule, '載具類別為 1 或 2 時，Print 必須為 0');
      } else if (d.CarrierType !== '' && d.Print !== '0') {
        return fail(SANDBOX_RTN.carrierRule, '存入載具的發票不可列印（Print 必須為 0）');
      }
      if (d.Donation === '1') {
        if (!isLoveCode(d.LoveCode)) return fail(SANDBOX_RTN.invalidField, 'LoveCode 捐贈碼為 3 到 7 位數字');
        if (d.Print !== '0') return fail(SANDBOX_RTN.carrierRule, '捐贈的發票不可列印（Print 必須為 0）');
      } else if (d.LoveCode !== '') {
        return fail(SANDBOX_RTN.carrierRule, '未捐贈時 LoveCode 請帶空字串');
      }
      if (d.Print === '1' && (!d.CustomerName.trim() || !d.CustomerAddr.trim()))
        return fail(SANDBOX_RTN.invalidField, '列印發票時 CustomerName 與 CustomerAddr 為必填');

      const problem = itemsProblem(d.Items, d.SalesAmount, 'SalesAmount');
      if (problem) return fail(SANDBOX_RTN.amountMismatch, problem);

      const at = now();
      const draft = {
        relateNumber: d.RelateNumber,
        invoiceDate: ecpayDateTime(at),
        randomNumber: digits(4),
        salesAmount: d.SalesAmount,
        data: d,
        voided: false,
        allowances: [],
      };
      let invoice: SandboxInvoice | undefined;
      // A sandbox started again picks a new 字軌 and starting point, which may land on numbers an
      // earlier run gave out and the database still holds: those are skipped.
      for (let tries = 0; !invoice; tries += 1) {
        if (tries === 100) throw new Error('the e-invoice sandbox found no free invoice number');
        const candidate: SandboxInvoice = {
          ...draft,
          invoiceNo: `${track}${String(nextNumber++).padStart(8, '0')}`,
        };
        const kept = await store.add(candidate);
        if (kept === 'relate-number-taken') return fail(SANDBOX_RTN.duplicateRelateNumber, DUPLICATE_RELATE);
        if (kept === 'added') invoice = candidate;
      }
      return {
        RtnCode: 1,
        RtnMsg: '開立發票成功',
        InvoiceNo: invoice.invoiceNo,
        InvoiceDate: invoice.invoiceDate,
        RandomNumber: invoice.randomNumber,
      };
    },
    true,
  );

  // ── 作廢發票 ──
  route(
    EINVOICE_PATHS.invalid,
    async (payload) => {
      const parsed = InvalidData.safeParse(payload);
      if (!parsed.success) return fieldError(parsed.error);
      const inv = await findInvoice(parsed.data.InvoiceNo, parsed.data.InvoiceDate);
      if (isAnswer(inv)) return inv;
      if (inv.voided) return fail(SANDBOX_RTN.alreadyVoided, '此發票已作廢，不可重複作廢');
      // Filed with the Ministry of Finance on the 13th of the next odd month: no void after 23:59:59 that day.
      if (now().getTime() > voidDeadline(inv.invoiceDate).getTime())
        return fail(
          SANDBOX_RTN.voidPeriodOver,
          '已超過發票作廢期限（次期奇數月 13 日 23:59:59），請改開立折讓',
        );
      // An allowance hangs on its invoice: the invoice can be voided only once its allowances are.
      if (live(inv).length > 0)
        return fail(SANDBOX_RTN.hasAllowances, '此發票已有折讓，請先作廢折讓再作廢發票');
      await store.save({ ...inv, voided: true });
      return { RtnCode: 1, RtnMsg: '作廢發票成功', InvoiceNo: inv.invoiceNo };
    },
    true,
  );

  /**
   * The checks both allowances share (the invoice, its notice fields, the amount rules, never more
   * than remains) and a new 16-digit number; `extra` adds the online one's own checks.
   */
  async function newAllowance(
    d: z.infer<typeof AllowanceData>,
    extra: () => Answer | null,
  ): Promise<Answer | { inv: SandboxInvoice; allowanceNo: string; at: Date }> {
    const inv = await findInvoice(d.InvoiceNo, d.InvoiceDate);
    if (isAnswer(inv)) return inv;
    if (inv.voided) return fail(SANDBOX_RTN.alreadyVoided, '此發票已作廢，不可折讓');
    if (
      (d.AllowanceNotify === 'E' || d.AllowanceNotify === 'A') &&
      !d.NotifyMail.split(';').every((m) => EMAIL.test(m.trim()))
    )
      return fail(SANDBOX_RTN.invalidField, '以電子郵件通知時 NotifyMail 必須是有效的電子信箱');
    if ((d.AllowanceNotify === 'S' || d.AllowanceNotify === 'A') && !/^\d+$/.test(d.NotifyPhone))
      return fail(SANDBOX_RTN.invalidField, '以簡訊通知時 NotifyPhone 必須是手機號碼');
    const refused = extra();
    if (refused) return refused;
    const problem = itemsProblem(d.Items, d.AllowanceAmount, 'AllowanceAmount');
    if (problem) return fail(SANDBOX_RTN.amountMismatch, problem);
    const left = remaining(inv);
    if (d.AllowanceAmount > left)
      return fail(SANDBOX_RTN.overAllowance, `折讓金額超過發票剩餘可折讓金額（${left} 元）`);
    const at = now();
    const stamp = ecpayDateTime(at).replace(/\D/g, '');
    let allowanceNo = `${stamp}${digits(2)}`;
    while (await store.allowanceNoTaken(allowanceNo)) allowanceNo = `${stamp}${digits(2)}`;
    return { inv, allowanceNo, at };
  }

  // ── 開立折讓 ──
  route(
    EINVOICE_PATHS.allowance,
    async (payload) => {
      const parsed = AllowanceData.safeParse(payload);
      if (!parsed.success) return fieldError(parsed.error);
      const d = parsed.data;
      const made = await newAllowance(d, () => null);
      if ('RtnCode' in made) return made;
      const { inv, allowanceNo, at } = made;
      const credited: SandboxInvoice = {
        ...inv,
        allowances: [
          ...inv.allowances,
          { allowanceNo, amount: d.AllowanceAmount, date: ecpayDateTime(at), voided: false },
        ],
      };
      await store.save(credited);
      return {
        RtnCode: 1,
        RtnMsg: '開立折讓成功',
        IA_Allow_No: allowanceNo,
        IA_Invoice_No: inv.invoiceNo,
        IA_Date: ecpayDateTime(at),
        IA_Remain_Allowance_Amt: remaining(credited),
      };
    },
    true,
  );

  // ── 線上開立折讓 ──
  // Checked as the paper allowance, and: the notice goes by e-mail (the consent link), ReturnURL is
  // given. Nothing is issued yet: the allowance waits for the buyer's consent, holding its amount.
  route(
    EINVOICE_PATHS.allowanceByCollegiate,
    async (payload) => {
      const parsed = OnlineAllowanceData.safeParse(payload);
      if (!parsed.success) return fieldError(parsed.error);
      const d = parsed.data;
      const made = await newAllowance(d, () => {
        if (d.AllowanceNotify !== 'E' || !d.NotifyMail)
          return fail(
            SANDBOX_RTN.invalidField,
            '線上折讓須以電子郵件通知（AllowanceNotify E）並填寫 NotifyMail',
          );
        if (!/^https?:\/\/\S+$/.test(d.ReturnURL))
          return fail(SANDBOX_RTN.invalidField, 'ReturnURL 格式錯誤');
        return null;
      });
      if ('RtnCode' in made) return made;
      const { inv, allowanceNo, at } = made;
      const expires = new Date(at.getTime() + CONSENT_HOURS * 3600_000);
      const online = {
        state: 'pending' as const,
        expiresAt: expires.toISOString(),
        returnUrl: d.ReturnURL,
        notifyMail: d.NotifyMail,
      };
      const credited: SandboxInvoice = {
        ...inv,
        allowances: [
          ...inv.allowances,
          { allowanceNo, amount: d.AllowanceAmount, date: ecpayDateTime(at), voided: false, online },
        ],
      };
      await store.save(credited);
      return {
        RtnCode: 1,
        RtnMsg: '線上折讓申請成功，待買受人同意',
        IA_Allow_No: allowanceNo,
        IA_Invoice_No: inv.invoiceNo,
        IA_TempDate: ecpayDateTime(at),
        IA_TempExpireDate: ecpayDateTime(expires),
        IA_Remain_Allowance_Amt: remaining(credited),
      };
    },
    true,
  );

  // ── The buyer's consent (the link in ECPay's mail; the sandbox's own page, not ECPay's API) ──
  // GET shows what is asked; POST agrees: the allowance is issued then, and the result is posted
  // to ReturnURL as ECPay posts it (a signed form). Tests post here directly.
  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) acceptForms(app, 1024);
  const consentPath = '/consent/:invoiceNo/:allowanceNo';
  type ConsentParams = { invoiceNo: string; allowanceNo: string };
  const pending = async (params: ConsentParams) => {
    const inv = await store.get(params.invoiceNo);
    const allowance = inv?.allowances.find((a) => a.allowanceNo === params.allowanceNo && a.online);
    return inv && allowance ? { inv, allowance } : null;
  };
  const page = (reply: FastifyReply, status: number, body: string) =>
    reply
      .code(status)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="zh-Hant"><meta charset="utf-8"><title>折讓同意（沙盒）</title><body>${body}</body></html>`,
      );
  const esc = (t: string) => t.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

  app.get<{ Params: ConsentParams }>(consentPath, async (request, reply) => {
    const found = await pending(request.params);
    if (!found) return page(reply, 404, '<p>查無此折讓。</p>');
    const { inv, allowance } = found;
    const state =
      allowance.online?.state === 'agreed' ? '已同意' : lapsed(allowance, now()) ? '已逾期' : '待同意';
    return page(
      reply,
      200,
      `<h1>折讓同意（沙盒）</h1><p>發票 ${esc(inv.invoiceNo)} 折讓 ${allowance.amount} 元，折讓單號 ${esc(allowance.allowanceNo)}：${state}</p>${state === '待同意' ? '<form method="post"><button>同意折讓</button></form>' : ''}`,
    );
  });

  app.post<{ Params: ConsentParams }>(consentPath, async (request, reply) => {
    const agreed = await oneAtATime(async () => {
      const found = await pending(request.params);
      if (!found) return { status: 404 as const };
      const { inv, allowance } = found;
      if (allowance.voided || lapsed(allowance, now())) return { status: 410 as const };
      if (allowance.online?.state === 'agreed') return { status: 200 as const, inv, allowance };
      const at = now();
      const issued: SandboxAllowance = {
        ...allowance,
        date: ecpayDateTime(at),
        online: { ...allowance.online!, state: 'agreed' },
      };
      const saved: SandboxInvoice = {
        ...inv,
        allowances: inv.allowances.map((a) => (a === allowance ? issued : a)),
      };
      await store.save(saved);
      return { status: 200 as const, inv: saved, allowance: issued };
    });
    if (agreed.status === 404) return page(reply, 404, '<p>查無此折讓。</p>');
    if (agreed.status === 410) return page(reply, 410, '<p>同意連結已逾期（72 小時），折讓未開立。</p>');
    const form = allowanceNoticeForm(
      {
        RtnCode: '1',
        RtnMsg: '開立折讓成功',
        IA_Allow_No: agreed.allowance.allowanceNo,
        IA_Invoice_No: agreed.inv.invoiceNo,
        IA_Date: agreed.allowance.date,
        IIS_Remain_Allowance_Amt: String(remaining(agreed.inv)),
      },
      settings,
    );
    let answer: string;
    try {
      answer = await post(agreed.allowance.online!.returnUrl, form);
    } catch (error) {
      answer = `（無法通知特店：${error instanceof Error ? error.message : String(error)}）`;
    }
    return page(
      reply,
      200,
      `<p>已同意折讓，折讓單號 ${esc(agreed.allowance.allowanceNo)}。</p><p data-merchant-answer>${esc(answer)}</p>`,
    );
  });

  // ── The draw (the sandbox's own route, not ECPay's API): what ECPay's GetIssue reports after it ──
  // Type 0 marks the invoice drawn and not won; 1–12 won that prize (IIS_Award_Type). A voided
  // invoice or one with a 統一編號 is not in the draw.
  app.post<{ Params: { invoiceNo: string; type: string } }>(
    '/award/:invoiceNo/:type',
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { invoiceNo, type } = request.params;
      if (!/^(?:[0-9]|1[0-2])$/.test(type))
        return reply.code(400).send({ error: 'type is 0 (not won) or a prize code 1–12' });
      return oneAtATime(async () => {
        const inv = await store.get(invoiceNo);
        if (!inv) return reply.code(404).send({ error: 'no such invoice' });
        if (inv.voided || inv.data.CustomerIdentifier)
          return reply.code(409).send({ error: 'not in the draw (voided, or issued with a 統一編號)' });
        await store.save({ ...inv, award: type === '0' ? { flag: '0', type: '0' } : { flag: '1', type } });
        return { invoiceNo, awardFlag: type === '0' ? '0' : '1', awardType: type };
      });
    },
  );

  // ── 作廢折讓 ──
  route(
    EINVOICE_PATHS.allowanceInvalid,
    async (payload) => {
      const parsed = AllowanceInvalidData.safeParse(payload);
      if (!parsed.success) return fieldError(parsed.error);
      const inv = await store.get(parsed.data.InvoiceNo);
      const allowance = inv?.allowances.find((a) => a.allowanceNo === parsed.data.AllowanceNo);
      if (!inv || !allowance) return fail(SANDBOX_RTN.notFound, '查無此折讓單（請確認發票號碼與折讓編號）');
      if (allowance.voided) return fail(SANDBOX_RTN.allowanceVoided, '此折讓單已作廢，不可重複作廢');
      await store.save({
        ...inv,
        allowances: inv.allowances.map((a) => (a === allowance ? { ...a, voided: true } : a)),
      });
      return { RtnCode: 1, RtnMsg: '作廢折讓成功', IA_Invoice_No: inv.invoiceNo };
    },
    true,
  );

  // ── 查詢發票明細 ──
  route(EINVOICE_PATHS.getIssue, async (payload) => {
    const parsed = GetIssueData.safeParse(payload);
    if (!parsed.success) return fieldError(parsed.error);
    const q = parsed.data;
    let inv: SandboxInvoice | undefined;
    if ('RelateNumber' in q) inv = await store.getByRelateNumber(q.RelateNumber);
    else {
      const found = await findInvoice(q.InvoiceNo, q.InvoiceDate);
      if (isAnswer(found)) return found;
      inv = found;
    }
    if (!inv) return fail(SANDBOX_RTN.notFound, '查無此發票');
    const d = inv.data;
    const identifier = d.CustomerIdentifier;
    return {
      RtnCode: 1,
      RtnMsg: '查詢發票成功',
      IIS_Mer_ID: settings.merchantId,
      IIS_Number: inv.invoiceNo,
      IIS_Relate_Number: inv.relateNumber,
      IIS_Customer_ID: d.CustomerID,
      // Without a 統一編號 the buyer's id reads as ten zeros, as on a B2C invoice.
      IIS_Identifier: identifier || '0000000000',
      IIS_Customer_Name: d.CustomerName,
      IIS_Customer_Addr: d.CustomerAddr,
      IIS_Customer_Phone: d.CustomerPhone,
      IIS_Customer_Email: d.CustomerEmail,
      IIS_Clearance_Mark: d.ClearanceMark,
      IIS_Type: d.InvType,
      IIS_Category: identifier ? 'B2B' : 'B2C',
      IIS_Tax_Type: d.TaxType,
      IIS_Tax_Rate: 0.05,
      // Tax is shown only on an invoice with a 統一編號; a B2C invoice's amount includes it.
      IIS_Tax_Amount: identifier ? inv.salesAmount - Math.round(inv.salesAmount / 1.05) : 0,
      IIS_Sales_Amount: inv.salesAmount,
      IIS_Carrier_Type: d.CarrierType,
      IIS_Carrier_Num: d.CarrierNum,
      IIS_Love_Code: d.LoveCode,
      IIS_IP: '',
      IIS_Create_Date: inv.invoiceDate,
      IIS_Issue_Status: '1',
      IIS_Invalid_Status: inv.voided ? '1' : '0',
      IIS_Upload_Status: '0',
      IIS_Upload_Date: '',
      IIS_Turnkey_Status: '',
      IIS_Remain_Allowance_Amt: remaining(inv),
      IIS_Print_Flag: d.Print,
      // A company invoice is never in the draw ('X'); others read '' until the draw is known.
      IIS_Award_Flag: identifier ? 'X' : (inv.award?.flag ?? ''),
      IIS_Award_Type: identifier ? '' : (inv.award?.type ?? ''),
      IIS_Random_Number: inv.randomNumber,
      InvoiceRemark: d.InvoiceRemark,
      Items: d.Items,
    };
  });

  // ── 手機條碼驗證 ──
  route(EINVOICE_PATHS.checkBarcode, (payload) => {
    const parsed = CheckBarcodeData.safeParse(payload);
    if (!parsed.success) return fieldError(parsed.error);
    if (!isMobileBarcode(parsed.data.BarCode))
      return fail(SANDBOX_RTN.invalidField, 'BarCode 手機條碼格式錯誤');
    return {
      RtnCode: 1,
      RtnMsg: '執行成功',
      IsExist: SANDBOX_UNKNOWN_BARCODES.has(parsed.data.BarCode) ? 'N' : 'Y',
    };
  });

  // ── 捐贈碼驗證 ──
  route(EINVOICE_PATHS.checkLoveCode, (payload) => {
    const parsed = CheckLoveCodeData.safeParse(payload);
    if (!parsed.success) return fieldError(parsed.error);
    if (!isLoveCode(parsed.data.LoveCode)) return fail(SANDBOX_RTN.invalidField, 'LoveCode 捐贈碼格式錯誤');
    return {
      RtnCode: 1,
      RtnMsg: '執行成功',
      IsExist: SANDBOX_LOVE_CODES.has(parsed.data.LoveCode) ? 'Y' : 'N',
    };
  });
};

export default einvoiceSandbox;
