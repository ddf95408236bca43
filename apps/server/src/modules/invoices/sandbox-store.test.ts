import Fastify, { type FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { sandboxEinvoices } from '../../db/schema.ts';
import { createTestDatabase, dbAvailable } from '../../../test/helpers.ts';
import { EINVOICE_STAGE_MERCHANT, SANDBOX_EINVOICE_PATH } from './ecpay-invoice-protocol.ts';
import { EinvoiceHttpError, invoiceClient, type EinvoicePost } from './ecpay-invoice-client.ts';
import { refundLine, type IssueInput } from './ecpay-invoice-fields.ts';
import einvoiceSandbox from './sandbox.ts';
import { SANDBOX_RTN } from './sandbox-rules.ts';
import {
  dbEinvoices,
  memoryEinvoices,
  type SandboxInvoice,
  type SandboxInvoiceStore,
} from './sandbox-store.ts';

const KEYS = {
  merchantId: EINVOICE_STAGE_MERCHANT.merchantId,
  hashKey: EINVOICE_STAGE_MERCHANT.hashKey,
  hashIV: EINVOICE_STAGE_MERCHANT.hashIV,
};

const order = (relateNumber: string): IssueInput => ({
  relateNumber,
  lines: [{ name: '凍頂烏龍茶 (150g)', quantity: 2, unitPrice: 450 }],
  shippingFee: 100,
  discountTotal: 0,
  buyer: { name: '林小嵐', email: 'lan@example.com' },
  invoice: { type: 'member' },
});

/** An invoice as the sandbox keeps one, with a decimal item and an allowance, to see it come back whole. */
const kept = (invoiceNo: string, relateNumber: string): SandboxInvoice => ({
  invoiceNo,
  relateNumber,
  invoiceDate: '2026-03-01 12:05:06',
  randomNumber: '0427',
  salesAmount: 32,
  data: {
    RelateNumber: relateNumber,
    CustomerID: '',
    CustomerIdentifier: '',
    CustomerName: '林小嵐',
    CustomerAddr: '',
    CustomerPhone: '',
    CustomerEmail: 'lan@example.com',
    ClearanceMark: '',
    Print: '0',
    Donation: '0',
    LoveCode: '',
    CarrierType: '1',
    CarrierNum: '',
    TaxType: '1',
    SalesAmount: 32,
    InvoiceRemark: '備註：含「引號」與 emoji 🍵',
    Items: [
      {
        ItemSeq: 1,
        ItemName: '茶',
        ItemCount: 3,
        ItemWord: '包',
        ItemPrice: 10.5,
        ItemTaxType: '1',
        ItemAmount: 32,
        ItemRemark: '',
      },
    ],
    InvType: '07',
    vat: '1',
  },
  voided: false,
  allowances: [{ allowanceNo: '2026030112050601', amount: 5, date: '2026-03-01 12:05:06', voided: false }],
});

describe('the in-memory store', () => {
  it('forgets the oldest invoices beyond its limit, by number and by RelateNumber', async () => {
    const store = memoryEinvoices(2);
    for (const [i, relate] of ['A1', 'A2', 'A3'].entries())
      expect(await store.add(kept(`AB1000000${i}`, relate))).toBe('added');
    expect(await store.get('AB10000000')).toBeUndefined();
    expect(await store.getByRelateNumber('a1')).toBeUndefined();
    expect(await store.getByRelateNumber('a3')).toMatchObject({ invoiceNo: 'AB10000002' });
  });
});

describe.skipIf(!dbAvailable())('the database store', () => {
  let database: Database;
  let store: SandboxInvoiceStore;
  beforeAll(async () => {
    database = await createTestDatabase();
    store = dbEinvoices(database.db);
  });
  afterAll(async () => database.close());

  it('gives back exactly what it kept, dates and decimals included, and finds it by RelateNumber in any case', async () => {
    const invoice = kept('XY10000001', 'Tw20260301a');
    expect(await store.add(invoice)).toBe('added');
    expect(await store.get('XY10000001')).toStrictEqual(invoice);
    expect(await store.getByRelateNumber('TW20260301A')).toStrictEqual(invoice);
    expect(await store.getByRelateNumber('tw20260301a')).toStrictEqual(invoice);
    // The RelateNumber column is upper case (so its unique key ignores case); the invoice keeps it as sent.
    const [row] = await database.db
      .select()
      .from(sandboxEinvoices)
      .where(eq(sandboxEinvoices.invoiceNo, 'XY10000001'));
    expect(row?.relateNumber).toBe('TW20260301A');
    expect((await store.get('XY10000001'))?.relateNumber).toBe('Tw20260301a');
  });

  it('refuses a RelateNumber kept already in another case, and says when only the invoice number is taken', async () => {
    await store.add(kept('XY10000002', 'DUP1'));
    expect(await store.add(kept('XY10000003', 'dup1'))).toBe('relate-number-taken');
    expect(await store.add(kept('XY10000002', 'OTHER1'))).toBe('invoice-number-taken');
    expect(await store.getByRelateNumber('OTHER1')).toBeUndefined();
  });

  it('saves changes and knows every allowance number given out', async () => {
    const invoice = kept('XY10000004', 'SAVE1');
    await store.add(invoice);
    expect(await store.allowanceNoTaken('2026030112050699')).toBe(false);
    await store.save({
      ...invoice,
      voided: true,
      allowances: [
        ...invoice.allowances,
        { allowanceNo: '2026030112050699', amount: 1, date: '2026-03-01 12:05:06', voided: true },
      ],
    });
    expect(await store.get('XY10000004')).toMatchObject({
      voided: true,
      allowances: [{ voided: false }, { allowanceNo: '2026030112050699', voided: true }],
    });
    expect(await store.allowanceNoTaken('2026030112050699')).toBe(true);
    expect(await store.allowanceNoTaken('2026030112050601')).toBe(true);
  });
});

/** The sandbox as a server that is stopped and started again, the shop's client talking to it. */
describe.skipIf(!dbAvailable())('a sandbox started again', () => {
  let database: Database;
  let app: FastifyInstance | null = null;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await app?.close();
    app = null;
  });
  afterAll(async () => database.close());

  const start = async (store: SandboxInvoiceStore) => {
    await app?.close();
    app = Fastify();
    await app.register(einvoiceSandbox, { prefix: SANDBOX_EINVOICE_PATH, settings: KEYS, store });
    await app.ready();
  };
  const post: EinvoicePost = async (url, jsonBody) => {
    const res = await app!.inject({ method: 'POST', url, payload: jsonBody as object });
    if (res.statusCode < 200 || res.statusCode >= 300) throw new EinvoiceHttpError(res.statusCode);
    return res.json();
  };
  const client = invoiceClient({ ...KEYS, host: SANDBOX_EINVOICE_PATH }, post);

  it('with the database store remembers what it issued: found by RelateNumber, not issued twice, still voidable and creditable', async () => {
    await start(dbEinvoices(database.db));
    const first = await client.issue(order('RESTART1'));
    if (!first.ok) throw new Error(JSON.stringify(first.error));
    const credit = await client.allowance({
      invoiceNo: first.value.invoiceNo,
      invoiceDate: first.value.invoiceDate,
      lines: [refundLine(100)],
    });
    if (!credit.ok) throw new Error(JSON.stringify(credit.error));

    await start(dbEinvoices(database.db));
    expect(await client.getIssue({ relateNumber: 'restart1' })).toMatchObject({
      ok: true,
      value: {
        invoiceNo: first.value.invoiceNo,
        invoiceDate: first.value.invoiceDate,
        remainingAllowance: 900,
      },
    });
    expect(await client.issue(order('RESTART1'))).toMatchObject({
      ok: false,
      error: { kind: 'rejected', code: SANDBOX_RTN.duplicateRelateNumber },
    });
    // The allowance made before the restart still blocks the void, and can itself be voided once.
    expect(
      await client.invalid({
        invoiceNo: first.value.invoiceNo,
        invoiceDate: first.value.invoiceDate,
        reason: '取消',
      }),
    ).toMatchObject({ ok: false, error: { code: SANDBOX_RTN.hasAllowances } });
    expect(
      await client.allowanceInvalid({
        invoiceNo: first.value.invoiceNo,
        allowanceNo: credit.value.allowanceNo,
        reason: '重開',
      }),
    ).toMatchObject({ ok: true });
    expect(
      await client.allowanceInvalid({
        invoiceNo: first.value.invoiceNo,
        allowanceNo: credit.value.allowanceNo,
        reason: '重開',
      }),
    ).toMatchObject({ ok: false, error: { code: SANDBOX_RTN.allowanceVoided } });
    expect(
      await client.invalid({
        invoiceNo: first.value.invoiceNo,
        invoiceDate: first.value.invoiceDate,
        reason: '取消',
      }),
    ).toMatchObject({ ok: true });

    await start(dbEinvoices(database.db));
    expect(await client.getIssue({ relateNumber: 'RESTART1' })).toMatchObject({
      ok: true,
      value: { voided: true },
    });
    expect(
      await client.invalid({
        invoiceNo: first.value.invoiceNo,
        invoiceDate: first.value.invoiceDate,
        reason: '取消',
      }),
    ).toMatchObject({ ok: false, error: { code: SANDBOX_RTN.alreadyVoided } });
  });

  it('with the in-memory store forgets on restart (why the app gives it the database)', async () => {
    await start(memoryEinvoices());
    expect((await client.issue(order('FORGET1'))).ok).toBe(true);
    await start(memoryEinvoices());
    expect(await client.getIssue({ relateNumber: 'FORGET1' })).toMatchObject({
      ok: false,
      error: { code: SANDBOX_RTN.notFound },
    });
  });

  it('changes one invoice one request at a time: of two voids, or two allowances over what remains, sent together, one goes through', async () => {
    await start(dbEinvoices(database.db));
    const issued = await client.issue(order('TOGETHER1'));
    if (!issued.ok) throw new Error(JSON.stringify(issued.error));
    const at = { invoiceNo: issued.value.invoiceNo, invoiceDate: issued.value.invoiceDate };
    const credits = await Promise.all([
      client.allowance({ ...at, lines: [refundLine(600)] }),
      client.allowance({ ...at, lines: [refundLine(600)] }),
    ]);
    expect(credits.filter((c) => c.ok)).toHaveLength(1);
    expect(credits.find((c) => !c.ok)).toMatchObject({ error: { code: SANDBOX_RTN.overAllowance } });
    const credit = credits.find((c) => c.ok);
    if (!credit?.ok) throw new Error('no allowance');
    await client.allowanceInvalid({
      invoiceNo: at.invoiceNo,
      allowanceNo: credit.value.allowanceNo,
      reason: '重開',
    });
    const voids = await Promise.all([
      client.invalid({ ...at, reason: '取消' }),
      client.invalid({ ...at, reason: '取消' }),
    ]);
    expect(voids.filter((v) => v.ok)).toHaveLength(1);
    expect(voids.find((v) => !v.ok)).toMatchObject({ error: { code: SANDBOX_RTN.alreadyVoided } });
  });

  it('two issues of one RelateNumber sent together make one invoice', async () => {
    await start(dbEinvoices(database.db));
    const both = await Promise.all([client.issue(order('SAME1')), client.issue(order('same1'))]);
    expect(both.filter((r) => r.ok)).toHaveLength(1);
    expect(both.find((r) => !r.ok)).toMatchObject({ error: { code: SANDBOX_RTN.duplicateRelateNumber } });
    expect(
      await database.db.select().from(sandboxEinvoices).where(eq(sandboxEinvoices.relateNumber, 'SAME1')),
    ).toHaveLength(1);
  });
});
