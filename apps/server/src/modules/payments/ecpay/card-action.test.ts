import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  cardActions,
  doActionFields,
  parseDoActionReply,
  parseQueryReply,
  planRefund,
  queryFields,
  stageOf,
  type CardPost,
  type CardSettings,
} from './card-action.ts';

// ECPay's published stage merchant for payments (AIO, SHA256) and its keys; the same ones the
// CheckMacValue tests use (lib/ecpay-check-mac.test.ts).
const SETTINGS: CardSettings = {
  merchantId: '3002607',
  hashKey: 'pwFHCqoQZGmho4w6',
  hashIV: 'EkRm7iFT261dpevs',
  host: 'https://payment.ecpay.com.tw',
  creditCheckCode: '12345678',
};

const sha256Upper = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex').toUpperCase();

describe('doActionFields', () => {
  const request = {
    merchantTradeNo: 'Tea20250101A1',
    tradeNo: '2501011200001234',
    action: 'R',
    amount: 300,
  } as const;

  it('sends exactly the documented fields', () => {
    const fields = doActionFields(SETTINGS, request);
    expect(Object.keys(fields).sort()).toEqual([
      'Action',
      'CheckMacValue',
      'MerchantID',
      'MerchantTradeNo',
      'TotalAmount',
      'TradeNo',
    ]);
    expect(fields).toMatchObject({
      MerchantID: '3002607',
      MerchantTradeNo: 'Tea20250101A1',
      TradeNo: '2501011200001234',
      Action: 'R',
      TotalAmount: '300',
    });
  });

  /*
   * The documented steps done by hand, independently of lib/ecpay-check-mac.ts: keys A–Z ignoring
   * case (Action, MerchantID, MerchantTradeNo, TotalAmount, TradeNo), wrapped in HashKey/HashIV,
   * URL-encoded (= → %3d, & → %26; nothing else here needs encoding), lower-cased, SHA256, upper-case.
   * The hex value was also computed outside Node (Python hashlib) over the same string.
   */
  it('signs with SHA256 CheckMacValue as the checksum appendix describes', () => {
    const encodedLower =
      'hashkey%3dpwfhcqoqzgmho4w6%26action%3dr%26merchantid%3d3002607%26merchanttradeno%3dtea20250101a1' +
      '%26totalamount%3d300%26tradeno%3d2501011200001234%26hashiv%3dekrm7ift261dpevs';
    expect(sha256Upper(encodedLower)).toBe(
      'BE9EC281BA503C3CCFDBF1683FE37BB551D320C1518E22D4B5DE75DE843C21A8',
    );
    expect(doActionFields(SETTINGS, request).CheckMacValue).toBe(
      'BE9EC281BA503C3CCFDBF1683FE37BB551D320C1518E22D4B5DE75DE843C21A8',
    );
  });

  it('changes the signature with every field', () => {
    const base = doActionFields(SETTINGS, request).CheckMacValue;
    expect(doActionFields(SETTINGS, { ...request, amount: 301 }).CheckMacValue).not.toBe(base);
    expect(doActionFields(SETTINGS, { ...request, action: 'N' }).CheckMacValue).not.toBe(base);
    expect(doActionFields({ ...SETTINGS, hashIV: 'x' }, request).CheckMacValue).not.toBe(base);
  });

  it('throws on input ECPay would refuse', () => {
    expect(() => doActionFields(SETTINGS, { ...request, amount: 0 })).toThrow(/TotalAmount/);
    expect(() => doActionFields(SETTINGS, { ...request, amount: 12.5 })).toThrow(/TotalAmount/);
    expect(() => doActionFields(SETTINGS, { ...request, amount: Number.NaN })).toThrow(/TotalAmount/);
    expect(() => doActionFields(SETTINGS, { ...request, tradeNo: '2501-0112' })).toThrow(/TradeNo/);
    expect(() => doActionFields(SETTINGS, { ...request, merchantTradeNo: 'A'.repeat(21) })).toThrow(
      /MerchantTradeNo/,
    );
    expect(() => doActionFields(SETTINGS, { ...request, action: 'X' as 'R' })).toThrow(/action/);
  });
});

describe('queryFields', () => {
  it('signs CreditRefundId, CreditAmount and CreditCheckCode', () => {
    const fields = queryFields(SETTINGS, { gwsr: '13955622', amount: 1200 });
    expect(fields).toMatchObject({
      MerchantID: '3002607',
      CreditRefundId: '13955622',
      CreditAmount: '1200',
      CreditCheckCode: '12345678',
    });
    // Sorted: CreditAmount, CreditCheckCode, CreditRefundId, MerchantID.
    const encodedLower =
      'hashkey%3dpwfhcqoqzgmho4w6%26creditamount%3d1200%26creditcheckcode%3d12345678%26creditrefundid%3d13955622' +
      '%26merchantid%3d3002607%26hashiv%3dekrm7ift261dpevs';
    expect(fields.CheckMacValue).toBe(sha256Upper(encodedLower));
    expect(fields.CheckMacValue).toBe('6DA64D7F4F963DFEC3B10DC02A190CAF52E1B85E3FA2E7D4901D82C1B39BD11F');
  });

  it('needs the merchant check code and a numeric authorisation number', () => {
    expect(() => queryFields({ ...SETTINGS, creditCheckCode: undefined }, { gwsr: '1', amount: 1 })).toThrow(
      /CreditCheckCode/,
    );
    expect(() => queryFields(SETTINGS, { gwsr: 'abc', amount: 1 })).toThrow(/gwsr/);
    expect(() => queryFields(SETTINGS, { gwsr: '1', amount: 0 })).toThrow(/CreditAmount/);
  });
});

describe('parseDoActionReply', () => {
  const trade = { merchantTradeNo: 'Tea20250101A1', tradeNo: '2501011200001234' };

  it('reads a success', () => {
    const text =
      'MerchantID=3002607&MerchantTradeNo=Tea20250101A1&TradeNo=2501011200001234&RtnCode=1&RtnMsg=Succeeded.';
    expect(parseDoActionReply(text, trade)).toEqual({ ok: true, rtnMsg: 'Succeeded.' });
    expect(parseDoActionReply(`${text}\r\n`)).toEqual({ ok: true, rtnMsg: 'Succeeded.' });
  });

  it('reads a refusal as certain: nothing happened', () => {
    const text = `MerchantID=3002607&MerchantTradeNo=Tea20250101A1&TradeNo=2501011200001234&RtnCode=10000002&RtnMsg=${encodeURIComponent('更新失敗')}`;
    expect(parseDoActionReply(text, trade)).toEqual({
      ok: false,
      code: '10000002',
      message: '更新失敗',
      uncertain: false,
    });
    expect(parseDoActionReply('RtnCode=0')).toEqual({
      ok: false,
      code: '0',
      message: '綠界拒絕了這個動作',
      uncertain: false,
    });
  });

  it('refuses garbage as uncertain: ECPay may have acted', () => {
    for (const garbage of [
      '',
      '   ',
      '<html><body>502 Bad Gateway</body></html>',
      '{"RtnCode":1}',
      '1|OK',
      'Service Unavailable',
      'RtnCode=abc&RtnMsg=x',
      'RtnCode=',
      `RtnCode=1&${'a'.repeat(5000)}`,
    ]) {
      const reply = parseDoActionReply(garbage);
      expect(reply, garbage.slice(0, 40)).toMatchObject({
        ok: false,
        code: 'invalid_reply',
        uncertain: true,
      });
    }
  });

  it('treats an answer about another trade as unreadable', () => {
    const other =
      'MerchantID=3002607&MerchantTradeNo=Tea20250101A1&TradeNo=9999999999999999&RtnCode=1&RtnMsg=Succeeded.';
    expect(parseDoActionReply(other, trade)).toMatchObject({ ok: false, uncertain: true });
  });
});

describe('parseQueryReply', () => {
  const value = {
    TradeID: 13955622,
    amount: 1200,
    clsamt: 1200,
    authtime: '2025/10/14 23:35:34',
    status: '已關帳',
    close_data: [{ status: '已關帳', sno: '1', amount: 1200, datetime: '2025/10/15 20:15:00' }],
  };

  it('reads a trade', () => {
    const reply = parseQueryReply(JSON.stringify({ RtnMsg: '', RtnValue: value }));
    expect(reply).toEqual({
      ok: true,
      trade: {
        authorisationNo: '13955622',
        amount: 1200,
        closedAmount: 1200,
        authorisedAt: '2025/10/14 23:35:34',
        status: '已關帳',
        stage: 'closed',
        closeData: [{ status: '已關帳', sno: '1', amount: 1200, datetime: '2025/10/15 20:15:00' }],
      },
    });
  });

  it('accepts numbers written as strings and a missing close_data', () => {
    const reply = parseQueryReply(
      JSON.stringify({
        RtnMsg: '',
        RtnValue: { TradeID: '13955622', amount: '1200', clsamt: '0', authtime: 'x', status: '已授權' },
      }),
    );
    expect(reply).toMatchObject({
      ok: true,
      trade: { amount: 1200, closedAmount: 0, stage: 'authorised', closeData: [] },
    });
  });

  it('reports ECPay’s error tokens', () => {
    expect(parseQueryReply('{"RtnMsg":"error_nopay","RtnValue":""}')).toEqual({
      ok: false,
      code: 'error_nopay',
      message: '綠界查無這筆刷卡授權',
    });
    expect(parseQueryReply('{"RtnMsg":"error_Stop","RtnValue":null}')).toMatchObject({
      ok: false,
      code: 'error_Stop',
    });
    expect(parseQueryReply('{"RtnMsg":"error_new"}')).toMatchObject({ ok: false, code: 'error_new' });
  });

  it('fails on an empty value (what ECPay’s stage host answers)', () => {
    expect(parseQueryReply('{"RtnMsg":"","RtnValue":null}')).toMatchObject({ ok: false, code: 'no_value' });
  });

  it('refuses garbage', () => {
    for (const garbage of [
      '',
      'not json',
      '<html></html>',
      '[]',
      '{"RtnMsg":"","RtnValue":{"TradeID":1}}',
      JSON.stringify({ RtnMsg: '', RtnValue: { ...value, amount: 1.5 } }),
    ]) {
      expect(parseQueryReply(garbage), garbage).toMatchObject({ ok: false, code: 'invalid_reply' });
    }
  });
});

describe('stageOf', () => {
  it('maps ECPay’s statuses to what a refund can do', () => {
    expect(stageOf('已授權')).toBe('authorised');
    expect(stageOf('操作取消')).toBe('authorised');
    expect(stageOf('要關帳')).toBe('closing');
    expect(stageOf('已關帳')).toBe('closed');
    expect(stageOf('已取消')).toBe('void');
    expect(stageOf('未授權')).toBe('void');
    for (const busy of ['關帳中', '要取消', '取消中']) expect(stageOf(busy)).toBe('in_progress');
    for (const odd of ['銀行拒絕', '銀行追回中', '銀行已追回', '批次失敗', '不明', '', 'Captured'])
      expect(stageOf(odd)).toBe('manual');
  });
});

describe('planRefund', () => {
  it('gives up the whole authorisation (N) for a full refund before the close', () => {
    expect(planRefund({ stage: 'authorised', paidAmount: 1200, alreadyRefunded: 0, amount: 1200 })).toEqual({
      ok: true,
      action: 'N',
      amount: 1200,
      steps: [{ action: 'N', amount: 1200 }],
    });
  });

  it('refuses a partial refund before the close: N cannot give back part', () => {
    const plan = planRefund({ stage: 'authorised', paidAmount: 1200, alreadyRefunded: 0, amount: 200 });
    expect(plan).toMatchObject({ ok: false, reason: 'partial_before_close' });
    expect(!plan.ok && plan.message).toContain('尚未關帳');
  });

  it('refunds part after the close (R), and again until nothing is left', () => {
    expect(planRefund({ stage: 'closed', paidAmount: 1200, alreadyRefunded: 0, amount: 200 })).toEqual({
      ok: true,
      action: 'R',
      amount: 200,
      steps: [{ action: 'R', amount: 200 }],
    });
    expect(planRefund({ stage: 'closed', paidAmount: 1200, alreadyRefunded: 200, amount: 1000 })).toEqual({
      ok: true,
      action: 'R',
      amount: 1000,
      steps: [{ action: 'R', amount: 1000 }],
    });
    expect(planRefund({ stage: 'closed', paidAmount: 1200, alreadyRefunded: 0, amount: 1200 })).toMatchObject(
      { ok: true, action: 'R', amount: 1200 },
    );
  });

  it('never refunds more than what is left', () => {
    const plan = planRefund({ stage: 'closed', paidAmount: 1200, alreadyRefunded: 200, amount: 1001 });
    expect(plan).toMatchObject({ ok: false, reason: 'over_refund' });
    expect(!plan.ok && plan.message).toContain('NT$1,000');
    expect(
      planRefund({ stage: 'authorised', paidAmount: 1200, alreadyRefunded: 0, amount: 1201 }),
    ).toMatchObject({ ok: false, reason: 'over_refund' });
  });

  it('refuses a second refund of the same remainder once nothing is left', () => {
    expect(
      planRefund({ stage: 'closed', paidAmount: 1200, alreadyRefunded: 1200, amount: 1200 }),
    ).toMatchObject({ ok: false, reason: 'nothing_left' });
    expect(planRefund({ stage: 'closed', paidAmount: 1200, alreadyRefunded: 1200, amount: 1 })).toMatchObject(
      { ok: false, reason: 'nothing_left' },
    );
    expect(
      planRefund({ stage: 'authorised', paidAmount: 1200, alreadyRefunded: 1300, amount: 1 }),
    ).toMatchObject({ ok: false, reason: 'nothing_left' });
  });

  it('undoes a requested capture then gives up (E, N) for a full refund while closing; R for part', () => {
    expect(planRefund({ stage: 'closing', paidAmount: 1200, alreadyRefunded: 0, amount: 1200 })).toEqual({
      ok: true,
      action: 'N',
      amount: 1200,
      steps: [
        { action: 'E', amount: 1200 },
        { action: 'N', amount: 1200 },
      ],
    });
    expect(planRefund({ stage: 'closing', paidAmount: 1200, alreadyRefunded: 0, amount: 500 })).toMatchObject(
      { ok: true, action: 'R', steps: [{ action: 'R', amount: 500 }] },
    );
    // The rest after a partial refund is refunded the same way, not by undoing the capture.
    expect(
      planRefund({ stage: 'closing', paidAmount: 1200, alreadyRefunded: 500, amount: 700 }),
    ).toMatchObject({ ok: true, action: 'R', steps: [{ action: 'R', amount: 700 }] });
  });

  it('gives up what is left after a capture was undone', () => {
    expect(planRefund({ stage: 'authorised', paidAmount: 1200, alreadyRefunded: 500, amount: 700 })).toEqual({
      ok: true,
      action: 'N',
      amount: 700,
      steps: [{ action: 'N', amount: 1200 }],
    });
  });

  it('refuses amounts that are no integer of TWD', () => {
    for (const amount of [0, -5, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(
        planRefund({ stage: 'closed', paidAmount: 1200, alreadyRefunded: 0, amount }),
        String(amount),
      ).toMatchObject({ ok: false, reason: 'invalid_amount' });
    }
    expect(planRefund({ stage: 'closed', paidAmount: 1200, alreadyRefunded: -1, amount: 1 })).toMatchObject({
      ok: false,
      reason: 'invalid_amount',
    });
    expect(planRefund({ stage: 'closed', paidAmount: 0, alreadyRefunded: 0, amount: 1 })).toMatchObject({
      ok: false,
      reason: 'invalid_amount',
    });
  });

  it('refuses trades ECPay has voided, is busy with, or that need a person', () => {
    expect(planRefund({ stage: 'void', paidAmount: 1200, alreadyRefunded: 0, amount: 1200 })).toMatchObject({
      ok: false,
      reason: 'void',
    });
    expect(
      planRefund({ stage: 'in_progress', paidAmount: 1200, alreadyRefunded: 0, amount: 1200 }),
    ).toMatchObject({ ok: false, reason: 'in_progress' });
    expect(planRefund({ stage: 'manual', paidAmount: 1200, alreadyRefunded: 0, amount: 1200 })).toMatchObject(
      { ok: false, reason: 'manual' },
    );
  });
});

describe('cardActions', () => {
  const trade = {
    merchantTradeNo: 'Tea20250101A1',
    tradeNo: '2501011200001234',
    gwsr: '13955622',
    amount: 1200,
  };

  function recorder(answers: Array<string | Error>) {
    const calls: Array<{ url: string; form: Record<string, string> }> = [];
    const post: CardPost = async (url, form) => {
      calls.push({ url, form });
      const next = answers.shift();
      if (next instanceof Error) throw next;
      return next ?? '';
    };
    return { calls, post };
  }

  it('posts signed forms to the host’s DoAction and query paths', async () => {
    const { calls, post } = recorder([
      'RtnCode=1&RtnMsg=Succeeded.',
      JSON.stringify({
        RtnMsg: '',
        RtnValue: { TradeID: 13955622, amount: 1200, clsamt: 0, authtime: 'x', status: '已授權' },
      }),
    ]);
    const client = cardActions({ ...SETTINGS, host: 'https://payment.ecpay.com.tw/' }, post);
    expect(await client.act(trade, 'N', 1200)).toEqual({ ok: true, rtnMsg: 'Succeeded.' });
    expect(await client.query(trade)).toMatchObject({ ok: true, trade: { stage: 'authorised' } });
    expect(calls.map((c) => c.url)).toEqual([
      'https://payment.ecpay.com.tw/CreditDetail/DoAction',
      'https://payment.ecpay.com.tw/CreditDetail/QueryTrade/V2',
    ]);
    expect(calls[0]?.form).toEqual(
      doActionFields(SETTINGS, {
        merchantTradeNo: trade.merchantTradeNo,
        tradeNo: trade.tradeNo,
        action: 'N',
        amount: 1200,
      }),
    );
    expect(calls[1]?.form).toEqual(queryFields(SETTINGS, trade));
  });

  it('reports an unreachable gateway: uncertain for an action', async () => {
    const { post } = recorder([new Error('ECONNRESET'), new Error('timeout')]);
    const client = cardActions(SETTINGS, post);
    expect(await client.act(trade, 'R', 100)).toMatchObject({
      ok: false,
      code: 'unreachable',
      uncertain: true,
    });
    expect(await client.query(trade)).toMatchObject({ ok: false, code: 'unreachable' });
  });

  it('carries out a plan step by step and says how far it got', async () => {
    const { calls, post } = recorder(['RtnCode=1&RtnMsg=Succeeded.', 'RtnCode=10000002&RtnMsg=x']);
    const client = cardActions(SETTINGS, post);
    const plan = planRefund({ stage: 'closing', paidAmount: 1200, alreadyRefunded: 0, amount: 1200 });
    if (!plan.ok) throw new Error('expected a plan');
    expect(await client.refund(trade, plan)).toEqual({
      ok: false,
      code: '10000002',
      message: 'x',
      uncertain: false,
      failedStep: 'N',
      done: ['E'],
    });
    expect(calls.map((c) => c.form.Action)).toEqual(['E', 'N']);
  });
});
