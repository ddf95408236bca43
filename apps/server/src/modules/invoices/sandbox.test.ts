import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  EINVOICE_PATHS,
  EINVOICE_STAGE_MERCHANT,
  envelope,
  openReply,
  SANDBOX_EINVOICE_PATH,
  type EinvoiceSettings,
} from './ecpay-invoice-protocol.ts';
import { EinvoiceHttpError, invoiceClient, type EinvoicePost } from './ecpay-invoice-client.ts';
import { decryptData } from './ecpay-invoice-crypto.ts';
import { readAllowanceNotice, refundLine, type IssueInput } from './ecpay-invoice-fields.ts';
import einvoiceSandbox from './sandbox.ts';
import { SANDBOX_RTN } from './sandbox-rules.ts';

const KEYS: Pick<EinvoiceSettings, 'merchantId' | 'hashKey' | 'hashIV'> = {
  merchantId: EINVOICE_STAGE_MERCHANT.merchantId,
  hashKey: EINVOICE_STAGE_MERCHANT.hashKey,
  hashIV: EINVOICE_STAGE_MERCHANT.hashIV,
};
const SETTINGS: EinvoiceSettings = { ...KEYS, host: SANDBOX_EINVOICE_PATH };
/** 2026-03-01 12:05:06 in Taipei. */
const START = new Date('2026-03-01T04:05:06Z');

let app: FastifyInstance;
let clock: Date;
let down: boolean;
/** What the sandbox posted to an online allowance's ReturnURL. */
let notices: Array<{ url: string; fields: Record<string, string> }>;

/** app.inject as the client's `post`: JSON in, JSON out, an HTTP error thrown as fetchPost would. */
const injectPost: EinvoicePost = async (url, jsonBody) => {
  const res = await app.inject({ method: 'POST', url, payload: jsonBody as object });
  if (res.statusCode < 200 || res.statusCode >= 300) throw new EinvoiceHttpError(res.statusCode);
  return res.json();
};

const client = (settings: EinvoiceSettings = SETTINGS, now: () => Date = () => clock) =>
  invoiceClient(settings, injectPost, now);

beforeEach(async () => {
  clock = START;
  down = false;
  notices = [];
  app = Fastify();
  const notify = async (url: string, fields: Readonly<Record<string, string>>) => {
    notices.push({ url, fields: { ...fields } });
    return '1|OK';
  };
  await app.register(einvoiceSandbox, {
    prefix: SANDBOX_EINVOICE_PATH,
    settings: KEYS,
    now: () => clock,
    down: () => down,
    notify,
  });
  await app.ready();
});

afterEach(async () => {
  await app.close();
});

const order = (over: Partial<IssueInput> = {}): IssueInput => ({
  relateNumber: 'TW20260301001',
  lines: [
    { name: '凍頂烏龍茶 (150g) 100% 台灣!', quantity: 2, unitPrice: 450 },
    { name: '白瓷蓋杯', quantity: 1, unitPrice: 1200, unit: '組' },
  ],
  shippingFee: 100,
  discountTotal: 0,
  buyer: { name: '林小嵐', email: 'lan@example.com' },
  invoice: { type: 'member' },
  ...over,
});

/** Posts a hand-made Data (what the builders would never send) and opens the answer. */
async function raw(path: string, data: object, settings = KEYS, now = clock) {
  const res = await app.inject({
    method: 'POST',
    url: `${SANDBOX_EINVOICE_PATH}${path}`,
    payload: envelope(settings, data, now),
  });
  return { status: res.statusCode, body: res.json(), opened: openReply(res.json(), KEYS) };
}

describe('Issue', () => {
  it('issues an invoice with a real-shaped number, Taipei date and 4-digit random number', async () => {
    const res = await client().issue(order());
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.value.invoiceNo).toMatch(/^[A-Z]{2}\d{8}$/);
    expect(res.value.invoiceDate).toBe('2026-03-01 12:05:06');
    expect(res.value.randomNumber).toMatch(/^\d{4}$/);
    const next = await client().issue(order({ relateNumber: 'TW20260301002' }));
    if (!next.ok) throw new Error('second issue failed');
    // Same 字軌, the next number.
    expect(next.value.invoiceNo.slice(0, 2)).toBe(res.value.invoiceNo.slice(0, 2));
    expect(Number(next.value.invoiceNo.slice(2))).toBe(Number(res.value.invoiceNo.slice(2)) + 1);
  });

  it('issues every kind of invoice the shop offers', async () => {
    const kinds: Array<Partial<IssueInput>> = [
      { invoice: { type: 'mobile', barcode: '/ABC+1.2' } },
      { invoice: { type: 'certificate', certificate: 'AB12345678901234' } },
      { invoice: { type: 'donation', loveCode: '168001' } },
      {
        invoice: { type: 'company', taxId: '22099131', title: '台灣積體電路製造股份有限公司' },
        buyer: { name: '林小嵐', email: 'lan@example.com', address: '新竹科學園區力行六路 8 號' },
      },
      { discountTotal: 333, shippingFee: 0 },
    ];
    for (const [i, over] of kinds.entries()) {
      const res = await client().issue(order({ relateNumber: `KIND${i}`, ...over }));
      expect(res, JSON.stringify(over)).toMatchObject({ ok: true });
    }
  });

  it('refuses a RelateNumber already used, whatever its case', async () => {
    expect((await client().issue(order({ relateNumber: 'abc123' }))).ok).toBe(true);
    const again = await client().issue(order({ relateNumber: 'ABC123' }));
    expect(again).toMatchObject({
      ok: false,
      error: { kind: 'rejected', code: SANDBOX_RTN.duplicateRelateNumber },
    });
  });

  it('refuses items that do not add up to SalesAmount, and an item whose amount is not price × count', async () => {
    const item = {
      ItemSeq: 1,
      ItemName: '茶',
      ItemCount: 2,
      ItemWord: '包',
      ItemPrice: 100,
      ItemTaxType: '1',
      ItemAmount: 200,
      ItemRemark: '',
    };
    const base = {
      MerchantID: KEYS.merchantId,
      RelateNumber: 'RAW1',
      CustomerEmail: 'a@b.tw',
      Print: '0',
      Donation: '0',
      CarrierType: '1',
      CarrierNum: '',
      TaxType: '1',
      InvType: '07',
      vat: '1',
    };
    const sum = await raw(EINVOICE_PATHS.issue, { ...base, SalesAmount: 201, Items: [item] });
    expect(sum.opened).toMatchObject({
      ok: false,
      error: { kind: 'rejected', code: SANDBOX_RTN.amountMismatch },
    });
    const line = await raw(EINVOICE_PATHS.issue, {
      ...base,
      SalesAmount: 250,
      Items: [{ ...item, ItemAmount: 250 }],
    });
    expect(line.opened).toMatchObject({
      ok: false,
      error: { kind: 'rejected', code: SANDBOX_RTN.amountMismatch },
    });
    const zero = await raw(EINVOICE_PATHS.issue, {
      ...base,
      SalesAmount: 0,
      Items: [{ ...item, ItemPrice: 0, ItemAmount: 0 }],
    });
    expect(zero.opened).toMatchObject({ ok: false, error: { kind: 'rejected' } });
    // ECPay's own SDK example: 10.5 × 3 sent as 32, within its rounding.
    const rounded = await raw(EINVOICE_PATHS.issue, {
      ...base,
      SalesAmount: 32,
      Items: [{ ...item, ItemCount: 3, ItemPrice: 10.5, ItemAmount: 32 }],
    });
    expect(rounded.opened).toMatchObject({ ok: true });
  });

  it('refuses the combinations ECPay refuses: printed carrier, donation with a 統一編號, company without Print, Print without an address', async () => {
    const item = { ItemName: '茶', ItemCount: 1, ItemWord: '包', ItemPrice: 100, ItemAmount: 100 };
    const base = {
      MerchantID: KEYS.merchantId,
      CustomerEmail: 'a@b.tw',
      CustomerName: '林',
      Print: '0',
      Donation: '0',
      CarrierType: '',
      CarrierNum: '',
      TaxType: '1',
      SalesAmount: 100,
      Items: [item],
      InvType: '07',
    };
    const { carrierRule, invalidField, outOfScope } = SANDBOX_RTN;
    const cases: Array<[string, object, number]> = [
      ['printed carrier', { CarrierType: '1', Print: '1', CustomerAddr: '臺北市' }, carrierRule],
      [
        'donation with 統一編號',
        {
          CustomerIdentifier: '22099131',
          Donation: '1',
          LoveCode: '919',
          Print: '1',
          CustomerAddr: '臺北市',
        },
        carrierRule,
      ],
      ['統一編號 unprinted', { CustomerIdentifier: '22099131' }, carrierRule],
      [
        '統一編號 bad check digit',
        { CustomerIdentifier: '22099132', Print: '1', CustomerAddr: '臺北市' },
        invalidField,
      ],
      ['print without address', { Print: '1' }, invalidField],
      ['barcode malformed', { CarrierType: '3', CarrierNum: '/abc1234' }, carrierRule],
      ['member with a number', { CarrierType: '1', CarrierNum: '/ABC1234' }, carrierRule],
      [
        'donation printed',
        { Donation: '1', LoveCode: '919', Print: '1', CustomerAddr: '臺北市' },
        carrierRule,
      ],
      ['no phone nor e-mail', { CustomerEmail: '', CarrierType: '1' }, invalidField],
      ['Print missing', { Print: undefined }, invalidField],
      ['outside the sandbox', { TaxType: '3' }, outOfScope],
    ];
    for (const [i, [name, over, code]] of cases.entries()) {
      const res = await raw(EINVOICE_PATHS.issue, { ...base, RelateNumber: `CASE${i}`, ...over });
      expect(res.opened, name).toMatchObject({ ok: false, error: { kind: 'rejected', code } });
    }
    const fine = await raw(EINVOICE_PATHS.issue, {
      ...base,
      RelateNumber: 'FINE',
      CustomerIdentifier: '22099131',
      Print: '1',
      CustomerAddr: '臺北市',
    });
    expect(fine.opened).toMatchObject({ ok: true });
  });
});

describe('the envelope, read as ECPay reads it', () => {
  it('refuses a wrong MerchantID with TransCode 999 and no Data', async () => {
    const res = await client({ ...SETTINGS, merchantId: '2000214' }).checkLoveCode('168001');
    expect(res).toMatchObject({ ok: false, error: { kind: 'refused', code: 999 } });
    const body = (
      await raw(
        EINVOICE_PATHS.checkLoveCode,
        { MerchantID: '2000214', LoveCode: '919' },
        { ...KEYS, merchantId: '2000214' },
      )
    ).body;
    expect(body).toMatchObject({ MerchantID: '2000214', TransCode: 999, Data: '' });
  });

  it('refuses Data it cannot decrypt (other keys) and a body that is not the envelope', async () => {
    const res = await client({ ...SETTINGS, hashKey: 'AAAAAAAAAAAAAAAA' }).checkBarcode('/ABC1234');
    expect(res).toMatchObject({ ok: false, error: { kind: 'refused', code: 999 } });
    const junk = await app.inject({
      method: 'POST',
      url: `${SANDBOX_EINVOICE_PATH}${EINVOICE_PATHS.issue}`,
      payload: { hello: 'world' },
    });
    expect(junk.json()).toMatchObject({ TransCode: 999, Data: '' });
  });

  it('refuses a request stamped more than 10 minutes away', async () => {
    const late = client(SETTINGS, () => new Date(START.getTime() - 11 * 60_000));
    expect(await late.checkLoveCode('919')).toMatchObject({ ok: false, error: { kind: 'refused' } });
  });

  it('answers .NET-style encoded Data that the client reads back exactly (spaces, ! ( ) %, Chinese)', async () => {
    const issued = await client().issue(order());
    if (!issued.ok) throw new Error('issue failed');
    const res = await app.inject({
      method: 'POST',
      url: `${SANDBOX_EINVOICE_PATH}${EINVOICE_PATHS.getIssue}`,
      payload: envelope(KEYS, { MerchantID: KEYS.merchantId, RelateNumber: 'TW20260301001' }, clock),
    });
    const data = decryptData(res.json().Data, KEYS.hashKey, KEYS.hashIV) as {
      Items: Array<{ ItemName: string }>;
      IIS_Create_Date: string;
    };
    expect(data.Items[0]!.ItemName).toBe('凍頂烏龍茶 (150g) 100% 台灣!');
    expect(data.IIS_Create_Date).toBe('2026-03-01 12:05:06');
  });
});

describe('Invalid, Allowance, AllowanceInvalid, GetIssue', () => {
  async function issued(relateNumber = 'TW20260301001') {
    const res = await client().issue(order({ relateNumber }));
    if (!res.ok) throw new Error(`issue failed: ${JSON.stringify(res.error)}`);
    return res.value;
  }

  it('voids an invoice once; the second void is refused', async () => {
    const inv = await issued();
    const first = await client().invalid({
      invoiceNo: inv.invoiceNo,
      invoiceDate: inv.invoiceDate,
      reason: '訂單取消',
    });
    expect(first).toEqual({ ok: true, value: { invoiceNo: inv.invoiceNo } });
    const second = await client().invalid({
      invoiceNo: inv.invoiceNo,
      invoiceDate: inv.invoiceDate,
      reason: '訂單取消',
    });
    expect(second).toMatchObject({ ok: false, error: { kind: 'rejected', code: SANDBOX_RTN.alreadyVoided } });
    expect(await client().getIssue({ relateNumber: 'TW20260301001' })).toMatchObject({
      ok: true,
      value: { voided: true },
    });
  });

  it('voids a March invoice until 13 May 23:59:59 (Taipei), and refuses from 14 May 00:00 (ECPay has filed the period)', async () => {
    const first = await issued('TW20260301001');
    const second = await issued('TW20260301002');
    clock = new Date('2026-05-13T23:59:59+08:00');
    expect(
      await client().invalid({
        invoiceNo: first.invoiceNo,
        invoiceDate: first.invoiceDate,
        reason: '訂單取消',
      }),
    ).toMatchObject({ ok: true });
    clock = new Date('2026-05-14T00:00:00+08:00');
    expect(
      await client().invalid({
        invoiceNo: second.invoiceNo,
        invoiceDate: second.invoiceDate,
        reason: '訂單取消',
      }),
    ).toMatchObject({ ok: false, error: { kind: 'rejected', code: SANDBOX_RTN.voidPeriodOver } });
  });

  it('refuses an invoice named with the wrong day', async () => {
    const inv = await issued();
    const res = await client().invalid({
      invoiceNo: inv.invoiceNo,
      invoiceDate: '2026-02-28',
      reason: '訂單取消',
    });
    expect(res).toMatchObject({ ok: false, error: { kind: 'rejected', code: SANDBOX_RTN.notFound } });
  });

  it('credits up to what remains, never more, and reports what is left', async () => {
    const inv = await issued(); // 2,200
    const base = { invoiceNo: inv.invoiceNo, invoiceDate: inv.invoiceDate, notifyEmail: 'lan@example.com' };
    const a = await client().allowance({
      ...base,
      lines: [{ name: '凍頂烏龍茶 150g', quantity: 1, unitPrice: 450 }],
    });
    expect(a).toMatchObject({
      ok: true,
      value: { invoiceNo: inv.invoiceNo, date: '2026-03-01 12:05:06', remainingAmount: 1750 },
    });
    if (a.ok) expect(a.value.allowanceNo).toMatch(/^20260301120506\d{2}$/);
    const over = await client().allowance({ ...base, lines: [refundLine(1751)] });
    expect(over).toMatchObject({ ok: false, error: { kind: 'rejected', code: SANDBOX_RTN.overAllowance } });
    const rest = await client().allowance({ ...base, lines: [refundLine(1750)] });
    expect(rest).toMatchObject({ ok: true, value: { remainingAmount: 0 } });
    expect(await client().allowance({ ...base, lines: [refundLine(1)] })).toMatchObject({
      ok: false,
      error: { code: SANDBOX_RTN.overAllowance },
    });
  });

  it('will not void an invoice with a live allowance; voiding the allowance (once) frees it', async () => {
    const inv = await issued();
    const a = await client().allowance({
      invoiceNo: inv.invoiceNo,
      invoiceDate: inv.invoiceDate,
      lines: [refundLine(200)],
    });
    if (!a.ok) throw new Error('allowance failed');
    const blocked = await client().invalid({
      invoiceNo: inv.invoiceNo,
      invoiceDate: inv.invoiceDate,
      reason: '退貨',
    });
    expect(blocked).toMatchObject({
      ok: false,
      error: { kind: 'rejected', code: SANDBOX_RTN.hasAllowances },
    });

    expect(
      await client().allowanceInvalid({
        invoiceNo: inv.invoiceNo,
        allowanceNo: a.value.allowanceNo,
        reason: '重開折讓',
      }),
    ).toEqual({ ok: true, value: { invoiceNo: inv.invoiceNo } });
    expect(
      await client().allowanceInvalid({
        invoiceNo: inv.invoiceNo,
        allowanceNo: a.value.allowanceNo,
        reason: '重開折讓',
      }),
    ).toMatchObject({ ok: false, error: { code: SANDBOX_RTN.allowanceVoided } });
    expect(await client().getIssue({ invoiceNo: inv.invoiceNo, invoiceDate: inv.invoiceDate })).toMatchObject(
      { ok: true, value: { remainingAllowance: 2200, voided: false } },
    );
    expect(
      await client().invalid({ invoiceNo: inv.invoiceNo, invoiceDate: inv.invoiceDate, reason: '退貨' }),
    ).toMatchObject({ ok: true });
    expect(
      await client().allowance({
        invoiceNo: inv.invoiceNo,
        invoiceDate: inv.invoiceDate,
        lines: [refundLine(10)],
      }),
    ).toMatchObject({ ok: false, error: { code: SANDBOX_RTN.alreadyVoided } });
  });

  it('AllowanceByCollegiate: waits for the buyer, holding its amount; the consent issues it and posts the signed result to ReturnURL', async () => {
    const inv = await issued(); // 2,200
    const returnUrl = 'https://shop.example/api/invoices/ecpay/allowance-result';
    const base = {
      invoiceNo: inv.invoiceNo,
      invoiceDate: inv.invoiceDate,
      notifyEmail: 'lan@example.com',
      customerName: '林小嵐',
      returnUrl,
    };
    const asked = await client().allowanceByCollegiate({ ...base, lines: [refundLine(700)] });
    expect(asked).toMatchObject({
      ok: true,
      value: {
        invoiceNo: inv.invoiceNo,
        requestedAt: '2026-03-01 12:05:06',
        expiresAt: '2026-03-04 12:05:06',
        remainingAmount: 1500,
      },
    });
    if (!asked.ok) throw new Error('not asked');
    expect(asked.value.allowanceNo).toMatch(/^20260301120506\d{2}$/);
    // Waiting, it holds its amount and blocks a void.
    expect(await client().allowanceByCollegiate({ ...base, lines: [refundLine(1501)] })).toMatchObject({
      ok: false,
      error: { code: SANDBOX_RTN.overAllowance },
    });
    expect(
      await client().invalid({ invoiceNo: inv.invoiceNo, invoiceDate: inv.invoiceDate, reason: '退貨' }),
    ).toMatchObject({ ok: false, error: { code: SANDBOX_RTN.hasAllowances } });
    expect(notices).toEqual([]);

    const consent = `${SANDBOX_EINVOICE_PATH}/consent/${inv.invoiceNo}/${asked.value.allowanceNo}`;
    expect((await app.inject({ method: 'GET', url: consent })).body).toContain('待同意');
    clock = new Date(START.getTime() + 3600_000);
    const agreed = await app.inject({ method: 'POST', url: consent });
    expect(agreed.statusCode).toBe(200);
    expect(agreed.body).toContain('1|OK');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.url).toBe(returnUrl);
    expect(readAllowanceNotice(notices[0]!.fields, KEYS)).toEqual({
      agreed: true,
      message: '開立折讓成功',
      allowanceNo: asked.value.allowanceNo,
      invoiceNo: inv.invoiceNo,
      date: '2026-03-01 13:05:06',
      remainingAmount: 1500,
    });
    // Agreeing twice issues nothing more (ECPay's link is one consent).
    await app.inject({ method: 'POST', url: consent });
    expect(await client().getIssue({ relateNumber: 'TW20260301001' })).toMatchObject({
      ok: true,
      value: { remainingAllowance: 1500 },
    });
  });

  it('AllowanceByCollegiate: needs the buyer’s e-mail (AllowanceNotify E) and a ReturnURL', async () => {
    const inv = await issued();
    const data = {
      MerchantID: KEYS.merchantId,
      InvoiceNo: inv.invoiceNo,
      InvoiceDate: inv.invoiceDate.slice(0, 10),
      AllowanceNotify: 'N',
      CustomerName: '',
      NotifyMail: '',
      NotifyPhone: '',
      AllowanceAmount: 10,
      Items: [
        {
          ItemSeq: 1,
          ItemName: '退款折讓',
          ItemCount: 1,
          ItemWord: '式',
          ItemPrice: 10,
          ItemTaxType: '1',
          ItemAmount: 10,
        },
      ],
      ReturnURL: 'https://shop.example/r',
    };
    const send = async (payload: object) =>
      openReply(
        (
          await app.inject({
            method: 'POST',
            url: `${SANDBOX_EINVOICE_PATH}${EINVOICE_PATHS.allowanceByCollegiate}`,
            payload: envelope(KEYS, payload, clock),
          })
        ).json(),
        KEYS,
      );
    expect(await send(data)).toMatchObject({ ok: false, error: { code: SANDBOX_RTN.invalidField } });
    expect(
      await send({ ...data, AllowanceNotify: 'E', NotifyMail: 'lan@example.com', ReturnURL: '' }),
    ).toMatchObject({ ok: false, error: { code: SANDBOX_RTN.invalidField } });
    expect(await send({ ...data, AllowanceNotify: 'E', NotifyMail: 'lan@example.com' })).toMatchObject({
      ok: true,
    });
  });

  it('AllowanceByCollegiate: unanswered for 72 hours it lapses, gives its amount back and can no longer be agreed to', async () => {
    const inv = await issued();
    const asked = await client().allowanceByCollegiate({
      invoiceNo: inv.invoiceNo,
      invoiceDate: inv.invoiceDate,
      notifyEmail: 'lan@example.com',
      returnUrl: 'https://shop.example/r',
      lines: [refundLine(2200)],
    });
    if (!asked.ok) throw new Error('not asked');
    clock = new Date(START.getTime() + 72 * 3600_000 + 1000);
    const late = await app.inject({
      method: 'POST',
      url: `${SANDBOX_EINVOICE_PATH}/consent/${inv.invoiceNo}/${asked.value.allowanceNo}`,
    });
    expect(late.statusCode).toBe(410);
    expect(notices).toEqual([]);
    expect(await client().getIssue({ relateNumber: 'TW20260301001' })).toMatchObject({
      ok: true,
      value: { remainingAllowance: 2200 },
    });
    expect(
      await client().invalid({ invoiceNo: inv.invoiceNo, invoiceDate: inv.invoiceDate, reason: '退貨' }),
    ).toMatchObject({ ok: true });
  });

  it('reports the draw in GetIssue: IIS_Award_Flag 1 and the prize (IIS_Award_Type) for a winner, 0 for the rest, X for a company invoice, empty before', async () => {
    const inv = await issued('TW10');
    expect(await client().getIssue({ relateNumber: 'TW10' })).toMatchObject({
      ok: true,
      value: { awardFlag: '', awardType: '' },
    });
    expect(
      (await app.inject({ method: 'POST', url: `${SANDBOX_EINVOICE_PATH}/award/${inv.invoiceNo}/7` }))
        .statusCode,
    ).toBe(200);
    expect(await client().getIssue({ relateNumber: 'TW10' })).toMatchObject({
      ok: true,
      value: { awardFlag: '1', awardType: '7' },
    });
    const other = await issued('TW11');
    await app.inject({ method: 'POST', url: `${SANDBOX_EINVOICE_PATH}/award/${other.invoiceNo}/0` });
    expect(await client().getIssue({ relateNumber: 'TW11' })).toMatchObject({
      ok: true,
      value: { awardFlag: '0', awardType: '' },
    });
    const company = await client().issue(
      order({
        relateNumber: 'TW12',
        buyer: { name: '林小嵐', email: 'lan@example.com', address: '南投縣鹿谷鄉' },
        invoice: { type: 'company', taxId: '04595257', title: '山嵐茶事股份有限公司' },
      }),
    );
    if (!company.ok) throw new Error('not issued');
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `${SANDBOX_EINVOICE_PATH}/award/${company.value.invoiceNo}/6`,
        })
      ).statusCode,
    ).toBe(409);
    expect(await client().getIssue({ relateNumber: 'TW12' })).toMatchObject({
      ok: true,
      value: { awardFlag: 'X' },
    });
  });

  it('refuses an unknown allowance number', async () => {
    const inv = await issued();
    expect(
      await client().allowanceInvalid({
        invoiceNo: inv.invoiceNo,
        allowanceNo: '2026030112050699',
        reason: 'x',
      }),
    ).toMatchObject({ ok: false, error: { code: SANDBOX_RTN.notFound } });
  });

  it('finds an invoice by RelateNumber (any case) or by number and day, with its amounts', async () => {
    const inv = await issued('TW9');
    const byRelate = await client().getIssue({ relateNumber: 'tw9' });
    expect(byRelate).toEqual({
      ok: true,
      value: {
        invoiceNo: inv.invoiceNo,
        relateNumber: 'TW9',
        invoiceDate: inv.invoiceDate,
        randomNumber: inv.randomNumber,
        salesAmount: 2200,
        voided: false,
        remainingAllowance: 2200,
        awardFlag: '',
        awardType: '',
      },
    });
    expect(
      await client().getIssue({ invoiceNo: inv.invoiceNo, invoiceDate: inv.invoiceDate.slice(0, 10) }),
    ).toMatchObject({ ok: true, value: { relateNumber: 'TW9' } });
    expect(await client().getIssue({ relateNumber: 'NOPE' })).toMatchObject({
      ok: false,
      error: { kind: 'rejected', code: SANDBOX_RTN.notFound },
    });
  });
});

describe('CheckBarcode and CheckLoveCode', () => {
  it('knows every well-formed barcode except the sandbox’s unknown one', async () => {
    expect(await client().checkBarcode('/ABC1234')).toEqual({ ok: true, value: { exists: true } });
    expect(await client().checkBarcode('/abc+1.-')).toEqual({ ok: true, value: { exists: true } });
    expect(await client().checkBarcode('/0000000')).toEqual({ ok: true, value: { exists: false } });
  });

  it('knows only its listed donation codes', async () => {
    for (const code of ['168001', '919', '5299'])
      expect(await client().checkLoveCode(code), code).toEqual({ ok: true, value: { exists: true } });
    expect(await client().checkLoveCode('1234')).toEqual({ ok: true, value: { exists: false } });
  });

  it('knows the well-known codes the checkout offers, so none of them is refused', async () => {
    const { WELL_KNOWN_DONATION_CODES } = await import('@shop/shared/invoice');
    for (const { code } of WELL_KNOWN_DONATION_CODES)
      expect(await client().checkLoveCode(code), code).toEqual({ ok: true, value: { exists: true } });
    expect(await client().checkLoveCode('1234')).toEqual({ ok: true, value: { exists: false } });
  });

  it('refuses malformed input before sending anything', async () => {
    let sent = 0;
    const counting = invoiceClient(SETTINGS, async (url, body) => {
      sent += 1;
      return injectPost(url, body);
    });
    expect(await counting.checkBarcode('ABC1234')).toMatchObject({
      ok: false,
      error: { kind: 'input', field: 'barcode' },
    });
    expect(await counting.checkLoveCode('12')).toMatchObject({
      ok: false,
      error: { kind: 'input', field: 'loveCode' },
    });
    expect(sent).toBe(0);
  });

  it('the server refuses a malformed code sent anyway', async () => {
    const res = await raw(EINVOICE_PATHS.checkBarcode, { MerchantID: KEYS.merchantId, BarCode: 'ABC12345' });
    expect(res.opened).toMatchObject({
      ok: false,
      error: { kind: 'rejected', code: SANDBOX_RTN.invalidField },
    });
  });
});

describe('when the service is down', () => {
  it('answers HTTP 503, which the client reports as unavailable', async () => {
    down = true;
    const res = await app.inject({
      method: 'POST',
      url: `${SANDBOX_EINVOICE_PATH}${EINVOICE_PATHS.checkBarcode}`,
      payload: envelope(KEYS, { MerchantID: KEYS.merchantId, BarCode: '/ABC1234' }, clock),
    });
    expect(res.statusCode).toBe(503);
    expect(await client().checkBarcode('/ABC1234')).toEqual({
      ok: false,
      error: { kind: 'unavailable', message: '電子發票服務暫時無法連線', status: 503 },
    });
    expect(await client().issue(order())).toMatchObject({ ok: false, error: { kind: 'unavailable' } });
    down = false;
    expect(await client().checkBarcode('/ABC1234')).toEqual({ ok: true, value: { exists: true } });
  });

  it('a post that throws (network) is unavailable too, without a status', async () => {
    const offline = invoiceClient(SETTINGS, async () => {
      throw new TypeError('fetch failed');
    });
    expect(await offline.checkLoveCode('919')).toEqual({
      ok: false,
      error: { kind: 'unavailable', message: '電子發票服務暫時無法連線' },
    });
  });
});
