import type { FastifyInstance, FastifyReply } from 'fastify';
import { verifyCheckMacValue } from '../../../lib/ecpay-check-mac.ts';
import { ecpayDate } from '../../../lib/ecpay-date.ts';
import { acceptForms, formOf } from '../../../lib/form-post.ts';
import { DO_ACTION_PATH, QUERY_TRADE_PATH } from '../ecpay/card-action.ts';

/**
 * ECPay's card actions (/CreditDetail/DoAction) and trade query (/CreditDetail/QueryTrade/V2),
 * imitated for running and testing the shop's refunds without ECPay — whose stage host cannot do
 * either. Trades live in an injected store; one is authorised, then settled (ECPay's daily close)
 * after a set delay or when a test says so. What it imitates and what it leaves out:
 * docs/integrations/ecpay-card-refunds.md.
 */

/** Where a sandbox card payment stands. */
export type SandboxCardState = 'authorised' | 'closing' | 'closed' | 'abandoned';

export interface SandboxCardTrade {
  readonly merchantTradeNo: string;
  /** ECPay's TradeNo. */
  readonly tradeNo: string;
  /** The authorisation number (gwsr, the query's CreditRefundId): digits, an Int in ECPay's answers. */
  readonly gwsr: string;
  /** Authorised amount, integer TWD. */
  readonly amount: number;
  readonly authorisedAt: Date;
  readonly state: SandboxCardState;
  /** What is (to be) captured, after refunds: the query's clsamt. */
  readonly closedAmount: number;
  /** Paid back by R so far. */
  readonly refunded: number;
  /** An E undid a capture: ECPay then reports 操作取消 rather than 已授權. */
  readonly closeCancelled: boolean;
  readonly closedAt?: Date;
  /** An instalment payment (分期期數): ECPay refunds it only in full. */
  readonly installments?: number;
}

/** Sandbox card trades by ECPay TradeNo, and by authorisation number for the query. */
export interface SandboxTrades {
  get(tradeNo: string): Promise<SandboxCardTrade | undefined>;
  set(trade: SandboxCardTrade): Promise<void>;
  findByGwsr(gwsr: string): Promise<SandboxCardTrade | undefined>;
}

export interface AuthoriseInput {
  readonly merchantTradeNo: string;
  readonly tradeNo: string;
  readonly gwsr: string;
  readonly amount: number;
  readonly at?: Date;
  readonly installments?: number;
}

/** Records a fresh authorisation, as the sandbox's checkout would after a card payment. */
export async function authoriseTrade(
  trades: SandboxTrades,
  input: AuthoriseInput,
): Promise<SandboxCardTrade> {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0)
    throw new Error('amount must be a positive integer of TWD');
  if (!/^\d{1,15}$/.test(input.gwsr)) throw new Error('gwsr must be 1–15 digits');
  const trade: SandboxCardTrade = {
    merchantTradeNo: input.merchantTradeNo,
    tradeNo: input.tradeNo,
    gwsr: input.gwsr,
    amount: input.amount,
    authorisedAt: input.at ?? new Date(),
    state: 'authorised',
    closedAmount: 0,
    refunded: 0,
    closeCancelled: false,
    ...(input.installments ? { installments: input.installments } : {}),
  };
  await trades.set(trade);
  return trade;
}

/** What ECPay's daily close does to a trade: an authorised one is captured whole, a requested capture is settled. */
function settled(trade: SandboxCardTrade, at: Date): SandboxCardTrade {
  if (trade.state === 'authorised')
    return { ...trade, state: 'closed', closedAmount: trade.amount, closeCancelled: false, closedAt: at };
  if (trade.state === 'closing') return { ...trade, state: 'closed', closedAt: at };
  return trade;
}

/** Settles one trade now (ECPay's daily close, for tests that choose when it happens); false for an unknown trade. */
export async function settleTrade(
  trades: SandboxTrades,
  tradeNo: string,
  at: Date = new Date(),
): Promise<boolean> {
  const trade = await trades.get(tradeNo);
  if (!trade) return false;
  await trades.set(settled(trade, at));
  return true;
}

export interface MemoryTrades extends SandboxTrades {
  authorise(input: AuthoriseInput): Promise<SandboxCardTrade>;
  settle(tradeNo: string, at?: Date): Promise<boolean>;
}

/** An in-memory store, for tests and for a development server that forgets on restart. */
export function memoryTrades(): MemoryTrades {
  const byTradeNo = new Map<string, SandboxCardTrade>();
  const store: MemoryTrades = {
    async get(tradeNo) {
      return byTradeNo.get(tradeNo);
    },
    async set(trade) {
      byTradeNo.set(trade.tradeNo, trade);
    },
    async findByGwsr(gwsr) {
      for (const trade of byTradeNo.values()) if (trade.gwsr === gwsr) return trade;
      return undefined;
    },
    authorise: (input) => authoriseTrade(store, input),
    settle: (tradeNo, at) => settleTrade(store, tradeNo, at),
  };
  return store;
}

/**
 * The sandbox's own failure codes. ECPay publishes its code table only in its back office, so
 * these are not ECPay's numbers: the shop must treat every RtnCode other than 1 as a refusal,
 * whatever the number.
 */
export const SANDBOX_RTN_CODES = {
  checkMac: '90000001',
  merchant: '90000002',
  params: '90000003',
  noTrade: '90000004',
  state: '90000005',
  amount: '90000006',
} as const;

export interface CardSandboxOptions {
  readonly settings: {
    readonly merchantId: string;
    readonly hashKey: string;
    readonly hashIV: string;
    readonly creditCheckCode?: string;
  };
  readonly trades: SandboxTrades;
  /** True while the gateway should be "down": every call answers 503. */
  readonly down?: () => boolean;
  /** A trade settles this long after its authorisation (ECPay closes daily); without it, only settleTrade does. */
  readonly settleAfterMs?: number;
  readonly now?: () => Date;
}

type Form = Record<string, string>;
const echo = (value: string | undefined) => (value && /^[A-Za-z0-9]{1,20}$/.test(value) ? value : '');
type Refusal = { readonly code: string; readonly message: string };

const refusal = (code: keyof typeof SANDBOX_RTN_CODES, message: string): Refusal => ({
  code: SANDBOX_RTN_CODES[code],
  message,
});

/** The status and close records ECPay's query would report for a trade. */
function reported(trade: SandboxCardTrade): {
  status: string;
  closeData: Array<{ status: string; sno: string; amount: number; datetime: string }>;
} {
  const row = (status: string, amount: number) => [
    { status, sno: '1', amount, datetime: ecpayDate(trade.closedAt ?? trade.authorisedAt) },
  ];
  switch (trade.state) {
    case 'authorised':
      return trade.closeCancelled
        ? { status: '操作取消', closeData: row('操作取消', 0) }
        : { status: '已授權', closeData: [] };
    case 'closing':
      return { status: '要關帳', closeData: row('要關帳', trade.closedAmount) };
    case 'closed':
      return { status: '已關帳', closeData: row('已關帳', trade.closedAmount) };
    case 'abandoned':
      return { status: '已取消', closeData: [] };
  }
}

/**
 * Registers POST {prefix}/CreditDetail/DoAction and POST {prefix}/CreditDetail/QueryTrade/V2 in its
 * own encapsulated context (register it with the prefix the shop's card host points at, e.g.
 * /sandbox/ecpay). Never for production: it pays nobody back.
 */
export default async function cardActionSandbox(
  app: FastifyInstance,
  opts: CardSandboxOptions,
): Promise<void> {
  const { settings, trades } = opts;
  const now = opts.now ?? (() => new Date());
  // ECPay posts forms; a parent context may already take them (the payment sandbox does).
  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) acceptForms(app, 16 * 1024);

  const unavailable = (reply: FastifyReply) =>
    reply
      .code(503)
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'no-store')
      .send('Service Unavailable');

  /** The trade as it stands now: past the settlement delay, it has been closed. */
  async function current(trade: SandboxCardTrade | undefined): Promise<SandboxCardTrade | undefined> {
    if (
      !trade ||
      opts.settleAfterMs === undefined ||
      (trade.state !== 'authorised' && trade.state !== 'closing')
    )
      return trade;
    const due = trade.authorisedAt.getTime() + opts.settleAfterMs;
    if (now().getTime() < due) return trade;
    const next = settled(trade, new Date(due));
    await trades.set(next);
    return next;
  }

  /** Applies an action to a trade, or says why ECPay would refuse it. */
  function apply(trade: SandboxCardTrade, action: string, amount: number): SandboxCardTrade | Refusal {
    switch (action) {
      case 'C':
        if (trade.state !== 'authorised') return refusal('state', '此交易狀態無法關帳');
        if (amount !== trade.amount) return refusal('amount', '關帳金額與授權金額不符');
        return { ...trade, state: 'closing', closedAmount: amount, closeCancelled: false, closedAt: now() };
      case 'R':
        if (trade.state === 'authorised') return refusal('state', '交易尚未關帳，無法退刷；請改用放棄（N）');
        if (trade.state !== 'closing' && trade.state !== 'closed')
          return refusal('state', '此交易狀態無法退刷');
        if (amount > trade.closedAmount) return refusal('amount', '退刷金額超過可退金額');
        // ECPay's card action page: instalment (and bonus-point) trades are refunded only in full.
        if (trade.installments && (amount !== trade.amount || trade.refunded > 0))
          return refusal('amount', '分期交易僅能全額退刷');
        return { ...trade, closedAmount: trade.closedAmount - amount, refunded: trade.refunded + amount };
      case 'E':
        if (trade.state !== 'closing') return refusal('state', '此交易沒有可取消的關帳');
        if (amount !== trade.closedAmount) return refusal('amount', '取消金額與關帳金額不符');
        return { ...trade, state: 'authorised', closedAmount: 0, closeCancelled: true };
      case 'N':
        if (trade.state === 'closed') return refusal('state', '交易已關帳，無法放棄；請改用退刷（R）');
        if (trade.state === 'closing') return refusal('state', '交易已要求關帳，請先取消關帳（E）再放棄');
        if (trade.state !== 'authorised') return refusal('state', '此交易已放棄或取消');
        // ECPay is reported to release the whole authorisation whatever TotalAmount says; the
        // sandbox insists on the whole amount so a shop that means "part" is caught here.
        if (amount !== trade.amount) return refusal('amount', '放棄必須是整筆授權金額');
        return { ...trade, state: 'abandoned', closedAmount: 0 };
      default:
        return refusal('params', '執行動作（Action）錯誤');
    }
  }

  app.post(DO_ACTION_PATH, async (request, reply) => {
    if (opts.down?.()) return unavailable(reply);
    const form: Form = formOf(request);
    const answer = (fields: { RtnCode: string; RtnMsg: string }) =>
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        // Only numbers in their own shape are echoed back: a 64 KB "trade number" is not repeated.
        .send(
          new URLSearchParams({
            MerchantID: settings.merchantId,
            MerchantTradeNo: echo(form.MerchantTradeNo),
            TradeNo: echo(form.TradeNo),
            ...fields,
          }).toString(),
        );
    const refuseWith = (r: Refusal) => answer({ RtnCode: r.code, RtnMsg: r.message });

    if (!form.CheckMacValue || !verifyCheckMacValue(form, settings.hashKey, settings.hashIV))
      return refuseWith(refusal('checkMac', 'CheckMacValue 驗證失敗'));
    if (form.MerchantID !== settings.merchantId)
      return refuseWith(refusal('merchant', '商店代號（MerchantID）錯誤'));
    const amount = Number(form.TotalAmount);
    if (!/^\d{1,9}$/.test(form.TotalAmount ?? '') || amount < 1)
      return refuseWith(refusal('params', '金額（TotalAmount）錯誤'));
    if (!form.Action || !['C', 'R', 'E', 'N'].includes(form.Action))
      return refuseWith(refusal('params', '執行動作（Action）錯誤'));
    const trade = await current(await trades.get(form.TradeNo ?? ''));
    if (!trade || trade.merchantTradeNo !== form.MerchantTradeNo)
      return refuseWith(refusal('noTrade', '查無此筆交易'));

    const next = apply(trade, form.Action, amount);
    if ('code' in next) return refuseWith(next);
    await trades.set(next);
    return answer({ RtnCode: '1', RtnMsg: 'Succeeded.' });
  });

  app.post(QUERY_TRADE_PATH, async (request, reply) => {
    if (opts.down?.()) return unavailable(reply);
    const form: Form = formOf(request);
    reply.type('application/json; charset=utf-8').header('cache-control', 'no-store');
    const fail = (rtnMsg: string) => ({ RtnMsg: rtnMsg, RtnValue: null });
    if (!form.CheckMacValue || !verifyCheckMacValue(form, settings.hashKey, settings.hashIV))
      return fail('error');
    if (form.MerchantID !== settings.merchantId) return fail('error_Stop');
    if (settings.creditCheckCode !== undefined && form.CreditCheckCode !== settings.creditCheckCode)
      return fail('error');
    if (!/^\d{1,20}$/.test(form.CreditRefundId ?? '') || !/^\d{1,9}$/.test(form.CreditAmount ?? ''))
      return fail('error');
    const trade = await current(await trades.findByGwsr(form.CreditRefundId ?? ''));
    if (!trade || trade.amount !== Number(form.CreditAmount)) return fail('error_nopay');
    const { status, closeData } = reported(trade);
    return {
      RtnMsg: '',
      RtnValue: {
        TradeID: Number(trade.gwsr),
        amount: trade.amount,
        clsamt: trade.closedAmount,
        authtime: ecpayDate(trade.authorisedAt),
        status,
        close_data: closeData,
      },
    };
  });
}
