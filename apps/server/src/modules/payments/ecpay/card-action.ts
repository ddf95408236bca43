import { z } from 'zod';
import { formatTwd } from '@shop/shared/money';
import { checkMacValue } from '../../../lib/ecpay-check-mac.ts';

/**
 * ECPay card actions (信用卡請退款) as the shop speaks them: the signed form of
 * /CreditDetail/DoAction, the trade query /CreditDetail/QueryTrade/V2, their answers, and the
 * rule that picks an action for a refund. Pure protocol: no I/O beyond the `post` handed to
 * cardActions. Facts, with their sources, in docs/integrations/ecpay-card-refunds.md.
 */

export interface CardSettings {
  readonly merchantId: string;
  readonly hashKey: string;
  readonly hashIV: string;
  /** Where the card API answers: ECPAY_HOSTS.production, or the built-in sandbox's base URL. */
  readonly host: string;
  /**
   * 商家檢查碼 (CreditCheckCode) from ECPay's back office (信用卡收單 → 信用卡授權資訊): the trade
   * query needs it besides HashKey/HashIV; actions do not.
   */
  readonly creditCheckCode?: string;
}

/** ECPay's payment hosts. Card actions and the trade query only work on production: the stage host has no real card authorisations behind it. */
export const ECPAY_HOSTS = {
  production: 'https://payment.ecpay.com.tw',
  stage: 'https://payment-stage.ecpay.com.tw',
} as const;
export const DO_ACTION_PATH = '/CreditDetail/DoAction';
export const QUERY_TRADE_PATH = '/CreditDetail/QueryTrade/V2';

/** C 關帳 (capture), R 退刷 (refund, partial allowed), E 取消 (undo a capture not yet settled), N 放棄 (give up the whole authorisation). */
export type CardAction = 'C' | 'R' | 'E' | 'N';
export const CARD_ACTIONS: readonly CardAction[] = ['C', 'R', 'E', 'N'];

/** A card payment as the shop keeps it. */
export interface CardTrade {
  /** The shop's MerchantTradeNo. */
  readonly merchantTradeNo: string;
  /** ECPay's TradeNo (from the payment notification). */
  readonly tradeNo: string;
  /** gwsr, ECPay's authorisation number: the query's CreditRefundId (sent in the payment notification only with NeedExtraPaidInfo=Y). */
  readonly gwsr: string;
  /** What the card was authorised for, integer TWD: the query's CreditAmount. */
  readonly amount: number;
}

const MERCHANT_TRADE_NO = /^[A-Za-z0-9]{1,20}$/;
const TRADE_NO = /^[A-Za-z0-9]{1,20}$/;
const DIGITS = /^\d{1,20}$/;

function isAmount(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0;
}

function sign(settings: CardSettings, fields: Record<string, string>): Record<string, string> {
  return { ...fields, CheckMacValue: checkMacValue(fields, settings.hashKey, settings.hashIV, 'sha256') };
}

/**
 * The signed DoAction form. Nothing else is sent: ECPay's SDKs add only an empty PlatformID, which
 * is for platform merchants. Bad input is a programming error, so it throws rather than asking ECPay.
 */
export function doActionFields(
  settings: CardSettings,
  request: {
    readonly merchantTradeNo: string;
    readonly tradeNo: string;
    readonly action: CardAction;
    readonly amount: number;
  },
): Record<string, string> {
  if (!MERCHANT_TRADE_NO.test(request.merchantTradeNo))
    throw new Error('MerchantTradeNo must be 1–20 letters or digits');
  if (!TRADE_NO.test(request.tradeNo)) throw new Error('TradeNo must be 1–20 letters or digits');
  if (!CARD_ACTIONS.includes(request.action))
    throw new Error(`unknown card action ${String(request.action)}`);
  if (!isAmount(request.amount)) throw new Error('TotalAmount must be a positive integer of TWD');
  return sign(settings, {
    MerchantID: settings.merchantId,
    MerchantTradeNo: request.merchantTradeNo,
    TradeNo: request.tradeNo,
    Action: request.action,
    TotalAmount: String(request.amount),
  });
}

/** The signed trade-query form (QueryTrade/V2), keyed by the authorisation number and amount rather than the shop's order number. */
export function queryFields(
  settings: CardSettings,
  trade: Pick<CardTrade, 'gwsr' | 'amount'>,
): Record<string, string> {
  if (!settings.creditCheckCode || !DIGITS.test(settings.creditCheckCode))
    throw new Error('the trade query needs the merchant CreditCheckCode (digits)');
  if (!DIGITS.test(trade.gwsr)) throw new Error('CreditRefundId (gwsr) must be digits');
  if (!isAmount(trade.amount)) throw new Error('CreditAmount must be a positive integer of TWD');
  return sign(settings, {
    MerchantID: settings.merchantId,
    CreditRefundId: trade.gwsr,
    CreditAmount: String(trade.amount),
    CreditCheckCode: settings.creditCheckCode,
  });
}

// ── DoAction's answer ────────────────────────────────────────────────────────────────────────

/**
 * A failure is `uncertain` when the answer could not be read (no answer, an error page, a time-out):
 * ECPay may have acted all the same, so the caller must query the trade before trying again, or a
 * refund could be paid twice. A readable RtnCode other than 1 is a refusal: nothing happened.
 */
export type DoActionReply =
  | { readonly ok: true; readonly rtnMsg: string }
  | { readonly ok: false; readonly code: string; readonly message: string; readonly uncertain: boolean };

/** DoAction answers url-encoded fields, unsigned: MerchantID, MerchantTradeNo, TradeNo, RtnCode, RtnMsg. */
const DoActionAnswer = z.object({
  RtnCode: z
    .string()
    .max(12, { abort: true })
    .regex(/^-?\d+$/),
  RtnMsg: z.string().max(400).optional().default(''),
  MerchantID: z.string().max(20).optional(),
  MerchantTradeNo: z.string().max(40).optional(),
  TradeNo: z.string().max(40).optional(),
});

const unreadable = (message: string): DoActionReply => ({
  ok: false,
  code: 'invalid_reply',
  message,
  uncertain: true,
});

/**
 * Reads DoAction's answer. `expect` (the trade the request was about) catches an answer about
 * another trade, which is treated as unreadable: whatever it says, it says nothing about ours.
 */
export function parseDoActionReply(
  text: string,
  expect?: { readonly merchantTradeNo: string; readonly tradeNo: string },
): DoActionReply {
  const body = text.trim();
  // An HTML error page or a JSON body is not the form ECPay answers with; URLSearchParams would
  // still find "keys" in it, so refuse it before parsing.
  if (!body || body.length > 4000 || /^[<{[]/.test(body) || !body.includes('RtnCode='))
    return unreadable('綠界的回應無法辨識');
  const parsed = DoActionAnswer.safeParse(Object.fromEntries(new URLSearchParams(body)));
  if (!parsed.success) return unreadable('綠界的回應無法辨識');
  const answer = parsed.data;
  if (
    expect &&
    ((answer.TradeNo && answer.TradeNo !== expect.tradeNo) ||
      (answer.MerchantTradeNo && answer.MerchantTradeNo !== expect.merchantTradeNo))
  ) {
    return unreadable('綠界的回應不是這筆交易的');
  }
  if (answer.RtnCode === '1') return { ok: true, rtnMsg: answer.RtnMsg };
  return {
    ok: false,
    code: answer.RtnCode,
    message: answer.RtnMsg || '綠界拒絕了這個動作',
    uncertain: false,
  };
}

// ── the trade query's answer ─────────────────────────────────────────────────────────────────

/**
 * What can be done with a card payment, from the query's RtnValue.status:
 * - authorised: 已授權, or 操作取消 (an E undid the capture, which returns the trade to its previous
 *   state): only N, for the whole authorisation;
 * - closing: 要關帳, capture requested but not yet settled with the bank: R for part, E then N for all;
 * - closed: 已關帳, settled: R, partial or whole, until nothing is left;
 * - void: 已取消 / 未授權, no money taken: nothing to refund;
 * - in_progress: 關帳中 / 要取消 / 取消中, ECPay is busy with it: try again later;
 * - manual: anything else (銀行拒絕, 銀行追回中, 銀行已追回, 批次失敗, 不明, or a status ECPay adds
 *   later): a person must look in ECPay's back office.
 */
export type CardStage = 'authorised' | 'closing' | 'closed' | 'void' | 'in_progress' | 'manual';

const STAGES: Readonly<Record<string, CardStage>> = {
  已授權: 'authorised',
  操作取消: 'authorised',
  要關帳: 'closing',
  已關帳: 'closed',
  已取消: 'void',
  未授權: 'void',
  關帳中: 'in_progress',
  要取消: 'in_progress',
  取消中: 'in_progress',
};

export function stageOf(status: string): CardStage {
  return STAGES[status.trim()] ?? 'manual';
}

export interface CardCloseRecord {
  readonly status: string;
  readonly sno: string;
  readonly amount: number;
  readonly datetime: string;
}

export interface CardTradeDetail {
  /** TradeID: the authorisation number (gwsr). */
  readonly authorisationNo: string;
  /** amount: what was authorised. */
  readonly amount: number;
  /** clsamt: what is captured (關帳金額). */
  readonly closedAmount: number;
  /** authtime, as ECPay writes it. */
  readonly authorisedAt: string;
  readonly status: string;
  readonly stage: CardStage;
  /** close_data: one record per capture, refund or cancellation ECPay made. */
  readonly closeData: readonly CardCloseRecord[];
}

export type QueryReply =
  | { readonly ok: true; readonly trade: CardTradeDetail }
  | { readonly ok: false; readonly code: string; readonly message: string };

// ECPay documents these as Int; integrations have seen strings too, so both are read.
const integer = z.union([
  z.number().int(),
  z
    .string()
    .max(16, { abort: true })
    .regex(/^-?\d+$/)
    .transform(Number),
]);
const text = (max: number) => z.union([z.string().max(max), z.number().transform(String)]);

const TradeValue = z.object({
  TradeID: text(20),
  amount: integer,
  clsamt: integer,
  authtime: text(40),
  status: z.string().max(30),
  close_data: z
    .array(
      z.object({
        status: z.string().max(30),
        sno: text(20).optional().default(''),
        amount: integer,
        datetime: text(40).optional().default(''),
      }),
    )
    .max(200)
    .nullish(),
});

const QueryAnswer = z.object({
  RtnMsg: z.string().max(200).nullish(),
  RtnValue: z.union([TradeValue, z.literal(''), z.null()]).optional(),
});

/** zh-TW for staff; ECPay's RtnMsg tokens are documented on the query's page. */
const QUERY_ERRORS: Readonly<Record<string, string>> = {
  error_Stop: '綠界查無此商店，或商店合約已到期',
  error_nopay: '綠界查無這筆刷卡授權',
  error: '綠界查詢失敗（資料檢核未通過）',
};

/** The trade query answers JSON: RtnMsg empty and RtnValue filled on success. */
export function parseQueryReply(text: string): QueryReply {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, code: 'invalid_reply', message: '綠界的回應無法辨識' };
  }
  const parsed = QueryAnswer.safeParse(json);
  if (!parsed.success) return { ok: false, code: 'invalid_reply', message: '綠界的回應無法辨識' };
  const { RtnMsg, RtnValue } = parsed.data;
  if (RtnMsg) return { ok: false, code: RtnMsg, message: QUERY_ERRORS[RtnMsg] ?? `綠界查詢失敗：${RtnMsg}` };
  // ECPay's stage host answers every query this way: it has no card authorisations to report.
  if (!RtnValue) return { ok: false, code: 'no_value', message: '綠界沒有回傳這筆刷卡的資料' };
  const closeData = (RtnValue.close_data ?? []).map((row) => ({
    status: row.status,
    sno: row.sno,
    amount: row.amount,
    datetime: row.datetime,
  }));
  return {
    ok: true,
    trade: {
      authorisationNo: RtnValue.TradeID,
      amount: RtnValue.amount,
      closedAmount: RtnValue.clsamt,
      authorisedAt: RtnValue.authtime,
      status: RtnValue.status,
      stage: stageOf(RtnValue.status),
      closeData,
    },
  };
}

// ── which action a refund takes ──────────────────────────────────────────────────────────────

export interface RefundStep {
  readonly action: 'E' | 'N' | 'R';
  /** TotalAmount sent with this step. */
  readonly amount: number;
}

export type RefundRefusal =
  | 'invalid_amount'
  | 'nothing_left'
  | 'over_refund'
  | 'partial_before_close'
  | 'void'
  | 'in_progress'
  | 'manual';

/**
 * `amount` is what goes back to the card holder (what the shop books); `steps` are the DoAction
 * calls, in order. `action` names the decisive one: N when the authorisation is given up, R when
 * captured money is paid back.
 */
export type RefundPlan =
  | {
      readonly ok: true;
      readonly action: 'N' | 'R';
      readonly amount: number;
      readonly steps: readonly RefundStep[];
    }
  | { readonly ok: false; readonly reason: RefundRefusal; readonly message: string };

export interface RefundRequest {
  /** From the trade query (stageOf), never guessed from the clock: the daily close can be switched off, and fails at times. */
  readonly stage: CardStage;
  /** What the card paid, integer TWD (the authorised amount). */
  readonly paidAmount: number;
  /** What the shop has already refunded on this payment. */
  readonly alreadyRefunded: number;
  /** What staff want to refund now. */
  readonly amount: number;
}

const refuse = (reason: RefundRefusal, message: string): RefundPlan => ({ ok: false, reason, message });

/**
 * The action for a refund, or why there is none. The rules:
 * - never more than what is left (paid − already refunded), and nothing once nothing is left;
 * - before the capture is requested (authorised), ECPay can only give up the whole authorisation
 *   (N, sent with the whole authorised amount: a smaller TotalAmount still releases all of it). A
 *   partial refund is refused until the trade is captured — after the daily close (20:15 Taipei)
 *   or, if the merchant closes by hand, after an explicit C. The shop does not capture early to
 *   refund part: a C then R pair can fail half-way and leave the trade in neither state;
 * - capture requested (closing): part by R; the whole by E (undo the capture) then N, which is
 *   the order ECPay documents;
 * - captured (closed): R, partial or whole, repeated until nothing is left.
 */
export function planRefund(request: RefundRequest): RefundPlan {
  const { stage, paidAmount, alreadyRefunded, amount } = request;
  if (
    !isAmount(amount) ||
    !isAmount(paidAmount) ||
    !Number.isSafeInteger(alreadyRefunded) ||
    alreadyRefunded < 0
  ) {
    return refuse('invalid_amount', '退款金額必須是正整數（新臺幣元）。');
  }
  const remaining = paidAmount - alreadyRefunded;
  if (remaining <= 0) return refuse('nothing_left', '這筆刷卡已全數退款，沒有可退的金額。');
  if (amount > remaining)
    return refuse('over_refund', `退款金額超過可退餘額（尚可退 ${formatTwd(remaining)}）。`);
  switch (stage) {
    case 'authorised':
      if (amount !== remaining) {
        return refuse(
          'partial_before_close',
          '這筆刷卡尚未關帳（請款），綠界只能整筆取消授權；部分退款請於關帳後（每日晚上 8:30 以後）再辦理，或改為全額退款。',
        );
      }
      return { ok: true, action: 'N', amount, steps: [{ action: 'N', amount: paidAmount }] };
    case 'closing':
      if (amount === paidAmount && alreadyRefunded === 0) {
        return {
          ok: true,
          action: 'N',
          amount,
          steps: [
            { action: 'E', amount: paidAmount },
            { action: 'N', amount: paidAmount },
          ],
        };
      }
      return { ok: true, action: 'R', amount, steps: [{ action: 'R', amount }] };
    case 'closed':
      return { ok: true, action: 'R', amount, steps: [{ action: 'R', amount }] };
    case 'void':
      return refuse('void', '這筆刷卡的授權已取消，沒有可退的金額。');
    case 'in_progress':
      return refuse('in_progress', '綠界正在處理這筆刷卡的關帳或取消，請稍後再試。');
    case 'manual':
      return refuse('manual', '這筆刷卡在綠界的狀態需要人工確認，請到綠界廠商後台處理。');
  }
}

// ── a small client ───────────────────────────────────────────────────────────────────────────

/** Posts a form server to server and answers the response's text (lib/form-post.ts's formPoster fits). */
export type CardPost = (url: string, form: Record<string, string>) => Promise<string>;

export type RefundOutcome =
  | { readonly ok: true; readonly rtnMsg: string }
  | {
      readonly ok: false;
      readonly code: string;
      readonly message: string;
      readonly uncertain: boolean;
      readonly failedStep: CardAction;
      readonly done: readonly CardAction[];
    };

export interface CardActions {
  query(trade: Pick<CardTrade, 'gwsr' | 'amount'>): Promise<QueryReply>;
  act(
    trade: Pick<CardTrade, 'merchantTradeNo' | 'tradeNo'>,
    action: CardAction,
    amount: number,
  ): Promise<DoActionReply>;
  /**
   * Carries out a plan's steps in order and stops at the first that fails. When E succeeded and
   * N did not, the capture is undone but the authorisation still holds (the next daily close will
   * capture it again): `done` says so, and staff must finish by hand or try again.
   */
  refund(
    trade: Pick<CardTrade, 'merchantTradeNo' | 'tradeNo'>,
    plan: Extract<RefundPlan, { ok: true }>,
  ): Promise<RefundOutcome>;
}

export function cardActions(settings: CardSettings, post: CardPost): CardActions {
  const base = settings.host.replace(/\/+$/, '');

  async function act(
    trade: Pick<CardTrade, 'merchantTradeNo' | 'tradeNo'>,
    action: CardAction,
    amount: number,
  ): Promise<DoActionReply> {
    const fields = doActionFields(settings, {
      merchantTradeNo: trade.merchantTradeNo,
      tradeNo: trade.tradeNo,
      action,
      amount,
    });
    let text: string;
    try {
      text = await post(`${base}${DO_ACTION_PATH}`, fields);
    } catch {
      return { ok: false, code: 'unreachable', message: '無法連線到綠界', uncertain: true };
    }
    return parseDoActionReply(text, trade);
  }

  return {
    async query(trade) {
      const fields = queryFields(settings, trade);
      let text: string;
      try {
        text = await post(`${base}${QUERY_TRADE_PATH}`, fields);
      } catch {
        return { ok: false, code: 'unreachable', message: '無法連線到綠界' };
      }
      return parseQueryReply(text);
    },
    act,
    async refund(trade, plan) {
      const done: CardAction[] = [];
      let last = '';
      for (const step of plan.steps) {
        const reply = await act(trade, step.action, step.amount);
        if (!reply.ok) return { ...reply, failedStep: step.action, done };
        done.push(step.action);
        last = reply.rtnMsg;
      }
      return { ok: true, rtnMsg: last };
    },
  };
}
