import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { and, eq, like, or } from 'drizzle-orm';
import { formatTwd } from '@shop/shared/money';
import { ECPAY_STORE_LIMITS } from '@shop/shared/store-payments';
import { sandboxGatewayTrades, type StoreCode } from '../../../db/schema.ts';
import { ecpayDate } from '../ecpay/aio.ts';
import {
  escapeHtml as escape,
  hiddenFields as hidden,
  sandboxPage,
  sendPage,
} from '../../../lib/sandbox-page.ts';

type Form = Record<string, string>;

export interface StoreSandboxDeps {
  readonly merchantId: string;
  /** Adds the CheckMacValue. */
  readonly sign: (fields: Form) => Form;
  /** Posts a signed notice server to server, as ECPay does; answers the shop's reply. */
  readonly notify: (url: string, fields: Form) => Promise<string>;
  readonly now?: () => Date;
}

const page = (title: string, body: string, autoSubmit = false) =>
  sandboxPage({ gateway: '付款', title, body, autoSubmit });

/**
 * Why ECPay would refuse a CVS or BARCODE order's StoreExpireDate (minutes for a code, 1–43,200;
 * days for a barcode, 1–30); null when it is within the limits or absent (ECPay's defaults apply).
 */
export function storeExpireRefusal(form: Form): string | null {
  const raw = form.StoreExpireDate;
  if (raw === undefined || raw === '') return null;
  const limits = form.ChoosePayment === 'CVS' ? ECPAY_STORE_LIMITS.cvsCode : ECPAY_STORE_LIMITS.cvsBarcode;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < limits.minExpire || n > limits.maxExpire)
    return `StoreExpireDate 必須是 ${limits.minExpire}–${limits.maxExpire} 的整數（${form.ChoosePayment === 'CVS' ? '分鐘' : '天'}）`;
  return null;
}

/** The deadline of a new code: minutes for CVS (default 10,080), days for a barcode (default 7); or one minute, to try expiry. */
function expiryOf(form: Form, now: Date, soon: boolean): Date {
  if (soon) return new Date(now.getTime() + 60_000);
  const isCvs = form.ChoosePayment === 'CVS';
  const n = Number(form.StoreExpireDate || (isCvs ? 10_080 : 7));
  return new Date(now.getTime() + n * (isCvs ? 60_000 : 86_400_000));
}

const digits = (n: number) => Array.from({ length: n }, () => String(randomInt(0, 10))).join('');

/** A made-up code (ECPay's look: letters then digits, 14 at most) or three Code 39 barcodes. */
function issue(form: Form, amount: number, expire: Date): StoreCode {
  const expireDate = ecpayDate(expire);
  if (form.ChoosePayment === 'CVS') return { paymentNo: `LLL${digits(11)}`, barcodes: null, expireDate };
  const ymd = expireDate.slice(2, 10).replaceAll('/', '');
  return {
    paymentNo: null,
    barcodes: [
      `${ymd}6R1`,
      digits(16),
      `${expireDate.slice(5, 7)}${expireDate.slice(2, 4)}00${String(amount).padStart(9, '0')}`,
    ],
    expireDate,
  };
}

/**
 * The store side of the payment sandbox: a CVS code or three barcodes issued for an AIO order
 * (posted to PaymentInfoURL with RtnCode 10100073), a list of codes waiting at the "store" where a
 * tester pays one (the paid notice to ReturnURL) or lets it expire (it can no longer be paid; as at
 * ECPay, the shop hears nothing and its own deadline cancels the order).
 */
export function registerStoreSandbox(
  app: FastifyInstance,
  deps: StoreSandboxDeps,
): (form: Form, soon: boolean) => Promise<string> {
  const now = deps.now ?? (() => new Date());
  const html = sendPage;

  /** Issues the code of an AIO order the sandbox checked, tells the shop, and sends the browser back. */
  const issueCode = async (form: Form, soon: boolean): Promise<string> => {
    const at = now();
    const tradeNo = `${at.getTime()}${randomInt(1000, 9999)}`.slice(-20);
    const amount = Number(form.TotalAmount);
    const code = issue(form, amount, expiryOf(form, at, soon));
    const paymentType = form.ChoosePayment === 'CVS' ? 'CVS_CVS' : 'BARCODE_BARCODE';
    const info = deps.sign({
      MerchantID: form.MerchantID ?? '',
      MerchantTradeNo: form.MerchantTradeNo ?? '',
      StoreID: '',
      RtnCode: '10100073',
      RtnMsg: form.ChoosePayment === 'CVS' ? 'Get CVS Code Succeeded.' : 'Get Barcode Succeeded.',
      TradeNo: tradeNo,
      TradeAmt: String(amount),
      PaymentType: paymentType,
      TradeDate: form.MerchantTradeDate ?? ecpayDate(at),
      CustomField1: '',
      CustomField2: '',
      CustomField3: '',
      CustomField4: '',
      PaymentNo: code.paymentNo ?? '',
      ExpireDate: code.expireDate,
      Barcode1: code.barcodes?.[0] ?? '',
      Barcode2: code.barcodes?.[1] ?? '',
      Barcode3: code.barcodes?.[2] ?? '',
    });
    await app.db
      .insert(sandboxGatewayTrades)
      .values({
        merchantTradeNo: form.MerchantTradeNo ?? '',
        tradeNo,
        amount,
        paymentType,
        expireDate: code.expireDate,
        store: code,
        returnUrl: form.ReturnURL ?? '',
        status: 'waiting',
      })
      .onConflictDoNothing();
    const answer = form.PaymentInfoURL ? await deps.notify(form.PaymentInfoURL, info) : 'no PaymentInfoURL';
    const back = form.ClientRedirectURL ?? form.OrderResultURL;
    const what = code.barcodes
      ? `<dt>條碼</dt><dd class="account">${code.barcodes.map(escape).join('<br>')}</dd>`
      : `<dt>繳費代碼</dt><dd class="account">${escape(code.paymentNo ?? '')}</dd>`;
    const body = `<h1>${code.barcodes ? '超商條碼已產生' : '超商代碼已產生'}</h1><dl>${what}<dt>金額</dt><dd>${escape(formatTwd(amount))}</dd><dt>繳費期限</dt><dd>${escape(code.expireDate)}</dd><dt>商店回應</dt><dd>${escape(answer)}</dd></dl>
${back ? `<form method="post" action="${escape(back)}">${hidden(info)}<button type="submit">返回商店</button></form>` : ''}<p><a href="/sandbox/ecpay/store">到「模擬超商繳費」頁</a></p>`;
    return page(code.barcodes ? '超商條碼' : '超商代碼', body, Boolean(back));
  };

  app.get('/sandbox/ecpay/store', async (_request, reply) => {
    const waiting = await app.db
      .select()
      .from(sandboxGatewayTrades)
      .where(
        and(
          eq(sandboxGatewayTrades.status, 'waiting'),
          or(
            like(sandboxGatewayTrades.paymentType, 'CVS%'),
            like(sandboxGatewayTrades.paymentType, 'BARCODE%'),
          ),
        ),
      );
    const button = (action: string, t: { merchantTradeNo: string }, label: string, cls = '') =>
      `<form method="post" action="/sandbox/ecpay/store/${action}"><input type="hidden" name="merchantTradeNo" value="${escape(t.merchantTradeNo)}"><button type="submit"${cls ? ` class="${cls}"` : ''}>${label}</button></form>`;
    const rows = waiting
      .map((t) => {
        const code = t.store;
        const ref = code?.barcodes ? code.barcodes.join('<br>') : (code?.paymentNo ?? '');
        return `<tr data-trade="${escape(t.merchantTradeNo)}"><td>${escape(t.merchantTradeNo)}</td><td class="account">${ref}</td><td>${escape(formatTwd(t.amount))}</td><td>${escape(t.expireDate ?? '')}</td>
<td><div class="row">${button('pay', t, '模擬到超商繳費')}${button('expire', t, '讓它逾期', 'secondary')}</div></td></tr>`;
      })
      .join('');
    return html(
      reply,
      200,
      sandboxPage({
        gateway: '付款',
        title: '模擬超商繳費',
        wide: true,
        body: `<h1>等待繳費的超商代碼與條碼</h1>${rows ? `<table><tr><th>訂單</th><th>代碼／條碼</th><th>金額</th><th>繳費期限</th><th></th></tr>${rows}</table>` : '<p>目前沒有等待繳費的代碼。</p>'}`,
      }),
    );
  });

  async function waitingTrade(merchantTradeNo: string) {
    const [trade] = await app.db
      .select()
      .from(sandboxGatewayTrades)
      .where(eq(sandboxGatewayTrades.merchantTradeNo, merchantTradeNo))
      .limit(1);
    return trade?.store && trade.status === 'waiting' ? trade : null;
  }
  const back = '<p><a href="/sandbox/ecpay/store">回列表</a></p>';

  app.post('/sandbox/ecpay/store/pay', async (request, reply) => {
    const { merchantTradeNo = '' } = (request.body ?? {}) as Form;
    const trade = await waitingTrade(merchantTradeNo);
    if (!trade) return html(reply, 404, page('找不到', `<h1>找不到等待繳費的代碼</h1>${back}`));
    const deadline = new Date(`${(trade.expireDate ?? '').replaceAll('/', '-').replace(' ', 'T')}+08:00`);
    if (!(deadline.getTime() > now().getTime()))
      return html(reply, 409, page('已逾期', `<h1>繳費期限已過</h1><p>超商不收逾期的代碼。</p>${back}`));
    const answer = await settlePaid(app, deps, trade, now(), {
      // NeedExtraPaidInfo=Y: where it was paid, and the code itself for CVS.
      PayFrom: ['ibon', 'family', 'hilife', 'okmart'][randomInt(0, 4)]!,
      ...(trade.store?.paymentNo ? { PaymentNo: trade.store.paymentNo } : {}),
    });
    return html(
      reply,
      200,
      page('已繳費', `<h1>已模擬超商繳費</h1><p>商店回應：${escape(answer)}</p>${back}`),
    );
  });

  app.post('/sandbox/ecpay/store/expire', async (request, reply) => {
    const { merchantTradeNo = '' } = (request.body ?? {}) as Form;
    const trade = await waitingTrade(merchantTradeNo);
    if (!trade) return html(reply, 404, page('找不到', `<h1>找不到等待繳費的代碼</h1>${back}`));
    await app.db
      .update(sandboxGatewayTrades)
      .set({ status: 'expired' })
      .where(eq(sandboxGatewayTrades.merchantTradeNo, trade.merchantTradeNo));
    return html(
      reply,
      200,
      page(
        '已逾期',
        `<h1>代碼已設為逾期</h1><p>這組代碼不能再繳費。和綠界一樣，測試閘道不會通知商店；商店會在繳費期限（${escape(trade.expireDate ?? '')}）過後自動取消訂單並放回庫存。</p>${back}`,
      ),
    );
  });
  return issueCode;
}

/**
 * Pays a trade the sandbox issued (an ATM transfer, a store payment): posts ECPay's signed paid
 * notice to the shop and marks the trade paid once the shop answered 1|OK. Answers the shop's reply.
 */
export async function settlePaid(
  app: FastifyInstance,
  deps: Pick<StoreSandboxDeps, 'merchantId' | 'sign' | 'notify'>,
  trade: typeof sandboxGatewayTrades.$inferSelect,
  at: Date,
  extra: Form = {},
): Promise<string> {
  const answer = await deps.notify(trade.returnUrl, deps.sign(paidNotice(deps.merchantId, trade, at, extra)));
  if (answer === '1|OK')
    await app.db
      .update(sandboxGatewayTrades)
      .set({ status: 'paid' })
      .where(eq(sandboxGatewayTrades.merchantTradeNo, trade.merchantTradeNo));
  return answer;
}

/** ECPay's paid notice (ReturnURL, RtnCode 1) for a trade the sandbox issued (ATM account or store code). */
function paidNotice(
  merchantId: string,
  trade: { merchantTradeNo: string; tradeNo: string; amount: number; paymentType: string; createdAt: Date },
  at: Date,
  extra: Form = {},
): Form {
  return {
    MerchantID: merchantId,
    MerchantTradeNo: trade.merchantTradeNo,
    StoreID: '',
    RtnCode: '1',
    RtnMsg: '交易成功',
    TradeNo: trade.tradeNo,
    TradeAmt: String(trade.amount),
    PaymentDate: ecpayDate(at),
    PaymentType: trade.paymentType,
    PaymentTypeChargeFee: trade.paymentType.startsWith('ATM') ? '10' : '30',
    TradeDate: ecpayDate(trade.createdAt),
    SimulatePaid: '0',
    CustomField1: '',
    CustomField2: '',
    CustomField3: '',
    CustomField4: '',
    ...extra,
  };
}
