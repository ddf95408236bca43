import { randomInt } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { and, eq, like } from 'drizzle-orm';
import { formatTwd } from '@shop/shared/money';
import { sandboxCardTrades, sandboxGatewayTrades } from '../../../db/schema.ts';
import type { Db } from '../../../db/client.ts';
import cardActionSandbox, {
  authoriseTrade,
  type SandboxCardTrade,
  type SandboxTrades,
} from './card-action.ts';
import { ecpayDate } from '../ecpay/aio.ts';
import { checkMacValue, verifyCheckMacValue } from '../../../lib/ecpay-check-mac.ts';
import { escapeHtml, hiddenFields, sandboxPage, sendPage } from '../../../lib/sandbox-page.ts';
import { acceptForms } from '../../../lib/form-post.ts';
import { installmentWords } from '@shop/shared/store-payments';
import { registerStoreSandbox, settlePaid, storeExpireRefusal } from './store.ts';

type Form = Record<string, string>;

const escape = escapeHtml;
const hidden = hiddenFields;
const page = (title: string, body: string, autoSubmit = false) =>
  sandboxPage({ gateway: '付款', title, body, autoSubmit });

/** The card sandbox's trades in the database, so a refund after a restart still finds its payment. */
export function dbTrades(db: Db): SandboxTrades {
  const revive = (row: { trade: Record<string, unknown> } | undefined): SandboxCardTrade | undefined => {
    if (!row) return undefined;
    const t = row.trade as unknown as SandboxCardTrade & { authorisedAt: string; closedAt?: string };
    return {
      ...t,
      authorisedAt: new Date(t.authorisedAt),
      ...(t.closedAt ? { closedAt: new Date(t.closedAt) } : {}),
    };
  };
  return {
    async get(tradeNo) {
      return revive(
        (await db.select().from(sandboxCardTrades).where(eq(sandboxCardTrades.tradeNo, tradeNo)).limit(1))[0],
      );
    },
    async set(trade) {
      const value = JSON.parse(JSON.stringify(trade)) as Record<string, unknown>;
      await db
        .insert(sandboxCardTrades)
        .values({ tradeNo: trade.tradeNo, gwsr: trade.gwsr, trade: value })
        .onConflictDoUpdate({ target: sandboxCardTrades.tradeNo, set: { trade: value } });
    },
    async findByGwsr(gwsr) {
      return revive(
        (await db.select().from(sandboxCardTrades).where(eq(sandboxCardTrades.gwsr, gwsr)).limit(1))[0],
      );
    },
  };
}

/**
 * A payment gateway that speaks ECPay's AIO protocol, for trying the shop without ECPay: it
 * checks the incoming form's CheckMacValue, offers "pay" and "fail" (and an ATM account), sends the
 * signed notification server to server to ReturnURL, then returns the browser to OrderResultURL.
 * Registered only outside production and only when ECPAY_ENDPOINT is not set.
 */
const sandbox: FastifyPluginAsync = async (app) => {
  if (app.config.isProduction) throw new Error('the sandbox payment gateway must never run in production');
  if (!app.config.isTest)
    app.log.info(
      `payments: no ECPAY_ENDPOINT, so checkout uses the built-in sandbox gateway (${app.config.publicUrl}/sandbox/ecpay/aio); simulate ATM transfers at ${app.config.publicUrl}/sandbox/ecpay/atm and store payments at ${app.config.publicUrl}/sandbox/ecpay/store`,
    );
  const { hashKey, hashIV } = app.config.ecpay;
  acceptForms(app, 64 * 1024);
  const trades = dbTrades(app.db);
  // Card refunds (DoAction, QueryTrade/V2) against the same trades. A sandbox payment counts as
  // settled at once (ECPay closes daily), so refunds take the R path; the N path is unit-tested.
  await app.register(cardActionSandbox, {
    prefix: '/sandbox/ecpay',
    settings: app.config.ecpay,
    trades,
    settleAfterMs: 0,
  });
  const html = sendPage;
  const sign = (fields: Form): Form => ({ ...fields, CheckMacValue: checkMacValue(fields, hashKey, hashIV) });

  /** Server to server, as ECPay does; the shop must answer 1|OK. */
  async function notify(url: string, fields: Form): Promise<string> {
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
        signal: AbortSignal.timeout(10_000),
      });
      return (await res.text()).trim();
    } catch (error) {
      app.log.error({ err: error, url }, 'sandbox gateway: notification failed');
      return 'no answer';
    }
  }

  const issueStoreCode = registerStoreSandbox(app, { merchantId: app.config.ecpay.merchantId, sign, notify });

  app.get('/sandbox/ecpay/auto-submit.js', async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send('document.forms[0] && document.forms[0].submit();\n'),
  );

  app.post('/sandbox/ecpay/aio', async (request, reply) => {
    const form = (request.body ?? {}) as Form;
    if (!form.CheckMacValue || !verifyCheckMacValue(form, hashKey, hashIV)) {
      return html(
        reply,
        400,
        page(
          '檢查碼錯誤',
          '<h1>CheckMacValue 驗證失敗</h1><p>送來的付款資料不完整或被竄改，交易未建立。</p>',
        ),
      );
    }
    const amount = Number(form.TotalAmount);
    const payload = Buffer.from(JSON.stringify(form)).toString('base64url');
    const isAtm = form.ChoosePayment === 'ATM';
    const isStore = form.ChoosePayment === 'CVS' || form.ChoosePayment === 'BARCODE';
    const terms = Number(form.CreditInstallment ?? '');
    const expireRefusal = isStore ? storeExpireRefusal(form) : null;
    if (expireRefusal)
      return html(reply, 400, page('參數錯誤', `<h1>參數錯誤</h1><p>${escape(expireRefusal)}</p>`));
    const button = (outcome: string, label: string, cls = '') =>
      `<form method="post" action="/sandbox/ecpay/complete"><input type="hidden" name="payload" value="${payload}"><input type="hidden" name="outcome" value="${outcome}"><button type="submit"${cls ? ` class="${cls}"` : ''}>${label}</button></form>`;
    const title = isAtm
      ? 'ATM 虛擬帳號轉帳'
      : form.ChoosePayment === 'CVS'
        ? '超商代碼繳費'
        : form.ChoosePayment === 'BARCODE'
          ? '超商條碼繳費'
          : terms
            ? '信用卡分期付款'
            : '信用卡付款';
    const body = `<h1>${title}</h1>
<dl><dt>商店代號</dt><dd>${escape(form.MerchantID ?? '')}</dd><dt>訂單編號</dt><dd>${escape(form.MerchantTradeNo ?? '')}</dd>
<dt>商品</dt><dd>${escape((form.ItemName ?? '').replaceAll('#', '、'))}</dd><dt>金額</dt><dd class="amount">${escape(formatTwd(amount))}</dd>${
      terms
        ? `<dt>分期</dt><dd data-testid="sandbox-installments">${escape(installmentWords(amount, terms))}</dd>`
        : ''
    }${isStore ? `<dt>繳費期限</dt><dd>${escape(form.StoreExpireDate ?? '')} ${form.ChoosePayment === 'CVS' ? '分鐘' : '天'}</dd>` : ''}</dl>
<div class="row">${
      isAtm
        ? button('atm', '取得虛擬帳號')
        : isStore
          ? `${button('store', form.ChoosePayment === 'CVS' ? '取得繳費代碼' : '取得繳費條碼')}${button('store-soon', '取得（1 分鐘後逾期，測試用）', 'secondary')}`
          : `${button('pay', '付款')}${button('fail', '模擬付款失敗', 'secondary')}`
    }</div>`;
    return html(reply, 200, page(title, body));
  });

  app.post('/sandbox/ecpay/complete', async (request, reply) => {
    const { payload = '', outcome = '' } = (request.body ?? {}) as Form;
    let form: Form;
    try {
      form = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Form;
    } catch {
      return html(reply, 400, page('資料錯誤', '<h1>付款資料錯誤</h1>'));
    }
    if (
      !verifyCheckMacValue(form, hashKey, hashIV) ||
      !['pay', 'fail', 'atm', 'store', 'store-soon'].includes(outcome)
    ) {
      return html(reply, 400, page('檢查碼錯誤', '<h1>CheckMacValue 驗證失敗</h1>'));
    }
    if (outcome === 'store' || outcome === 'store-soon')
      return html(reply, 200, await issueStoreCode(form, outcome === 'store-soon'));
    const now = new Date();
    const tradeNo = `${now.getTime()}${randomInt(1000, 9999)}`.slice(-20);
    const common = {
      MerchantID: form.MerchantID ?? '',
      MerchantTradeNo: form.MerchantTradeNo ?? '',
      StoreID: '',
      TradeNo: tradeNo,
      TradeAmt: form.TotalAmount ?? '',
      TradeDate: form.MerchantTradeDate ?? ecpayDate(now),
      CustomField1: '',
      CustomField2: '',
      CustomField3: '',
      CustomField4: '',
    };

    if (outcome === 'atm') {
      const days = Number(form.ExpireDate ?? 3) || 3;
      const expire = ecpayDate(new Date(now.getTime() + days * 86_400_000)).slice(0, 10);
      const account = `9${String(randomInt(0, 10 ** 9)).padStart(9, '0')}${String(randomInt(0, 10 ** 4)).padStart(4, '0')}`;
      const info = sign({
        ...common,
        RtnCode: '2',
        RtnMsg: 'Get VirtualAccount Succeeded',
        PaymentType: 'ATM_TAISHIN',
        BankCode: '812',
        vAccount: account,
        ExpireDate: expire,
      });
      await app.db
        .insert(sandboxGatewayTrades)
        .values({
          merchantTradeNo: common.MerchantTradeNo,
          tradeNo,
          amount: Number(common.TradeAmt),
          paymentType: 'ATM_TAISHIN',
          bankCode: '812',
          vAccount: account,
          expireDate: expire,
          returnUrl: form.ReturnURL ?? '',
          status: 'waiting',
        })
        .onConflictDoNothing();
      const answer = form.PaymentInfoURL ? await notify(form.PaymentInfoURL, info) : 'no PaymentInfoURL';
      const back = form.ClientRedirectURL ?? form.OrderResultURL;
      const body = `<h1>虛擬帳號已產生</h1><dl><dt>銀行代碼</dt><dd>812（台新銀行）</dd><dt>虛擬帳號</dt><dd class="account">${account}</dd><dt>金額</dt><dd>${escape(formatTwd(Number(common.TradeAmt)))}</dd><dt>繳費期限</dt><dd>${expire}</dd><dt>商店回應</dt><dd>${escape(answer)}</dd></dl>
${back ? `<form method="post" action="${escape(back)}">${hidden(info)}<button type="submit">返回商店</button></form>` : ''}<p><a href="/sandbox/ecpay/atm">到「模擬 ATM 入帳」頁</a></p>`;
      return html(reply, 200, page('虛擬帳號', body, Boolean(back)));
    }

    const paid = outcome === 'pay';
    // A card payment is an authorisation the card-action sandbox can later give up or refund.
    const gwsr = String(randomInt(10_000_000, 99_999_999));
    const terms = Number(form.CreditInstallment ?? '') || 0;
    if (paid)
      await authoriseTrade(trades, {
        merchantTradeNo: common.MerchantTradeNo,
        tradeNo,
        gwsr,
        amount: Number(common.TradeAmt),
        at: now,
        ...(terms ? { installments: terms } : {}),
      });
    // An instalment payment's extra fields (NeedExtraPaidInfo=Y): stage (the term), stast (the
    // first instalment) and staed (each of the others); what does not divide goes on the first.
    const each = terms ? Math.floor(Number(common.TradeAmt) / terms) : 0;
    const staging: Form = terms
      ? {
          stage: String(terms),
          stast: String(Number(common.TradeAmt) - each * (terms - 1)),
          staed: String(each),
        }
      : {};
    const result = sign({
      ...(paid && form.NeedExtraPaidInfo === 'Y'
        ? {
            gwsr,
            auth_code: String(randomInt(100_000, 999_999)),
            card4no: '2222',
            card6no: '431195',
            process_date: ecpayDate(now),
            ...staging,
          }
        : {}),
      ...common,
      RtnCode: paid ? '1' : '10100058',
      RtnMsg: paid ? '交易成功' : '付款失敗（測試閘道模擬）',
      PaymentDate: paid ? ecpayDate(now) : '',
      PaymentType: 'Credit_CreditCard',
      PaymentTypeChargeFee: paid ? String(Math.round(Number(common.TradeAmt) * 0.0275)) : '0',
      SimulatePaid: '0',
    });
    const answer = form.ReturnURL ? await notify(form.ReturnURL, result) : 'no ReturnURL';
    const body = `<h1>${paid ? '付款完成' : '付款失敗'}</h1><p>已通知商店（回應：${escape(answer)}），正在返回商店…</p>
${form.OrderResultURL ? `<form method="post" action="${escape(form.OrderResultURL)}">${hidden(result)}<button type="submit">返回商店</button></form>` : ''}`;
    return html(reply, 200, page(paid ? '付款完成' : '付款失敗', body, Boolean(form.OrderResultURL)));
  });

  app.get('/sandbox/ecpay/atm', async (_request, reply) => {
    const waiting = await app.db
      .select()
      .from(sandboxGatewayTrades)
      .where(and(eq(sandboxGatewayTrades.status, 'waiting'), like(sandboxGatewayTrades.paymentType, 'ATM%')));
    const rows = waiting
      .map(
        (
          t,
        ) => `<tr><td>${escape(t.merchantTradeNo)}</td><td class="account">${escape(t.vAccount ?? '')}</td><td>${escape(formatTwd(t.amount))}</td>
<td><form method="post" action="/sandbox/ecpay/atm/transfer"><input type="hidden" name="merchantTradeNo" value="${escape(t.merchantTradeNo)}"><button type="submit">模擬完成轉帳</button></form></td></tr>`,
      )
      .join('');
    return html(
      reply,
      200,
      page(
        '模擬 ATM 入帳',
        `<h1>等待轉帳的虛擬帳號</h1>${rows ? `<table><tr><th>訂單</th><th>帳號</th><th>金額</th><th></th></tr>${rows}</table>` : '<p>目前沒有等待轉帳的帳號。</p>'}`,
      ),
    );
  });

  app.post('/sandbox/ecpay/atm/transfer', async (request, reply) => {
    const { merchantTradeNo = '' } = (request.body ?? {}) as Form;
    const [trade] = await app.db
      .select()
      .from(sandboxGatewayTrades)
      .where(eq(sandboxGatewayTrades.merchantTradeNo, merchantTradeNo))
      .limit(1);
    if (!trade || trade.status !== 'waiting')
      return html(
        reply,
        404,
        page('找不到', '<h1>找不到等待轉帳的帳號</h1><p><a href="/sandbox/ecpay/atm">回列表</a></p>'),
      );
    const answer = await settlePaid(
      app,
      { merchantId: app.config.ecpay.merchantId, sign, notify },
      trade,
      new Date(),
    );
    return html(
      reply,
      200,
      page(
        '已入帳',
        `<h1>已模擬轉帳入帳</h1><p>商店回應：${escape(answer)}</p><p><a href="/sandbox/ecpay/atm">回列表</a></p>`,
      ),
    );
  });
};

export default sandbox;
