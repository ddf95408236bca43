import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IssuedInvoiceView } from '@shop/shared/orders';
import { dbAvailable, type TestContext } from '../../../test/helpers.ts';
import { latestMail, mailSettled } from '../../../test/mail.ts';
import { ORIGIN, ecpayNotice, notifyPayment, shopWithStaff, shopper } from '../../../test/shop.ts';
import { invoices, mailOutbox, orders, outboxMessages } from '../../db/schema.ts';
import { invoiceSubject } from '../orders/read-models.ts';
import { EINVOICE_PATHS, SANDBOX_EINVOICE_PATH, envelope, openReply } from './ecpay-invoice-protocol.ts';
import { allowanceNoticeForm } from './ecpay-invoice-fields.ts';
import { type InvoiceClient } from './ecpay-invoice-client.ts';
import {
  carrierChecker,
  invoiceView,
  requestAllowance,
  voidDeadline,
  voidInvoice,
  type InvoiceDeps,
} from './service.ts';

describe('the filing period', () => {
  it('lets an invoice be voided until 23:59:59 (Taipei) on the 13th of the month after its two-month period, as ECPay does', () => {
    expect(voidDeadline('2026-01-03 10:00:00').toISOString()).toBe('2026-03-13T15:59:59.999Z');
    expect(voidDeadline('2026-02-28 23:59:59').toISOString()).toBe('2026-03-13T15:59:59.999Z');
    expect(voidDeadline('2026-11-26 09:00:00').toISOString()).toBe('2027-01-13T15:59:59.999Z');
    expect(voidDeadline('2026-12-31 23:00:00').toISOString()).toBe('2027-01-13T15:59:59.999Z');
  });
});

describe('checking a mobile barcode or donation code', () => {
  const client = (answers: Array<'Y' | 'N' | 'down'>) => {
    let calls = 0;
    const next = async () => {
      calls += 1;
      const a = answers.shift();
      return a === 'down'
        ? ({ ok: false, error: { kind: 'unavailable', message: 'down' } } as const)
        : ({ ok: true, value: { exists: a === 'Y' } } as const);
    };
    return { checkBarcode: next, checkLoveCode: next, calls: () => calls } as unknown as InvoiceClient & {
      calls(): number;
    };
  };

  it('answers from a cache: a code found for a day, one not found for ten minutes; unverified while the service is down (not cached)', async () => {
    let now = 0;
    const c = client(['down', 'Y', 'N', 'Y']);
    const check = carrierChecker(c, () => now);
    expect(await check('mobile', '/ABC1234')).toBe('unverified');
    expect(await check('mobile', '/ABC1234')).toBe('valid');
    now += 23 * 3600_000;
    expect(await check('mobile', '/ABC1234')).toBe('valid');
    expect(c.calls()).toBe(2);
    expect(await check('donation', '919')).toBe('invalid');
    now += 9 * 60_000;
    expect(await check('donation', '919')).toBe('invalid');
    now += 2 * 60_000;
    expect(await check('donation', '919')).toBe('valid');
    expect(c.calls()).toBe(4);
  });
});

/** Invoices issued, shown, mailed, voided and credited through the real app and the built-in ECPay sandbox. */
describe.skipIf(!dbAvailable())('e-invoices', () => {
  let ctx: TestContext;
  let variant: string;
  let staffCookie: string;
  beforeAll(async () => {
    ({ ctx, variant, staffCookie } = await shopWithStaff('invoice-staff@example.com'));
  });
  afterAll(async () => ctx.close());

  const pay = async (orderNo: string) =>
    expect(await notifyPayment(ctx.app, ecpayNotice(orderNo, '1', '交易成功'))).toBe('1|OK');
  /** A paid card order of one 480 tin (600 with shipping), with the invoice the member chose. */
  const paidOrder = async (email: string, invoice: Record<string, string> = { type: 'member' }) => {
    const s = await shopper(ctx.app, email);
    await s.add(variant, 1);
    const res = await s.order({ paymentMethod: 'credit_card', invoice });
    expect(res.statusCode, res.body).toBe(201);
    const orderNo = (res.json() as { order: { orderNo: string } }).order.orderNo;
    await pay(orderNo);
    await ctx.app.outbox.drain();
    await mailSettled(ctx.database);
    return { s, orderNo };
  };
  const issued = async (s: Awaited<ReturnType<typeof shopper>>, orderNo: string) =>
    ((await s.call('GET', `/api/orders/${orderNo}`)).json() as { issuedInvoice: IssuedInvoiceView | null })
      .issuedInvoice;

  it('a paid order gets its invoice: number, date and random code on the order page, in the console and in a mail', async () => {
    const { s, orderNo } = await paidOrder('invoice-paid@example.com');
    const view = await issued(s, orderNo);
    expect(view).toMatchObject({ status: 'issued', amount: 600, voidReason: null, allowances: [] });
    if (view?.status !== 'issued') throw new Error('not issued');
    expect(view.invoiceNo).toMatch(/^[A-Z]{2}\d{8}$/);
    expect(view.randomNumber).toMatch(/^\d{4}$/);
    expect(view.invoiceDate).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const mail = await latestMail(ctx.database, 'invoice-paid@example.com', 'invoice-issued');
    expect(mail.subject).toBe(`【山嵐茶事】電子發票已開立：${orderNo}`);
    expect(mail.text).toContain(`發票號碼：${view.invoiceNo.slice(0, 2)}-${view.invoiceNo.slice(2)}`);
    expect(mail.text).toContain(`隨機碼：${view.randomNumber}`);
    expect(mail.text).toContain('發票存放在您的綠界會員載具');
    const consoleView = await ctx.app.inject({
      method: 'GET',
      url: `/api/admin/orders/${orderNo}`,
      headers: { cookie: staffCookie, origin: ORIGIN },
    });
    expect(consoleView.json().issuedInvoice).toEqual(view);
    // A repeated payment notice issues nothing more.
    await pay(orderNo);
    await ctx.app.outbox.drain();
    expect(
      await ctx.database.db.select().from(invoices).where(eq(invoices.relateNumber, orderNo)),
    ).toHaveLength(1);
  });

  it('a company invoice carries the 統一編號 and title; a donation goes to the code', async () => {
    const company = await paidOrder('invoice-company@example.com', {
      type: 'company',
      taxId: '04595257',
      companyTitle: '山嵐茶事股份有限公司',
    });
    expect(
      (await ctx.database.db.select().from(invoices).where(eq(invoices.relateNumber, company.orderNo)))[0]
        ?.issuedTo,
    ).toEqual({ type: 'company', taxId: '04595257', companyTitle: '山嵐茶事股份有限公司' });
    expect((await latestMail(ctx.database, 'invoice-company@example.com', 'invoice-issued')).text).toContain(
      '統一編號 04595257',
    );
    const donated = await paidOrder('invoice-donation@example.com', {
      type: 'donation',
      donationCode: '919',
    });
    expect((await latestMail(ctx.database, 'invoice-donation@example.com', 'invoice-issued')).text).toContain(
      '愛心碼 919',
    );
    expect((await issued(donated.s, donated.orderNo))?.status).toBe('issued');
  });

  it('a citizen digital certificate carrier (自然人憑證) is issued to ECPay as CarrierType 2 with its number, shown on the order and in the mail', async () => {
    const s = await shopper(ctx.app, 'invoice-certificate-short@example.com');
    await s.add(variant, 1);
    const refused = await s.order({
      paymentMethod: 'credit_card',
      invoice: { type: 'certificate', certificate: 'AB1234567890123' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields).toEqual({
      'invoice.certificate': '自然人憑證條碼格式不正確：2 碼英文字母加上 14 碼數字',
    });

    // Typed in lower case with spaces around: kept as ECPay reads it.
    const { s: buyer, orderNo } = await paidOrder('invoice-certificate@example.com', {
      type: 'certificate',
      certificate: ' ab12345678901234 ',
    });
    expect(
      (await ctx.database.db.select().from(orders).where(eq(orders.orderNo, orderNo)))[0]?.invoice,
    ).toEqual({ type: 'certificate', certificate: 'AB12345678901234' });
    expect(
      (await ctx.database.db.select().from(invoices).where(eq(invoices.relateNumber, orderNo)))[0]?.issuedTo,
    ).toEqual({ type: 'certificate', certificate: 'AB12345678901234' });
    expect((await issued(buyer, orderNo))?.status).toBe('issued');

    // What the (sandbox) ECPay was sent, as its GetIssue tells it.
    const { einvoice } = ctx.app.config;
    const res = await ctx.app.inject({
      method: 'POST',
      url: `${SANDBOX_EINVOICE_PATH}${EINVOICE_PATHS.getIssue}`,
      payload: envelope(einvoice, { MerchantID: einvoice.merchantId, RelateNumber: orderNo }, new Date()),
    });
    const record = openReply(res.json(), einvoice);
    expect(record.ok && record.value).toMatchObject({
      IIS_Carrier_Type: '2',
      IIS_Carrier_Num: 'AB12345678901234',
      IIS_Print_Flag: '0',
      IIS_Love_Code: '',
    });

    expect((await buyer.call('GET', `/api/orders/${orderNo}`)).json().invoice).toEqual({
      type: 'certificate',
      label: '自然人憑證載具',
      carrier: 'AB12345678901234',
    });
    const consoleView = await ctx.app.inject({
      method: 'GET',
      url: `/api/admin/orders/${orderNo}`,
      headers: { cookie: staffCookie, origin: ORIGIN },
    });
    expect(consoleView.json().invoice).toMatchObject({
      type: 'certificate',
      label: '自然人憑證載具',
      certificate: 'AB12345678901234',
    });
    expect(
      (await latestMail(ctx.database, 'invoice-certificate@example.com', 'invoice-issued')).text,
    ).toContain('發票已存入您的自然人憑證載具（AB12345678901234）');
  });

  it('checks a mobile barcode with ECPay: an unknown one is refused beside its field, a known one is taken', async () => {
    const s = await shopper(ctx.app, 'invoice-barcode@example.com');
    const unknown = await s.call('POST', '/api/invoices/check-carrier', { kind: 'mobile', code: '/0000000' });
    expect(unknown.json()).toEqual({ result: 'invalid' });
    expect(
      (await s.call('POST', '/api/invoices/check-carrier', { kind: 'mobile', code: '／abc1234' })).json(),
    ).toEqual({ result: 'valid' });
    expect(
      (await s.call('POST', '/api/invoices/check-carrier', { kind: 'mobile', code: 'abc' })).statusCode,
    ).toBe(400);
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: '/api/invoices/check-carrier',
          headers: { origin: ORIGIN },
          payload: { kind: 'donation', code: '919' },
        })
      ).statusCode,
    ).toBe(401);
    await s.add(variant, 1);
    const refused = await s.order({
      paymentMethod: 'credit_card',
      invoice: { type: 'mobile', mobileBarcode: '/0000000' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields).toEqual({
      'invoice.mobileBarcode': '查無這個手機條碼，請確認與手機上顯示的相同',
    });
    const taken = await s.order({
      paymentMethod: 'credit_card',
      invoice: { type: 'mobile', mobileBarcode: '/ABC1234' },
    });
    expect(taken.statusCode).toBe(201);
  });

  it('a code taken unchecked (the check was down) is checked before issuing; one that does not exist goes to the member carrier, and the mail says so', async () => {
    const s = await shopper(ctx.app, 'invoice-recheck@example.com');
    await s.add(variant, 1);
    const orderNo = (
      (await s.order({ paymentMethod: 'credit_card' })).json() as { order: { orderNo: string } }
    ).order.orderNo;
    await ctx.database.db
      .update(orders)
      .set({ invoice: { type: 'mobile', mobileBarcode: '/0000000', unverified: true } })
      .where(eq(orders.orderNo, orderNo));
    await pay(orderNo);
    await ctx.app.outbox.drain();
    const row = (await ctx.database.db.select().from(invoices).where(eq(invoices.relateNumber, orderNo)))[0];
    expect(row?.issuedTo).toEqual({ type: 'member' });
    expect((await latestMail(ctx.database, 'invoice-recheck@example.com', 'invoice-issued')).text).toContain(
      '您填寫的手機條碼 /0000000 查無資料，發票改存入綠界會員載具。',
    );
  });

  it('staff cancelling a paid order voids its invoice, and the member is told', async () => {
    const { s, orderNo } = await paidOrder('invoice-void@example.com');
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${orderNo}/actions`,
      headers: { cookie: staffCookie, origin: ORIGIN },
      payload: { action: 'cancel', reason: '缺貨' },
    });
    expect(res.statusCode).toBe(200);
    await ctx.app.outbox.drain();
    await mailSettled(ctx.database);
    expect(await issued(s, orderNo)).toMatchObject({ status: 'void', voidReason: '店家取消訂單：缺貨' });
    expect((await latestMail(ctx.database, 'invoice-void@example.com', 'invoice-voided')).text).toContain(
      '已作廢',
    );
  });

  it('credits part of an invoice online: pending until the buyer agrees in ECPay’s mail, then issued; never more than is left, each credit once', async () => {
    const { s, orderNo } = await paidOrder('invoice-credit@example.com');
    const order = (await ctx.database.db.select().from(orders).where(eq(orders.orderNo, orderNo)))[0]!;
    await ctx.database.db.transaction(async (tx) => {
      await requestAllowance(tx, order, `refund-${orderNo}-1`, 480, '退回凍頂烏龍 1 罐');
      await requestAllowance(tx, order, `refund-${orderNo}-1`, 480, '同一筆退款再送一次');
    });
    await ctx.app.outbox.drain();
    await mailSettled(ctx.database);
    let view = await issued(s, orderNo);
    if (view?.status !== 'issued') throw new Error('not issued');
    expect(view.allowances).toHaveLength(1);
    const asked = view.allowances[0]!;
    expect(asked).toMatchObject({
      amount: 480,
      reason: '退回凍頂烏龍 1 罐',
      state: 'pending',
      issuedAt: null,
    });
    // ECPay's consent link lasts 72 hours.
    expect(Date.parse(asked.expiresAt!) - Date.parse(asked.createdAt)).toBeGreaterThan(71.9 * 3600_000);
    expect(
      (await latestMail(ctx.database, 'invoice-credit@example.com', 'invoice-allowance-requested')).text,
    ).toContain('請在');

    // The buyer agrees (the sandbox's consent page stands for the link in ECPay's mail): ECPay posts to ReturnURL.
    const consent = await ctx.app.inject({
      method: 'POST',
      url: `${SANDBOX_EINVOICE_PATH}/consent/${view.invoiceNo}/${asked.allowanceNo}`,
    });
    expect(consent.body).toContain('1|OK');
    await mailSettled(ctx.database);
    view = await issued(s, orderNo);
    expect(
      view?.status === 'issued' && view.allowances.map((a) => [a.amount, a.state, a.issuedAt !== null]),
    ).toEqual([[480, 'issued', true]]);
    expect(
      (await latestMail(ctx.database, 'invoice-credit@example.com', 'invoice-allowance')).text,
    ).toContain('已開立折讓 NT$480');
    // ECPay's notice sent again is taken and mails nothing more; a forged one is refused.
    const notice = (fields: Record<string, string>) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/invoices/ecpay/allowance-result',
        payload: new URLSearchParams(fields).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    const fields = {
      RtnCode: '1',
      RtnMsg: '開立折讓成功',
      IA_Allow_No: asked.allowanceNo,
      IA_Invoice_No: view?.status === 'issued' ? view.invoiceNo : '',
      IA_Date: '2026-11-28 10:00:00',
      IIS_Remain_Allowance_Amt: '120',
    };
    expect((await notice(allowanceNoticeForm(fields, ctx.app.config.einvoice))).body).toBe('1|OK');
    await mailSettled(ctx.database);
    const credited = await ctx.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, 'invoice-credit@example.com'));
    expect(credited.filter((m) => m.meta.kind === 'invoice-allowance')).toHaveLength(1);
    expect((await notice({ ...fields, CheckMacValue: '0'.repeat(32) })).body).toBe('0|CheckMacValue Error');

    // 120 is left: 200 more is refused, and waits in the console with why.
    await ctx.database.db.transaction(async (tx) =>
      requestAllowance(tx, order, `refund-${orderNo}-2`, 200, '超過剩餘金額'),
    );
    await ctx.app.outbox.drain();
    const refused = (
      await ctx.database.db
        .select()
        .from(outboxMessages)
        .where(eq(outboxMessages.key, `invoice.allowance:refund-${orderNo}-2`))
    )[0];
    expect(refused).toMatchObject({
      status: 'failed',
      lastError: '折讓金額 200 元超過發票剩餘可折讓的 120 元',
    });
  });

  it('an online allowance the buyer did not agree to within 72 hours shows as expired and no longer counts against the invoice', async () => {
    const { orderNo } = await paidOrder('invoice-credit-lapsed@example.com');
    const order = (await ctx.database.db.select().from(orders).where(eq(orders.orderNo, orderNo)))[0]!;
    await ctx.database.db.transaction(async (tx) =>
      requestAllowance(tx, order, `refund-${orderNo}-1`, 600, '全額退款'),
    );
    await ctx.app.outbox.drain();
    const later = () => new Date(Date.now() + 73 * 3600_000);
    const states = async (now?: () => Date) => {
      const view = await invoiceView(ctx.app.db, order, now);
      return view?.status === 'issued' ? view.allowances.map((a) => a.state) : null;
    };
    expect(await states()).toEqual(['pending']);
    expect(await states(later)).toEqual(['expired']);
  });

  /** An e-invoice client that answers every void and allowance and records which was asked for. */
  const recordingClient = (allowanceNo: string) => {
    const calls: string[] = [];
    const client = {
      invalid: async () => {
        calls.push('invalid');
        return { ok: true, value: { invoiceNo: '' } };
      },
      allowanceByCollegiate: async (input: { lines: Array<{ unitPrice: number }> }) => {
        calls.push(`allowance ${input.lines[0]!.unitPrice}`);
        return {
          ok: true,
          value: { allowanceNo, invoiceNo: '', requestedAt: '', expiresAt: '', remainingAmount: 0 },
        };
      },
    } as unknown as InvoiceClient;
    return { calls, client };
  };

  it('after the filing period a cancelled invoice is credited in full instead of voided', async () => {
    const { s, orderNo } = await paidOrder('invoice-late@example.com');
    const order = (await ctx.database.db.select().from(orders).where(eq(orders.orderNo, orderNo)))[0]!;
    // The sandbox keeps today's date; the client below is asked as if a quarter had passed.
    const { calls, client } = recordingClient('2026112600000001');
    const deps: InvoiceDeps = {
      db: ctx.app.db,
      client,
      mailer: ctx.app.mailer,
      publicUrl: 'http://localhost:3000',
      subject: invoiceSubject,
      now: () => new Date(Date.now() + 120 * 86_400_000),
    };
    await voidInvoice(deps, { orderId: order.id, orderNo, reason: '買家退貨' });
    expect(calls).toEqual(['allowance 600']);
    const view = await issued(s, orderNo);
    expect(view?.status === 'issued' && view.allowances.map((a) => a.amount)).toEqual([600]);
  });

  it('voids until 13 March 23:59:59 (Taipei) a January invoice, and from 14 March 00:00 credits it instead (ECPay refuses the void then)', async () => {
    const { calls, client } = recordingClient('2026031400000001');
    const at = (when: string) =>
      ({
        db: ctx.app.db,
        client,
        mailer: ctx.app.mailer,
        publicUrl: 'http://localhost:3000',
        subject: invoiceSubject,
        now: () => new Date(when),
      }) satisfies InvoiceDeps;
    const januaryInvoice = async (email: string) => {
      const { orderNo } = await paidOrder(email);
      await ctx.database.db
        .update(invoices)
        .set({ invoiceDate: '2026-01-20 10:00:00' })
        .where(eq(invoices.relateNumber, orderNo));
      return {
        order: (await ctx.database.db.select().from(orders).where(eq(orders.orderNo, orderNo)))[0]!,
        orderNo,
      };
    };

    const last = await januaryInvoice('invoice-deadline-in@example.com');
    await voidInvoice(at('2026-03-13T23:59:59+08:00'), {
      orderId: last.order.id,
      orderNo: last.orderNo,
      reason: '買家退貨',
    });
    expect(calls).toEqual(['invalid']);

    const late = await januaryInvoice('invoice-deadline-out@example.com');
    await voidInvoice(at('2026-03-14T00:00:00+08:00'), {
      orderId: late.order.id,
      orderNo: late.orderNo,
      reason: '買家退貨',
    });
    expect(calls).toEqual(['invalid', 'allowance 600']);
    // 15 March, the law's filing day: still credited, never voided.
    const later = await januaryInvoice('invoice-deadline-15th@example.com');
    await voidInvoice(at('2026-03-15T12:00:00+08:00'), {
      orderId: later.order.id,
      orderNo: later.orderNo,
      reason: '買家退貨',
    });
    expect(calls).toEqual(['invalid', 'allowance 600', 'allowance 600']);
  });

  it('a void ECPay refuses because the deadline passed while it was on its way is credited instead', async () => {
    const calls: string[] = [];
    let clock = new Date('2026-03-13T23:59:59.900+08:00');
    const client = {
      invalid: async () => {
        calls.push('invalid');
        clock = new Date('2026-03-14T00:00:00.100+08:00');
        return { ok: false, error: { kind: 'rejected', code: 1600003, message: '已超過作廢期限' } };
      },
      getIssue: async () => ({ ok: true, value: { voided: false } }),
      allowanceByCollegiate: async (input: { lines: Array<{ unitPrice: number }> }) => {
        calls.push(`allowance ${input.lines[0]!.unitPrice}`);
        return {
          ok: true,
          value: {
            allowanceNo: '2026031400000002',
            invoiceNo: '',
            requestedAt: '',
            expiresAt: '',
            remainingAmount: 0,
          },
        };
      },
    } as unknown as InvoiceClient;
    const { orderNo } = await paidOrder('invoice-deadline-midnight@example.com');
    await ctx.database.db
      .update(invoices)
      .set({ invoiceDate: '2026-01-20 10:00:00' })
      .where(eq(invoices.relateNumber, orderNo));
    const order = (await ctx.database.db.select().from(orders).where(eq(orders.orderNo, orderNo)))[0]!;
    await voidInvoice(
      {
        db: ctx.app.db,
        client,
        mailer: ctx.app.mailer,
        publicUrl: 'http://localhost:3000',
        subject: invoiceSubject,
        now: () => clock,
      },
      { orderId: order.id, orderNo, reason: '買家退貨' },
    );
    expect(calls).toEqual(['invalid', 'allowance 600']);
  });
});
