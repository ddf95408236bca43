import { randomInt } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { formatTwd } from '@shop/shared/money';
import { sandboxLinePayTransactions } from '../../../db/schema.ts';
import type { Db } from '../../../db/client.ts';
import { acceptForms, ownFetch } from '../../../lib/form-post.ts';
import { escapeHtml } from '../../../lib/sandbox-page.ts';
import type { LinePayConfig } from '../../../config/line-pay-config.ts';
import { LINE_PAY_SANDBOX_PATH } from '../../../config/line-pay-config.ts';
import {
  TRANSACTION_ID,
  linePaySignature,
  parseLinePayJson,
  signatureMatches,
  stringifyWithBareIds,
} from '../line-pay/protocol.ts';

/**
 * LINE Pay's Online API v3, imitated for trying and testing the shop without LINE (registered only
 * outside production, when LINE Pay points at it). It checks every call's channel and HMAC
 * signature (1106 when it is wrong, a nonce used twice included), keeps its transactions in the
 * database like the card sandbox, and answers Request, Confirm, Refund, Check Payment Status and
 * Payment Details with LINE's codes and 19-digit transaction ids written as bare JSON numbers.
 * Its payment page lets the tester pay, cancel, make the confirmation fail (1281) or come back to
 * the shop twice at once. What it checks: docs/decisions/045-line-pay.md.
 */

type State = 'requested' | 'authorized' | 'cancelled' | 'confirmed' | 'failed';
type Scenario = 'pay' | 'confirm-fail' | 'double-return';

interface SandboxTransaction {
  transactionId: string;
  orderId: string;
  amount: number;
  currency: string;
  productName: string;
  products: Array<{ name: string; quantity: number; price: number }>;
  confirmUrl: string;
  cancelUrl: string;
  state: State;
  scenario: Scenario;
  refunds: Array<{ refundTransactionId: string; amount: number; at: string }>;
  requestedAt: string;
  confirmedAt?: string;
}

const answer = (reply: FastifyReply, returnCode: string, returnMessage: string, info?: unknown) =>
  reply
    .code(200)
    .type('application/json; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(stringifyWithBareIds({ returnCode, returnMessage, ...(info !== undefined ? { info } : {}) }));

/** A 19-digit id, as LINE issues: larger than any exact JavaScript number. */
const newTransactionId = () => `${Date.now()}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;

function store(db: Db, channelId: string) {
  return {
    async get(transactionId: string): Promise<SandboxTransaction | undefined> {
      const [row] = await db
        .select()
        .from(sandboxLinePayTransactions)
        .where(
          and(
            eq(sandboxLinePayTransactions.transactionId, transactionId),
            eq(sandboxLinePayTransactions.channelId, channelId),
          ),
        )
        .limit(1);
      return row?.transaction as unknown as SandboxTransaction | undefined;
    },
    /** False when the channel already has a transaction with this orderId. */
    async insert(t: SandboxTransaction): Promise<boolean> {
      const rows = await db
        .insert(sandboxLinePayTransactions)
        .values({ transactionId: t.transactionId, orderId: t.orderId, channelId, transaction: { ...t } })
        .onConflictDoNothing()
        .returning({ id: sandboxLinePayTransactions.transactionId });
      return rows.length > 0;
    },
    async save(t: SandboxTransaction): Promise<void> {
      await db
        .update(sandboxLinePayTransactions)
        .set({ transaction: { ...t } })
        .where(eq(sandboxLinePayTransactions.transactionId, t.transactionId));
    },
  };
}

const positiveInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

/** Request's body as LINE checks it: the sums of products, packages and the amount. Null when it holds. */
function requestProblem(body: Record<string, unknown>): [string, string] | null {
  const { amount, currency, orderId, packages, redirectUrls } = body as {
    amount?: unknown;
    currency?: unknown;
    orderId?: unknown;
    packages?: unknown;
    redirectUrls?: { confirmUrl?: unknown; cancelUrl?: unknown };
  };
  if (typeof orderId !== 'string' || orderId.length === 0 || orderId.length > 100)
    return ['2101', 'Parameter error: orderId'];
  if (typeof redirectUrls?.confirmUrl !== 'string' || typeof redirectUrls.cancelUrl !== 'string')
    return ['2101', 'Parameter error: redirectUrls'];
  if (currency !== 'TWD') return ['1178', 'The currency is not supported by the store.'];
  if (typeof amount !== 'number' || amount <= 0)
    return ['1183', 'The payment amount should be greater than 0.'];
  if (!positiveInt(amount)) return ['1124', 'Amount info error (scale)'];
  if (!Array.isArray(packages) || packages.length === 0) return ['2101', 'Parameter error: packages'];
  let sum = 0;
  for (const p of packages as Array<Record<string, unknown>>) {
    const products = Array.isArray(p.products) ? (p.products as Array<Record<string, unknown>>) : [];
    if (typeof p.id !== 'string' || products.length === 0 || !positiveInt(p.amount))
      return ['2101', 'Parameter error: packages[]'];
    let goods = 0;
    for (const item of products) {
      if (typeof item.name !== 'string' || !positiveInt(item.quantity) || typeof item.price !== 'number')
        return ['2101', 'Parameter error: products[]'];
      goods += item.quantity * item.price;
    }
    if (goods !== p.amount)
      return ['1124', 'Amount info error: package amount is not the sum of its products'];
    sum += p.amount + (typeof p.userFee === 'number' ? p.userFee : 0);
  }
  if (sum !== amount) return ['1124', 'Amount info error: amount is not the sum of the packages'];
  return null;
}

const linePaySandbox: FastifyPluginAsync<{ channel: LinePayConfig }> = async (app, { channel }) => {
  if (app.config.isProduction) throw new Error('the LINE Pay sandbox must never run in production');
  if (!app.config.isTest)
    app.log.info(
      `payments: LINE Pay goes to the built-in sandbox (${app.config.publicUrl}${LINE_PAY_SANDBOX_PATH})`,
    );
  const base = LINE_PAY_SANDBOX_PATH;
  const transactions = store(app.db, channel.channelId);
  const selfFetch = ownFetch(app, app.config.publicUrl);
  // Nonces seen lately: a signed call sent again is refused like a forged one.
  const seenNonces = new Set<string>();
  const confirming = new Set<string>();

  // The body is signed as sent: read it as text, parse it here.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_r, body, done) => done(null, body),
  );
  acceptForms(app, 8 * 1024);

  /** The channel and signature of an API call; null when they hold, else LINE's refusal. */
  function refusal(request: FastifyRequest): [string, string] | null {
    const id = request.headers['x-line-channelid'];
    const nonce = request.headers['x-line-authorization-nonce'];
    const signature = request.headers['x-line-authorization'];
    if (id !== channel.channelId) return ['1104', 'Non-existing merchant'];
    if (typeof nonce !== 'string' || nonce.length < 8 || nonce.length > 100 || typeof signature !== 'string')
      return ['1106', 'Header information error'];
    const [path = '', query = ''] = request.url.slice(base.length).split('?', 2);
    const signed = request.method === 'GET' ? query : typeof request.body === 'string' ? request.body : '';
    if (!signatureMatches(linePaySignature(channel.channelSecret, path, signed, nonce), signature))
      return ['1106', 'Header information error (X-LINE-Authorization)'];
    if (seenNonces.has(nonce)) return ['1106', 'Header information error (nonce used before)'];
    if (seenNonces.size > 10_000) seenNonces.clear();
    seenNonces.add(nonce);
    return null;
  }

  function jsonBody(request: FastifyRequest): Record<string, unknown> | null {
    try {
      const parsed = parseLinePayJson(typeof request.body === 'string' ? request.body : '{}');
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
        ? (parsed as Record<string, unknown>)
        : null;
    } catch {
      return null;
    }
  }

  app.post(`${base}/v3/payments/request`, async (request, reply) => {
    const refused = refusal(request);
    if (refused) return answer(reply, ...refused);
    const body = jsonBody(request);
    if (!body) return answer(reply, '2102', 'JSON data format error');
    const problem = requestProblem(body);
    if (problem) return answer(reply, ...problem);
    const packages = body.packages as Array<{ products: SandboxTransaction['products'] }>;
    const products = packages.flatMap((p) => p.products);
    const urls = body.redirectUrls as { confirmUrl: string; cancelUrl: string };
    const t: SandboxTransaction = {
      transactionId: newTransactionId(),
      orderId: body.orderId as string,
      amount: body.amount as number,
      currency: 'TWD',
      productName: products[0]?.name ?? '',
      products,
      confirmUrl: urls.confirmUrl,
      cancelUrl: urls.cancelUrl,
      state: 'requested',
      scenario: 'pay',
      refunds: [],
      requestedAt: new Date().toISOString(),
    };
    if (!(await transactions.insert(t)))
      return answer(reply, '1172', 'There is a record of transaction with the same order number.');
    const reserve = Buffer.from(t.transactionId).toString('base64url');
    return answer(reply, '0000', 'Success.', {
      paymentUrl: {
        web: `${app.config.publicUrl}${base}/web/payment/wait?transactionReserveId=${reserve}`,
        app: `line://pay/payment/${reserve}`,
      },
      transactionId: t.transactionId,
      paymentAccessToken: String(randomInt(100_000_000_000, 999_999_999_999)),
    });
  });

  app.post<{ Params: { id: string } }>(`${base}/v3/payments/:id/confirm`, async (request, reply) => {
    const refused = refusal(request);
    if (refused) return answer(reply, ...refused);
    const body = jsonBody(request);
    if (!body) return answer(reply, '2102', 'JSON data format error');
    const id = request.params.id;
    const t = TRANSACTION_ID.test(id) ? await transactions.get(id) : undefined;
    if (!t) return answer(reply, '1150', 'Transaction record not found.');
    if (confirming.has(id)) return answer(reply, '1198', 'Request is being processed.');
    if (t.state === 'confirmed')
      return answer(reply, '1172', 'There is a record of transaction with the same order number.');
    if (body.currency !== t.currency)
      return answer(reply, '1178', 'The currency is not supported by the store.');
    if (body.amount !== t.amount)
      return answer(reply, '1153', 'The payment amount is different than the requested amount.');
    if (t.state !== 'authorized')
      return answer(reply, '1169', 'Payment method and password authorization at LINE Pay are required.');
    confirming.add(id);
    try {
      // A moment in flight, as at LINE, so two returns at once meet here.
      await new Promise((resolve) => setTimeout(resolve, 150));
      if (t.scenario === 'confirm-fail') {
        await transactions.save({ ...t, state: 'failed' });
        return answer(reply, '1281', 'Credit card payment error');
      }
      await transactions.save({ ...t, state: 'confirmed', confirmedAt: new Date().toISOString() });
      return answer(reply, '0000', 'Success.', {
        orderId: t.orderId,
        transactionId: t.transactionId,
        payInfo: [{ method: 'CREDIT_CARD', amount: t.amount, maskedCreditCardNumber: '************1234' }],
      });
    } finally {
      confirming.delete(id);
    }
  });

  app.post<{ Params: { id: string } }>(`${base}/v3/payments/:id/refund`, async (request, reply) => {
    const refused = refusal(request);
    if (refused) return answer(reply, ...refused);
    const body = jsonBody(request);
    if (!body) return answer(reply, '2102', 'JSON data format error');
    const id = request.params.id;
    const t = TRANSACTION_ID.test(id) ? await transactions.get(id) : undefined;
    if (!t) return answer(reply, '1150', 'Transaction record not found.');
    if (t.state !== 'confirmed') return answer(reply, '1155', 'The transaction is not eligible for refund.');
    const left = t.amount - t.refunds.reduce((n, r) => n + r.amount, 0);
    if (left <= 0) return answer(reply, '1165', 'The transaction has already been refunded.');
    const amount = body.refundAmount === undefined ? left : body.refundAmount;
    if (!positiveInt(amount)) return answer(reply, '1124', 'Amount info error (scale)');
    if (amount > left) return answer(reply, '1164', 'Refund limit exceeded.');
    const refund = { refundTransactionId: newTransactionId(), amount, at: new Date().toISOString() };
    await transactions.save({ ...t, refunds: [...t.refunds, refund] });
    return answer(reply, '0000', 'Success.', {
      refundTransactionId: refund.refundTransactionId,
      refundTransactionDate: refund.at.replace(/\.\d+Z$/, 'Z'),
    });
  });

  app.get<{ Params: { id: string } }>(`${base}/v3/payments/requests/:id/check`, async (request, reply) => {
    const refused = refusal(request);
    if (refused) return answer(reply, ...refused);
    const t = TRANSACTION_ID.test(request.params.id) ? await transactions.get(request.params.id) : undefined;
    if (!t) return answer(reply, '1150', 'Transaction record not found.');
    const code = {
      requested: '0000',
      authorized: '0110',
      cancelled: '0121',
      failed: '0122',
      confirmed: '0123',
    }[t.state];
    return answer(reply, code, t.state);
  });

  app.get(`${base}/v3/payments`, async (request, reply) => {
    const refused = refusal(request);
    if (refused) return answer(reply, ...refused);
    const id = String((request.query as Record<string, unknown>).transactionId ?? '');
    const t = TRANSACTION_ID.test(id) ? await transactions.get(id) : undefined;
    if (!t) return answer(reply, '1150', 'Transaction record not found.');
    return answer(reply, '0000', 'Success.', [
      {
        transactionId: t.transactionId,
        orderId: t.orderId,
        transactionType: 'PAYMENT',
        productName: t.productName,
        currency: t.currency,
        payInfo: [{ method: 'CREDIT_CARD', amount: t.amount }],
        refundList: t.refunds.map((r) => ({
          refundTransactionId: r.refundTransactionId,
          transactionType: 'PAYMENT_REFUND',
          refundAmount: -r.amount,
          refundTransactionDate: r.at,
        })),
      },
    ]);
  });

  // LINE Pay's payment page, in the sandbox's own plain look.
  const reserveOf = (value: unknown) => {
    try {
      const id = Buffer.from(String(value ?? ''), 'base64url').toString('utf8');
      return TRANSACTION_ID.test(id) ? id : '';
    } catch {
      return '';
    }
  };

  app.get(`${base}/web/payment/wait`, async (request, reply) => {
    const reserve = String((request.query as Record<string, unknown>).transactionReserveId ?? '');
    const t = await transactions.get(reserveOf(reserve));
    if (!t) return page(reply, 404, '找不到付款', '<h1>找不到這筆付款</h1><p>付款連結不正確或已失效。</p>');
    if (t.state !== 'requested')
      return page(reply, 409, '付款已處理', `<h1>這筆付款已處理</h1><p>狀態：${escapeHtml(t.state)}</p>`);
    const lines = t.products
      .map(
        (p) =>
          `<li><span>${escapeHtml(p.name)} × ${p.quantity}</span><span>${escapeHtml(formatTwd(p.price * p.quantity))}</span></li>`,
      )
      .join('');
    const choice = (value: Scenario, label: string, checked = false) =>
      `<label class="choice"><input type="radio" name="scenario" value="${value}"${checked ? ' checked' : ''}> ${label}</label>`;
    return page(
      reply,
      200,
      'LINE Pay 付款',
      `<p class="merchant">山嵐茶事・訂單 ${escapeHtml(t.orderId)}</p>
<p class="amount" data-testid="line-pay-amount">${escapeHtml(formatTwd(t.amount))}</p>
<ul class="lines">${lines}</ul>
<form method="post" action="${base}/web/payment/decide">
<input type="hidden" name="transactionReserveId" value="${escapeHtml(reserve)}">
<fieldset><legend>測試情境</legend>
${choice('pay', '正常付款', true)}
${choice('confirm-fail', '付款確認（Confirm）失敗：1281 信用卡付款錯誤')}
${choice('double-return', '付款後同時兩次回到商店（重複確認）')}
</fieldset>
<button type="submit" name="action" value="pay" class="pay">付款</button>
<button type="submit" name="action" value="cancel" class="cancel">取消付款，回到商店</button>
</form>`,
    );
  });

  app.post(`${base}/web/payment/decide`, async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, string>;
    const t = await transactions.get(reserveOf(form.transactionReserveId));
    if (!t || t.state !== 'requested')
      return page(reply, 409, '付款已處理', '<h1>這筆付款已處理或不存在</h1>');
    if (form.action === 'cancel') {
      await transactions.save({ ...t, state: 'cancelled' });
      return reply.header('cache-control', 'no-store').redirect(t.cancelUrl, 303);
    }
    const scenario: Scenario =
      form.scenario === 'confirm-fail' || form.scenario === 'double-return' ? form.scenario : 'pay';
    await transactions.save({ ...t, state: 'authorized', scenario });
    const sep = t.confirmUrl.includes('?') ? '&' : '?';
    const back = `${t.confirmUrl}${sep}${new URLSearchParams({ transactionId: t.transactionId, orderId: t.orderId })}`;
    // The same return once more, at the same time as the browser's (a second tab, a retried redirect).
    if (scenario === 'double-return')
      void selfFetch(back, { method: 'GET', redirect: 'manual' }).catch((error: unknown) =>
        app.log.warn({ err: error }, 'LINE Pay sandbox: second return failed'),
      );
    return reply.header('cache-control', 'no-store').redirect(back, 303);
  });
};

const STYLE = `body{margin:0;background:#f4f6f5;color:#111;font-family:"Noto Sans TC","PingFang TC",sans-serif;line-height:1.6}
header{background:#06c755;color:#fff;padding:14px 16px;font-weight:700;font-size:20px;letter-spacing:.5px}
main{max-width:480px;margin:0 auto;padding:16px}.card{background:#fff;border-radius:16px;padding:20px;box-shadow:0 1px 3px #0001}
.test{background:#fff4d6;border:1px solid #e0b84d;color:#6b4e00;border-radius:8px;padding:8px 12px;margin-bottom:12px;font-size:14px}
.merchant{color:#555;margin:0}.amount{font-size:32px;font-weight:700;margin:4px 0 12px}
.lines{list-style:none;padding:0;margin:0 0 12px;border-top:1px solid #eee}.lines li{display:flex;justify-content:space-between;gap:12px;padding:8px 0;border-bottom:1px solid #eee;font-size:15px}
fieldset{border:1px solid #ddd;border-radius:10px;margin:12px 0;padding:4px 12px 8px}legend{font-size:14px;color:#555;padding:0 4px}
.choice{display:flex;gap:8px;align-items:center;min-height:44px;font-size:15px}
button{display:block;width:100%;min-height:48px;margin-top:10px;border-radius:10px;font-size:17px;font-weight:700;cursor:pointer}
.pay{background:#06c755;color:#fff;border:0}.cancel{background:#fff;color:#333;border:1px solid #ccc}`;

function page(reply: FastifyReply, status: number, title: string, body: string) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(
      `<!doctype html><html lang="zh-Hant-TW"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}｜LINE Pay（測試）</title><style>${STYLE}</style></head><body><header>LINE Pay</header><main><div class="test">這是測試用的 LINE Pay 付款頁，不會真的扣款。</div><div class="card">${body}</div></main></body></html>`,
    );
}

export default linePaySandbox;
