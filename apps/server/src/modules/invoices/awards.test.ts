import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IssuedInvoiceView } from '@shop/shared/orders';
import { dbAvailable, type TestContext } from '../../../test/helpers.ts';
import { mailSettled } from '../../../test/mail.ts';
import { ecpayNotice, notifyPayment, shopWithStaff, shopper } from '../../../test/shop.ts';
import { invoices, mailOutbox } from '../../db/schema.ts';
import { ownFetch } from '../../lib/form-post.ts';
import { invoiceSubject } from '../orders/read-models.ts';
import { checkInvoiceAwards, periodOf, periodsToCheck } from './awards.ts';
import { SANDBOX_EINVOICE_PATH } from './ecpay-invoice-protocol.ts';
import { fetchPost, invoiceClient } from './ecpay-invoice-client.ts';
import type { InvoiceDeps } from './service.ts';

describe('the bimonthly draw', () => {
  it('draws a period on the 25th of the next odd month; prizes are claimed from the 6th of the month after, for three months', () => {
    // 114年11-12月期: drawn 2026-01-25, claimed 2026-02-06 to 2026-05-05.
    expect(periodOf(2025, 12)).toEqual({
      year: 2025,
      month: 11,
      draw: new Date('2026-01-25T00:00:00+08:00'),
      claimFrom: '2026-02-06',
      claimUntil: '2026-05-05',
    });
    expect(periodOf(2026, 1)).toMatchObject({
      month: 1,
      draw: new Date('2026-03-25T00:00:00+08:00'),
      claimFrom: '2026-04-06',
      claimUntil: '2026-07-05',
    });
  });

  it('asks ECPay from the day after the draw (Taipei) until the claim period ends', () => {
    const periods = (at: string) => periodsToCheck(new Date(at)).map((p) => `${p.year}-${p.month}`);
    expect(periods('2026-03-25T23:59:59+08:00')).toEqual(['2025-11']);
    expect(periods('2026-03-26T00:00:00+08:00')).toEqual(['2026-1', '2025-11']);
    expect(periods('2026-05-05T23:00:00+08:00')).toEqual(['2026-1', '2025-11']);
    expect(periods('2026-05-06T00:00:00+08:00')).toEqual(['2026-1']);
  });
});

/** Winning invoices found through ECPay's GetIssue (the sandbox, told the draw), recorded, shown and mailed. */
describe.skipIf(!dbAvailable())('winning invoices', () => {
  let ctx: TestContext;
  let variant: string;
  beforeAll(async () => {
    ({ ctx, variant } = await shopWithStaff('award-staff@example.com'));
  });
  afterAll(async () => ctx.close());

  const paidOrder = async (email: string, invoice: Record<string, string> = { type: 'member' }) => {
    const s = await shopper(ctx.app, email);
    await s.add(variant, 1);
    const orderNo = (
      (await s.order({ paymentMethod: 'credit_card', invoice })).json() as { order: { orderNo: string } }
    ).order.orderNo;
    expect(await notifyPayment(ctx.app, ecpayNotice(orderNo, '1', '交易成功'))).toBe('1|OK');
    await ctx.app.outbox.drain();
    await mailSettled(ctx.database);
    const row = (await ctx.database.db.select().from(invoices).where(eq(invoices.relateNumber, orderNo)))[0]!;
    return { s, orderNo, row };
  };
  /** The sandbox told the draw's result for one invoice: 0 not won, else the prize code. */
  const draw = async (invoiceNo: string, type: string) =>
    expect(
      (await ctx.app.inject({ method: 'POST', url: `${SANDBOX_EINVOICE_PATH}/award/${invoiceNo}/${type}` }))
        .statusCode,
    ).toBe(200);
  const mails = async (to: string, kind: string) =>
    (await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to))).filter(
      (m) => m.meta.kind === kind,
    );

  it('after the draw, records which invoices won, mails the member-carrier winner once with how to claim, and shows 已中獎 on the order', async () => {
    const winner = await paidOrder('award-winner@example.com');
    const mobile = await paidOrder('award-mobile@example.com', { type: 'mobile', mobileBarcode: '/ABC1234' });
    const loser = await paidOrder('award-loser@example.com');
    const unknown = await paidOrder('award-unknown@example.com');
    await draw(winner.row.invoiceNo, '6');
    await draw(mobile.row.invoiceNo, '5');
    await draw(loser.row.invoiceNo, '0');

    const { einvoice, publicUrl } = ctx.app.config;
    const client = invoiceClient(
      { ...einvoice, host: `${publicUrl}${SANDBOX_EINVOICE_PATH}` },
      fetchPost({ fetchImpl: ownFetch(ctx.app, publicUrl) }),
    );
    const period = periodOf(
      Number(winner.row.invoiceDate.slice(0, 4)),
      Number(winner.row.invoiceDate.slice(5, 7)),
    );
    const at = (ms: number): InvoiceDeps => ({
      db: ctx.app.db,
      client,
      mailer: ctx.app.mailer,
      publicUrl,
      subject: invoiceSubject,
      now: () => new Date(period.draw.getTime() + ms),
    });

    // Before the day after the draw nothing is asked.
    expect(await checkInvoiceAwards(at(12 * 3600_000))).toBe(0);
    expect(
      (await ctx.database.db.select().from(invoices).where(eq(invoices.id, winner.row.id)))[0]?.awardFlag,
    ).toBeNull();

    expect(await checkInvoiceAwards(at(36 * 3600_000))).toBe(2);
    await mailSettled(ctx.database);
    const flags = async (id: string) =>
      (await ctx.database.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;
    expect(await flags(winner.row.id)).toMatchObject({ awardFlag: '1', awardType: '6' });
    expect(await flags(mobile.row.id)).toMatchObject({ awardFlag: '1', awardType: '5' });
    expect(await flags(loser.row.id)).toMatchObject({ awardFlag: '0', awardType: null });
    expect(await flags(unknown.row.id)).toMatchObject({ awardFlag: null });

    const [mail] = await mails('award-winner@example.com', 'invoice-award');
    expect(mail?.subject).toBe(`【山嵐茶事】發票中獎通知：${winner.orderNo}`);
    expect(mail?.text).toContain('中了六獎，獎金 NT$200');
    expect(mail?.text).toContain('歸戶');
    expect(mail?.text).toContain('電子發票證明聯，以掛號免費寄給您');
    expect(mail?.text).toContain(`領獎期間：${Number(period.claimFrom.slice(0, 4)) - 1911} 年`);
    // The Ministry tells mobile-barcode winners itself; the loser hears nothing.
    expect(await mails('award-mobile@example.com', 'invoice-award')).toHaveLength(0);
    expect(await mails('award-loser@example.com', 'invoice-award')).toHaveLength(0);

    const view = (
      (await winner.s.call('GET', `/api/orders/${winner.orderNo}`)).json() as {
        issuedInvoice: IssuedInvoiceView;
      }
    ).issuedInvoice;
    expect(view.status === 'issued' && view.award).toEqual({
      label: '已中獎',
      prize: '六獎',
      amount: 200,
      claimUntil: period.claimUntil,
    });
    const lost = (
      (await loser.s.call('GET', `/api/orders/${loser.orderNo}`)).json() as {
        issuedInvoice: IssuedInvoiceView;
      }
    ).issuedInvoice;
    expect(lost.status === 'issued' && lost.award).toBeNull();

    // The next run asks only about what is still unknown, and mails nobody twice.
    await draw(unknown.row.invoiceNo, '0');
    expect(await checkInvoiceAwards(at(42 * 3600_000))).toBe(0);
    await mailSettled(ctx.database);
    expect(await mails('award-winner@example.com', 'invoice-award')).toHaveLength(1);
    expect(await flags(unknown.row.id)).toMatchObject({ awardFlag: '0' });
  });
});
