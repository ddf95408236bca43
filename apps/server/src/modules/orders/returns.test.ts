import { and, eq, like } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderDetail } from '@shop/shared/orders';
import { MAX_RETURN_PHOTOS_PER_ORDER } from '@shop/shared/returns';
import { setRole } from '../../../test/fixtures.ts';
import { dbAvailable, signIn, type TestContext } from '../../../test/helpers.ts';
import { latestMail, mailSettled } from '../../../test/mail.ts';
import { ORIGIN, ecpayNotice, notifyPayment, shopWithStaff, shopper } from '../../../test/shop.ts';
import {
  orderEvents,
  orders,
  outboxMessages,
  productVariants,
  refunds,
  storageObjects,
} from '../../db/schema.ts';
import { authoriseTrade } from '../payments/sandbox/card-action.ts';
import { dbTrades } from '../payments/sandbox/index.ts';
import { endOfTaipeiDaysAfter } from '@shop/shared/taipei-time';
import { returnAmounts } from './returns-views.ts';

/** Returns from the member area through the real app: request, decision, arrival, stock and money. */
describe.skipIf(!dbAvailable())('returns', () => {
  let ctx: TestContext;
  let variant: string;
  let staffCookie: string;
  beforeAll(async () => {
    ({ ctx, variant, staffCookie } = await shopWithStaff('returns-staff@example.com'));
  });
  afterAll(async () => ctx.close());

  const staff = (method: 'GET' | 'POST', url: string, payload?: object) =>
    ctx.app.inject({
      method,
      url,
      headers: { cookie: staffCookie, origin: ORIGIN },
      ...(payload ? { payload } : {}),
    });
  const stockOf = async () =>
    (
      await ctx.database.db
        .select({ stock: productVariants.stock })
        .from(productVariants)
        .where(eq(productVariants.id, variant))
    )[0]!.stock;
  const orderRow = async (orderNo: string) =>
    (await ctx.database.db.select().from(orders).where(eq(orders.orderNo, orderNo)))[0]!;
  const refundsOf = async (orderNo: string) =>
    ctx.database.db
      .select()
      .from(refunds)
      .where(eq(refunds.orderId, (await orderRow(orderNo)).id));

  async function deliver(orderNo: string, cod = false) {
    for (const body of [
      ...(cod ? [] : [{ status: 'processing' }]),
      { status: 'shipped', carrier: '黑貓宅急便', trackingNo: '123456789012' },
      { shipmentEvent: 'delivered' },
    ]) {
      const res = await staff('POST', `/api/admin/orders/${orderNo}/advance`, body);
      if (res.statusCode !== 200) throw new Error(`${JSON.stringify(body)}: ${res.statusCode} ${res.body}`);
    }
  }

  /** A card order of two 凍頂 tins, paid at the card sandbox and delivered. */
  async function deliveredCardOrder(email: string) {
    const s = await shopper(ctx.app, email);
    await s.add(variant, 2);
    const placed = (await s.order({ paymentMethod: 'credit_card' })).json() as { order: OrderDetail };
    const { orderNo, total } = placed.order;
    const tradeNo = `T${orderNo.slice(-12)}`;
    const gwsr = String(10_000_000 + Math.floor(Math.random() * 80_000_000));
    await authoriseTrade(dbTrades(ctx.app.db), {
      merchantTradeNo: `${orderNo}P1`,
      tradeNo,
      gwsr,
      amount: total,
    });
    expect(
      await notifyPayment(
        ctx.app,
        ecpayNotice(orderNo, '1', '交易成功', { TradeNo: tradeNo, gwsr, TradeAmt: String(total) }),
      ),
    ).toBe('1|OK');
    await ctx.app.outbox.drain();
    await deliver(orderNo);
    return { s, orderNo, total, tradeNo, item: placed.order.items[0]! };
  }

  const get = async (s: Awaited<ReturnType<typeof shopper>>, orderNo: string) =>
    (await s.call('GET', `/api/orders/${orderNo}`)).json() as OrderDetail;

  it('a member returns one item, then the rest: staff approve, the goods arrive, stock and money go back, and nothing is refunded twice', async () => {
    const { s, orderNo, total, tradeNo, item } = await deliveredCardOrder('returns-card@example.com');
    // Two tins of 480 and home delivery's 120.
    expect(total).toBe(1080);
    const before = await get(s, orderNo);
    expect(before.issuedInvoice).toMatchObject({ status: 'issued', amount: 1080 });
    expect(before.returnable).toMatchObject({
      items: [{ itemId: item.id, quantity: 2 }],
      needsAccount: false,
    });

    const asked = await s.call('POST', `/api/orders/${orderNo}/returns`, {
      items: [{ itemId: item.id, quantity: 1 }],
      reason: 'damaged',
      detail: '罐子凹了',
    });
    expect(asked.statusCode).toBe(200);
    const r1 = (asked.json() as OrderDetail).returns[0]!;
    expect(r1).toMatchObject({
      returnNo: `${orderNo}-R1`,
      status: 'requested',
      amount: 480,
      reason: '商品瑕疵或運送損壞',
      detail: '罐子凹了',
    });
    // One open request at a time.
    expect(
      (
        await s.call('POST', `/api/orders/${orderNo}/returns`, {
          items: [{ itemId: item.id, quantity: 1 }],
          reason: 'other',
          detail: '再一次',
        })
      ).statusCode,
    ).toBe(409);
    await mailSettled(ctx.database);
    expect((await latestMail(ctx.database, 'returns-card@example.com', 'return-requested')).text).toContain(
      `退貨申請（${orderNo}-R1）`,
    );

    // Receiving before approval is refused; the console lists it as open.
    expect(
      (
        await staff('POST', `/api/admin/returns/${orderNo}-R1/receive`, {
          items: [{ itemId: item.id, restock: true }],
        })
      ).statusCode,
    ).toBe(409);
    const list = (await staff('GET', '/api/admin/returns')).json() as {
      items: Array<{ returnNo: string; status: string }>;
    };
    expect(list.items.find((r) => r.returnNo === `${orderNo}-R1`)).toMatchObject({ status: 'requested' });

    expect(
      (await staff('POST', `/api/admin/returns/${orderNo}-R1/approve`, { message: '請用原包裝寄回' }))
        .statusCode,
    ).toBe(200);
    expect((await staff('POST', `/api/admin/returns/${orderNo}-R1/approve`, {})).statusCode).toBe(409);
    await mailSettled(ctx.database);
    expect((await latestMail(ctx.database, 'returns-card@example.com', 'return-approved')).text).toContain(
      '客服留言：請用原包裝寄回',
    );

    const stockBefore = await stockOf();
    // Every item of the return needs a stock choice.
    expect((await staff('POST', `/api/admin/returns/${orderNo}-R1/receive`, { items: [] })).statusCode).toBe(
      400,
    );
    const received = await staff('POST', `/api/admin/returns/${orderNo}-R1/receive`, {
      items: [{ itemId: item.id, restock: true }],
    });
    expect(received.statusCode).toBe(200);
    expect(await stockOf()).toBe(stockBefore + 1);
    await ctx.app.outbox.drain();
    await mailSettled(ctx.database);
    let detail = await get(s, orderNo);
    expect(detail.status).toBe('delivered');
    expect(detail.returns[0]).toMatchObject({
      status: 'received',
      refund: { status: 'done' },
      // Before the order's discounts and after (none on this order).
      items: [{ quantity: 1, price: 480, amount: 480, restock: true }],
    });
    expect(detail.refunds).toMatchObject([{ method: 'card', amount: 480, status: 'done' }]);
    expect(detail.issuedInvoice).toMatchObject({ status: 'issued', allowances: [{ amount: 480 }] });
    expect((await dbTrades(ctx.app.db).get(tradeNo))?.refunded).toBe(480);
    expect((await latestMail(ctx.database, 'returns-card@example.com', 'return-received')).text).toContain(
      '退款 NT$480 已送交綠界',
    );
    expect((await latestMail(ctx.database, 'returns-card@example.com', 'order-refunded')).text).toContain(
      '退款 NT$480 已辦理完成',
    );

    // The same item cannot be asked for again beyond what is left.
    const again = await s.call('POST', `/api/orders/${orderNo}/returns`, {
      items: [{ itemId: item.id, quantity: 2 }],
      reason: 'changed_mind',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: { fields: { 'items.0.quantity': '最多可退 1 件' } } });
    // A second receive of the same return refunds nothing more.
    expect(
      (
        await staff('POST', `/api/admin/returns/${orderNo}-R1/receive`, {
          items: [{ itemId: item.id, restock: true }],
        })
      ).statusCode,
    ).toBe(409);

    // The last tin: the order is refunded whole (shipping with it) and what is left of the invoice is credited.
    expect(
      (
        await s.call('POST', `/api/orders/${orderNo}/returns`, {
          items: [{ itemId: item.id, quantity: 1 }],
          reason: 'changed_mind',
        })
      ).statusCode,
    ).toBe(200);
    expect((await staff('POST', `/api/admin/returns/${orderNo}-R2/approve`, {})).statusCode).toBe(200);
    const stockBeforeLast = await stockOf();
    expect(
      (
        await staff('POST', `/api/admin/returns/${orderNo}-R2/receive`, {
          items: [{ itemId: item.id, restock: false }],
        })
      ).statusCode,
    ).toBe(200);
    expect(await stockOf()).toBe(stockBeforeLast);
    await ctx.app.outbox.drain();
    detail = await get(s, orderNo);
    expect(detail.status).toBe('refunded');
    expect(detail.returnable).toBeNull();
    expect(detail.refunds.map((r) => [r.amount, r.status])).toEqual([
      [480, 'done'],
      [600, 'done'],
    ]);
    expect((await refundsOf(orderNo)).reduce((n, r) => n + r.amount, 0)).toBe(total);
    expect(detail.issuedInvoice).toMatchObject({
      status: 'issued',
      allowances: [{ amount: 600 }, { amount: 480 }],
    });
    expect((await dbTrades(ctx.app.db).get(tradeNo))?.refunded).toBe(1080);
    // Nothing failed on the way.
    expect(
      await ctx.database.db.select().from(outboxMessages).where(eq(outboxMessages.status, 'failed')),
    ).toEqual([]);
  });

  it('cash on delivery: the refund needs a valid bank account and becomes a transfer staff mark done', async () => {
    const s = await shopper(ctx.app, 'returns-cod@example.com');
    await s.add(variant, 1);
    const placed = (await s.order({ paymentMethod: 'cod' })).json() as { order: OrderDetail };
    const { orderNo } = placed.order;
    await deliver(orderNo, true);
    const itemId = placed.order.items[0]!.id;
    expect((await get(s, orderNo)).returnable?.needsAccount).toBe(true);

    const without = await s.call('POST', `/api/orders/${orderNo}/returns`, {
      items: [{ itemId, quantity: 1 }],
      reason: 'wrong_item',
    });
    expect(without.statusCode).toBe(400);
    expect(without.json()).toMatchObject({
      error: { fields: { 'refundAccount.bankCode': '請輸入銀行代碼' } },
    });
    const badBank = await s.call('POST', `/api/orders/${orderNo}/returns`, {
      items: [{ itemId, quantity: 1 }],
      reason: 'wrong_item',
      refundAccount: { bankCode: '999', account: '1234567890', holder: '林小嵐' },
    });
    expect(badBank.statusCode).toBe(400);
    const badAccount = await s.call('POST', `/api/orders/${orderNo}/returns`, {
      items: [{ itemId, quantity: 1 }],
      reason: 'wrong_item',
      refundAccount: { bankCode: '812', account: '12-34', holder: '林小嵐' },
    });
    expect(badAccount.statusCode).toBe(400);
    // Nothing was written by the refused requests.
    expect((await get(s, orderNo)).returns).toEqual([]);

    const ok = await s.call('POST', `/api/orders/${orderNo}/returns`, {
      items: [{ itemId, quantity: 1 }],
      reason: 'wrong_item',
      refundAccount: { bankCode: '812', account: '2888-1234-5678', holder: '林小嵐' },
    });
    expect(ok.statusCode).toBe(200);
    expect((ok.json() as OrderDetail).returns[0]).toMatchObject({
      bank: '812 台新銀行 末四碼 5678（林小嵐）',
    });
    expect((await staff('POST', `/api/admin/returns/${orderNo}-R1/approve`, {})).statusCode).toBe(200);
    expect(
      (
        await staff('POST', `/api/admin/returns/${orderNo}-R1/receive`, {
          items: [{ itemId, restock: true }],
        })
      ).statusCode,
    ).toBe(200);
    const detail = await get(s, orderNo);
    expect(detail.status).toBe('refunded');
    expect(detail.refunds).toMatchObject([
      { method: 'transfer', amount: placed.order.total, status: 'pending', needsAccount: false },
    ]);

    const tasks = (await staff('GET', '/api/admin/refunds/transfers')).json() as {
      items: Array<{ id: string; orderNo: string; bank: { bankName: string; account: string } | null }>;
    };
    const task = tasks.items.find((t) => t.orderNo === orderNo)!;
    expect(task.bank).toMatchObject({
      bankCode: '812',
      bankName: '台新銀行',
      account: '288812345678',
      holder: '林小嵐',
    });
    // A read-only role sees the transfer, not the whole account number.
    const viewer = (await signIn(ctx.app, 'returns-viewer@example.com')).cookie;
    await setRole(ctx.database, 'returns-viewer@example.com', 'viewer');
    const seen = (
      await ctx.app.inject({
        method: 'GET',
        url: '/api/admin/refunds/transfers',
        headers: { cookie: viewer },
      })
    ).json() as typeof tasks;
    expect(seen.items.find((t) => t.orderNo === orderNo)!.bank).toMatchObject({
      bankCode: '812',
      bankName: '台新銀行',
      account: '••••5678',
      holder: '林小嵐',
    });
    expect(JSON.stringify(seen)).not.toContain('288812345678');
    expect(
      (await staff('POST', `/api/admin/refunds/${task.id}/done`, { note: '網銀轉帳 11/26' })).statusCode,
    ).toBe(200);
    expect((await staff('POST', `/api/admin/refunds/${task.id}/done`, {})).statusCode).toBe(409);
    await mailSettled(ctx.database);
    expect((await get(s, orderNo)).refunds[0]).toMatchObject({ status: 'done' });
    expect((await latestMail(ctx.database, 'returns-cod@example.com', 'order-refunded')).text).toContain(
      '款項已轉入您提供的銀行帳戶',
    );
  });

  it('staff refunding a paid ATM order asks the member for an account, and the transfer waits for it', async () => {
    const s = await shopper(ctx.app, 'returns-atm@example.com');
    await s.add(variant, 1);
    const placed = (await s.order({ paymentMethod: 'atm' })).json() as { order: OrderDetail };
    const { orderNo, total } = placed.order;
    expect(
      await notifyPayment(
        ctx.app,
        ecpayNotice(orderNo, '1', '交易成功', { TradeAmt: String(total), PaymentType: 'ATM_TAISHIN' }),
      ),
    ).toBe('1|OK');
    expect(
      (await staff('POST', `/api/admin/orders/${orderNo}/actions`, { action: 'cancel', reason: '缺貨' }))
        .statusCode,
    ).toBe(200);
    let detail = await get(s, orderNo);
    expect(detail.refunds).toMatchObject([
      { method: 'transfer', amount: total, status: 'pending', needsAccount: true },
    ]);
    const task = (
      (await staff('GET', '/api/admin/refunds/transfers')).json() as {
        items: Array<{ id: string; orderNo: string; bank: unknown }>;
      }
    ).items.find((t) => t.orderNo === orderNo)!;
    expect(task.bank).toBeNull();
    // Not done while there is nowhere to send the money.
    expect((await staff('POST', `/api/admin/refunds/${task.id}/done`, {})).statusCode).toBe(409);
    await mailSettled(ctx.database);
    expect((await latestMail(ctx.database, 'returns-atm@example.com', 'order-cancelled')).text).toContain(
      '填寫您的退款帳戶',
    );

    expect((await s.call('PATCH', `/api/orders/${orderNo}/refund-account`, {})).statusCode).toBe(404);
    const put = await ctx.app.inject({
      method: 'PUT',
      url: `/api/orders/${orderNo}/refund-account`,
      headers: { cookie: s.cookie, origin: ORIGIN },
      payload: { bankCode: '700', account: '00012345678901', holder: '陳小茶' },
    });
    expect(put.statusCode).toBe(200);
    detail = put.json() as OrderDetail;
    expect(detail.refunds[0]).toMatchObject({ needsAccount: false });
    expect((await staff('POST', `/api/admin/refunds/${task.id}/done`, {})).statusCode).toBe(200);
  });

  it('photos: an order holds at most 12, however many are sent at once', async () => {
    const { s, orderNo } = await deliveredCardOrder('returns-photo-cap@example.com');
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#7a8b6f' } })
      .png()
      .toBuffer();
    const upload = () =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/orders/${orderNo}/return-photos`,
        headers: { cookie: s.cookie, origin: ORIGIN, 'content-type': 'image/png' },
        payload: png,
      });
    const burst = await Promise.all(Array.from({ length: 20 }, upload));
    const stored = async () =>
      (
        await ctx.database.db
          .select()
          .from(storageObjects)
          .where(and(eq(storageObjects.bucket, 'returns'), like(storageObjects.name, `${orderNo}/%`)))
      ).length;
    expect(burst.filter((r) => r.statusCode === 201).length).toBeLessThanOrEqual(MAX_RETURN_PHOTOS_PER_ORDER);
    expect(
      burst.filter((r) => r.statusCode !== 201).every((r) => r.json().error.code === 'too-many-photos'),
    ).toBe(true);
    expect(await stored()).toBeLessThanOrEqual(MAX_RETURN_PHOTOS_PER_ORDER);
    while ((await stored()) < MAX_RETURN_PHOTOS_PER_ORDER) expect((await upload()).statusCode).toBe(201);
    const over = await upload();
    expect(over.statusCode).toBe(409);
    expect(over.json().error.message).toBe('這筆訂單已上傳 12 張照片，無法再上傳；如需補充請與客服聯絡。');
    expect(await stored()).toBe(MAX_RETURN_PHOTOS_PER_ORDER);
  });

  it('photos: only the order’s member uploads them, only real pictures, and a request names only its own', async () => {
    const { s, orderNo, item } = await deliveredCardOrder('returns-photo@example.com');
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#7a8b6f' } })
      .png()
      .toBuffer();
    const upload = (cookie: string, body: Buffer, type = 'image/png') =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/orders/${orderNo}/return-photos`,
        headers: { cookie, origin: ORIGIN, 'content-type': type },
        payload: body,
      });
    const stranger = await shopper(ctx.app, 'returns-stranger@example.com');
    expect((await upload(stranger.cookie, png)).statusCode).toBe(404);
    expect((await upload(s.cookie, Buffer.from('not a picture'))).statusCode).toBe(400);
    const up = await upload(s.cookie, png);
    expect(up.statusCode).toBe(201);
    const { name } = up.json() as { name: string };
    expect(name).toMatch(new RegExp(`^${orderNo}/[0-9a-f-]{36}\\.png$`));

    const forged = await s.call('POST', `/api/orders/${orderNo}/returns`, {
      items: [{ itemId: item.id, quantity: 1 }],
      reason: 'damaged',
      photos: [`${orderNo}/00000000-0000-0000-0000-000000000000.png`],
    });
    expect(forged.statusCode).toBe(400);
    const ok = await s.call('POST', `/api/orders/${orderNo}/returns`, {
      items: [{ itemId: item.id, quantity: 1 }],
      reason: 'damaged',
      photos: [name],
    });
    expect(ok.statusCode).toBe(200);
    const photoUrl = (ok.json() as OrderDetail).returns[0]!.photos[0]!;
    expect(
      (await ctx.app.inject({ method: 'GET', url: photoUrl, headers: { cookie: staffCookie } })).statusCode,
    ).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: photoUrl })).statusCode).toBe(401);
  });

  it('the return period is counted from delivery, and someone else’s order answers like a missing one', async () => {
    const { s, orderNo, item } = await deliveredCardOrder('returns-late@example.com');
    const stranger = await shopper(ctx.app, 'returns-other@example.com');
    expect(
      (
        await stranger.call('POST', `/api/orders/${orderNo}/returns`, {
          items: [{ itemId: item.id, quantity: 1 }],
          reason: 'damaged',
        })
      ).statusCode,
    ).toBe(404);
    const order = await orderRow(orderNo);
    await ctx.database.db
      .update(orderEvents)
      .set({ createdAt: new Date(Date.now() - 8 * 86_400_000) })
      .where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.status, 'delivered')));
    expect((await get(s, orderNo)).returnable).toBeNull();
    const late = await s.call('POST', `/api/orders/${orderNo}/returns`, {
      items: [{ itemId: item.id, quantity: 1 }],
      reason: 'damaged',
    });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      error: { message: '這筆訂單已超過退貨期限或無法退貨，如有問題請與客服聯絡。' },
    });
    // The law's seven days end with the seventh Taipei calendar day, not 7 × 24 hours later:
    // delivered a little over seven days ago, on the calendar day seven days back, it still counts.
    const sinceMidnight = (Date.now() + 8 * 3_600_000) % 86_400_000;
    await ctx.database.db
      .update(orderEvents)
      .set({ createdAt: new Date(Date.now() - 7 * 86_400_000 - Math.min(60_000, sinceMidnight / 2)) })
      .where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.status, 'delivered')));
    const lastDay = (await get(s, orderNo)).returnable;
    expect(lastDay?.until).toBe(endOfTaipeiDaysAfter(Date.now(), 0).toISOString());
    // The owner lengthens the period: the same order may be returned again.
    expect((await staff('GET', '/api/admin/settings/returns')).json()).toEqual({ days: 7 });
    expect(
      (
        await ctx.app.inject({
          method: 'PUT',
          url: '/api/admin/settings/returns',
          headers: { cookie: staffCookie, origin: ORIGIN },
          payload: { days: 3 },
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe('return amounts', () => {
  const items = [
    { id: 'a', quantity: 2, lineTotal: 960 },
    { id: 'b', quantity: 1, lineTotal: 350 },
  ];
  const order = { subtotal: 1310, discountTotal: 131, total: 1179 };

  it('takes the order’s discounts off each item in proportion, and gives the rest of the total with the last item', () => {
    const first = returnAmounts(order, items, new Map(), 0, [{ itemId: 'a', quantity: 1 }]);
    expect(first).toMatchObject({ amount: 432, wholeRest: false });
    const second = returnAmounts(order, items, new Map([['a', 1]]), 432, [
      { itemId: 'a', quantity: 1 },
      { itemId: 'b', quantity: 1 },
    ]);
    expect(second).toMatchObject({ amount: 1179 - 432, wholeRest: true });
  });

  it('never gives more than is left of the total', () => {
    expect(returnAmounts(order, items, new Map(), 1100, [{ itemId: 'a', quantity: 2 }]).amount).toBe(79);
  });
});
