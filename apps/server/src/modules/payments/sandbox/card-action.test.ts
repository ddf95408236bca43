import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { checkMacValue } from '../../../lib/ecpay-check-mac.ts';
import {
  cardActions,
  doActionFields,
  planRefund,
  type CardPost,
  type CardSettings,
  type CardTrade,
} from '../ecpay/card-action.ts';
import cardActionSandbox, { memoryTrades, SANDBOX_RTN_CODES, type MemoryTrades } from './card-action.ts';

const KEYS = {
  merchantId: '3002607',
  hashKey: 'pwFHCqoQZGmho4w6',
  hashIV: 'EkRm7iFT261dpevs',
  creditCheckCode: '12345678',
};
const HOST = 'http://shop.test/sandbox/ecpay';
const SETTINGS: CardSettings = { ...KEYS, host: HOST };

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function setup(options: { down?: () => boolean; settleAfterMs?: number; now?: () => Date } = {}) {
  const trades = memoryTrades();
  const app = Fastify();
  apps.push(app);
  await app.register(cardActionSandbox, { prefix: '/sandbox/ecpay', settings: KEYS, trades, ...options });
  await app.ready();
  const post: CardPost = async (url, form) => {
    const res = await app.inject({
      method: 'POST',
      url: new URL(url).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
    });
    return res.body;
  };
  return { app, trades, post, client: cardActions(SETTINGS, post) };
}

let serial = 0;
async function authorised(trades: MemoryTrades, amount = 1200, at?: Date): Promise<CardTrade> {
  serial += 1;
  const trade = {
    merchantTradeNo: `Tea${String(serial).padStart(6, '0')}`,
    tradeNo: `25010112${String(serial).padStart(8, '0')}`,
    gwsr: String(13_900_000 + serial),
    amount,
  };
  await trades.authorise({ ...trade, at });
  return trade;
}

describe('card-action sandbox: before the close', () => {
  it('gives up a whole authorisation (N) and then has nothing left to act on', async () => {
    const { trades, client } = await setup();
    const trade = await authorised(trades);
    const before = await client.query(trade);
    expect(before).toMatchObject({
      ok: true,
      trade: { status: '已授權', stage: 'authorised', amount: 1200, closedAmount: 0 },
    });
    if (!before.ok) throw new Error('query failed');

    const plan = planRefund({
      stage: before.trade.stage,
      paidAmount: trade.amount,
      alreadyRefunded: 0,
      amount: 1200,
    });
    if (!plan.ok) throw new Error(plan.message);
    expect(await client.refund(trade, plan)).toEqual({ ok: true, rtnMsg: 'Succeeded.' });
    expect(await client.query(trade)).toMatchObject({ ok: true, trade: { status: '已取消', stage: 'void' } });
    expect(await client.act(trade, 'N', 1200)).toMatchObject({
      ok: false,
      code: SANDBOX_RTN_CODES.state,
      uncertain: false,
    });
  });

  it('refuses R before the close, and N for less than the whole authorisation', async () => {
    const { trades, client } = await setup();
    const trade = await authorised(trades);
    const refund = await client.act(trade, 'R', 200);
    expect(refund).toMatchObject({ ok: false, code: SANDBOX_RTN_CODES.state, uncertain: false });
    expect(!refund.ok && refund.message).toContain('尚未關帳');
    expect(await client.act(trade, 'N', 200)).toMatchObject({ ok: false, code: SANDBOX_RTN_CODES.amount });
    expect(
      planRefund({ stage: 'authorised', paidAmount: 1200, alreadyRefunded: 0, amount: 200 }),
    ).toMatchObject({ ok: false, reason: 'partial_before_close' });
    // Nothing changed.
    expect(await client.query(trade)).toMatchObject({ ok: true, trade: { status: '已授權' } });
  });
});

describe('card-action sandbox: after the close', () => {
  it('refunds in parts (R) until the captured amount is used up', async () => {
    const { trades, client } = await setup();
    const trade = await authorised(trades);
    expect(await trades.settle(trade.tradeNo)).toBe(true);
    expect(await client.query(trade)).toMatchObject({
      ok: true,
      trade: {
        status: '已關帳',
        stage: 'closed',
        closedAmount: 1200,
        closeData: [{ status: '已關帳', amount: 1200 }],
      },
    });

    let refunded = 0;
    for (const amount of [300, 900]) {
      const plan = planRefund({
        stage: 'closed',
        paidAmount: trade.amount,
        alreadyRefunded: refunded,
        amount,
      });
      if (!plan.ok) throw new Error(plan.message);
      expect(await client.refund(trade, plan)).toMatchObject({ ok: true });
      refunded += plan.amount;
    }
    expect(await client.query(trade)).toMatchObject({
      ok: true,
      trade: { stage: 'closed', closedAmount: 0 },
    });
    // The shop refuses a further refund before asking; the sandbox would refuse it too.
    expect(
      planRefund({ stage: 'closed', paidAmount: trade.amount, alreadyRefunded: refunded, amount: 1 }),
    ).toMatchObject({ ok: false, reason: 'nothing_left' });
    expect(await client.act(trade, 'R', 1)).toMatchObject({ ok: false, code: SANDBOX_RTN_CODES.amount });
  });

  it('refuses more than what is captured, and N after the close', async () => {
    const { trades, client } = await setup();
    const trade = await authorised(trades);
    await trades.settle(trade.tradeNo);
    expect(await client.act(trade, 'R', 1201)).toMatchObject({ ok: false, code: SANDBOX_RTN_CODES.amount });
    const giveUp = await client.act(trade, 'N', 1200);
    expect(giveUp).toMatchObject({ ok: false, code: SANDBOX_RTN_CODES.state });
    expect(!giveUp.ok && giveUp.message).toContain('已關帳');
  });

  it('settles by itself after the configured delay', async () => {
    let clock = new Date('2025-01-01T04:00:00Z');
    const { trades, client } = await setup({ settleAfterMs: 60_000, now: () => clock });
    const trade = await authorised(trades, 800, clock);
    expect(await client.query(trade)).toMatchObject({ ok: true, trade: { stage: 'authorised' } });
    clock = new Date(clock.getTime() + 60_000);
    expect(await client.query(trade)).toMatchObject({
      ok: true,
      trade: { stage: 'closed', closedAmount: 800 },
    });
    expect(await client.act(trade, 'R', 800)).toMatchObject({ ok: true });
  });
});

describe('card-action sandbox: a capture requested but not settled', () => {
  it('undoes the capture then gives up (E, N) for a full refund', async () => {
    const { trades, client } = await setup();
    const trade = await authorised(trades);
    expect(await client.act(trade, 'C', 1200)).toMatchObject({ ok: true });
    const closing = await client.query(trade);
    expect(closing).toMatchObject({
      ok: true,
      trade: { status: '要關帳', stage: 'closing', closedAmount: 1200 },
    });
    if (!closing.ok) throw new Error('query failed');
    const plan = planRefund({
      stage: closing.trade.stage,
      paidAmount: trade.amount,
      alreadyRefunded: 0,
      amount: 1200,
    });
    if (!plan.ok) throw new Error(plan.message);
    expect(plan.steps.map((s) => s.action)).toEqual(['E', 'N']);
    expect(await client.refund(trade, plan)).toMatchObject({ ok: true });
    expect(await client.query(trade)).toMatchObject({ ok: true, trade: { stage: 'void' } });
  });

  it('reports 操作取消 after E, which the shop reads as authorised again', async () => {
    const { trades, client } = await setup();
    const trade = await authorised(trades);
    await client.act(trade, 'C', 1200);
    expect(await client.act(trade, 'E', 1200)).toMatchObject({ ok: true });
    expect(await client.query(trade)).toMatchObject({
      ok: true,
      trade: { status: '操作取消', stage: 'authorised' },
    });
  });

  it('refunds part by R while closing, and the rest after the close', async () => {
    const { trades, client } = await setup();
    const trade = await authorised(trades);
    await client.act(trade, 'C', 1200);
    expect(await client.act(trade, 'R', 500)).toMatchObject({ ok: true });
    await trades.settle(trade.tradeNo);
    expect(await client.query(trade)).toMatchObject({
      ok: true,
      trade: { stage: 'closed', closedAmount: 700 },
    });
    expect(await client.act(trade, 'R', 700)).toMatchObject({ ok: true });
  });
});

describe('card-action sandbox: refusals like ECPay’s', () => {
  it('refuses an unknown trade, and a known TradeNo under another MerchantTradeNo', async () => {
    const { trades, client } = await setup();
    const trade = await authorised(trades);
    expect(
      await client.act({ merchantTradeNo: 'Nobody1', tradeNo: '9999999999999999' }, 'N', 1200),
    ).toMatchObject({ ok: false, code: SANDBOX_RTN_CODES.noTrade });
    expect(await client.act({ ...trade, merchantTradeNo: 'Other1' }, 'N', 1200)).toMatchObject({
      ok: false,
      code: SANDBOX_RTN_CODES.noTrade,
    });
  });

  it('refuses a bad CheckMacValue and another merchant', async () => {
    const { app, trades, client } = await setup();
    const trade = await authorised(trades);
    const fields = doActionFields(SETTINGS, {
      merchantTradeNo: trade.merchantTradeNo,
      tradeNo: trade.tradeNo,
      action: 'N',
      amount: 1200,
    });
    const tampered = { ...fields, TotalAmount: '1' };
    const res = await app.inject({
      method: 'POST',
      url: '/sandbox/ecpay/CreditDetail/DoAction',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(tampered).toString(),
    });
    expect(res.statusCode).toBe(200);
    const answer = Object.fromEntries(new URLSearchParams(res.body));
    expect(answer).toMatchObject({
      RtnCode: SANDBOX_RTN_CODES.checkMac,
      RtnMsg: 'CheckMacValue 驗證失敗',
      TradeNo: trade.tradeNo,
    });

    // Correctly signed, but for a merchant the gateway does not serve.
    const signed = {
      MerchantID: '2000132',
      MerchantTradeNo: trade.merchantTradeNo,
      TradeNo: trade.tradeNo,
      Action: 'N',
      TotalAmount: '1200',
    };
    const res2 = await app.inject({
      method: 'POST',
      url: '/sandbox/ecpay/CreditDetail/DoAction',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        ...signed,
        CheckMacValue: checkMacValue(signed, KEYS.hashKey, KEYS.hashIV),
      }).toString(),
    });
    expect(Object.fromEntries(new URLSearchParams(res2.body))).toMatchObject({
      RtnCode: SANDBOX_RTN_CODES.merchant,
    });
    // Neither touched the trade.
    expect(await client.query(trade)).toMatchObject({ ok: true, trade: { status: '已授權' } });
  });

  it('answers the query’s error tokens', async () => {
    const { trades, post, client } = await setup();
    const trade = await authorised(trades);
    expect(await client.query({ ...trade, amount: 1199 })).toMatchObject({ ok: false, code: 'error_nopay' });
    expect(await client.query({ ...trade, gwsr: '1' })).toMatchObject({ ok: false, code: 'error_nopay' });
    expect(await cardActions({ ...SETTINGS, creditCheckCode: '87654321' }, post).query(trade)).toMatchObject({
      ok: false,
      code: 'error',
    });
    expect(await cardActions({ ...SETTINGS, merchantId: '2000132' }, post).query(trade)).toMatchObject({
      ok: false,
      code: 'error_Stop',
    });
    expect(await cardActions({ ...SETTINGS, hashIV: 'wrong' }, post).query(trade)).toMatchObject({
      ok: false,
      code: 'error',
    });
  });

  it('answers 503 while down, which the client reports as uncertain', async () => {
    let down = true;
    const { app, trades, client } = await setup({ down: () => down });
    const trade = await authorised(trades);
    const res = await app.inject({
      method: 'POST',
      url: '/sandbox/ecpay/CreditDetail/DoAction',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(res.statusCode).toBe(503);
    expect(await client.act(trade, 'N', 1200)).toMatchObject({
      ok: false,
      code: 'invalid_reply',
      uncertain: true,
    });
    expect(await client.query(trade)).toMatchObject({ ok: false, code: 'invalid_reply' });
    down = false;
    expect(await client.act(trade, 'N', 1200)).toMatchObject({ ok: true });
  });
});
