import { randomInt } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { type z } from 'zod';
import { ecpayUrlEncode } from '../../lib/ecpay-check-mac.ts';
import { acceptForms, type FormPost } from '../../lib/form-post.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../plugins/json-body.ts';
import {
  allowanceNoticeForm,
  isInvoiceNo,
  isLoveCode,
  isMobileBarcode,
  isRelateNumber,
  voidDeadline,
} from './ecpay-invoice-fields.ts';
import {
  EINVOICE_PATHS,
  openRequest,
  refusalEnvelope,
  replyEnvelope,
  type EinvoiceSettings,
} from './ecpay-invoice-protocol.ts';
import { encryptText } from './ecpay-invoice-crypto.ts';
import {
  CONSENT_HOURS,
  SANDBOX_RTN,
  SANDBOX_UNKNOWN_BARCODES,
  SANDBOX_LOVE_CODES,
  type Answer,
  fail,
  IssueData,
  InvalidData,
  AllowanceData,
  OnlineAllowanceData,
  AllowanceInvalidData,
  GetIssueData,
  CheckBarcodeData,
  CheckLoveCodeData,
  EMAIL,
  DUPLICATE_RELATE,
  fieldError,
  itemsProblem,
  issueRefusal,
  ecpayDateTime,
} from './sandbox-rules.ts';
import {
  type SandboxAllowance,
  type SandboxInvoice,
  type SandboxInvoiceStore,
  memoryEinvoices,
} from './sandbox-store.ts';

/**
 * An e-invoice gateway that speaks ECPay's B2C protocol (the encrypted JSON envelope of
 * ecpay-invoice-protocol.ts), for running the shop without ECPay. It reads requests as ECPay does, checks
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
      const refused = issueRefusal(d);
      if (refused) return refused;

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
