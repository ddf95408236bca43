import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_CSV_HEADERS, type AdminOrderDetail, type AdminOrderRow } from '@shop/shared/admin-orders';
import type { PageOf } from '@shop/shared/admin';
import { parseCsv } from '@shop/shared/csv';
import type { MemberEvent } from '../../plugins/events.ts';
import { createTestApp, dbAvailable, signIn, type TestContext } from '../../../test/helpers.ts';
import { seedTestCatalog, setRole } from '../../../test/fixtures.ts';
import { latestMail } from '../../../test/mail.ts';
import { ORIGIN, shopper } from '../../../test/shop.ts';
import { auditLog, orderEvents, orders, productVariants, users } from '../../db/schema.ts';
import { orderDeps } from './deps.ts';
import { recordPaid } from './payment-results.ts';

type Who = 'anonymous' | 'customer' | 'viewer' | 'staff' | 'owner';

describe.skipIf(!dbAvailable())('console: orders and fulfilment', () => {
  let ctx: TestContext;
  let variants: Record<string, string>;
  const cookies: Partial<Record<Who, string>> = {};
  /** Fixture orders for the list: A (COD, home), B (card, store pickup), C (ATM, home). The list tests run first, before other tests add orders. */
  const fx = { A: '', B: '', C: '' };
  let huaUid = '';

  beforeAll(async () => {
    ctx = await createTestApp();
    await seedTestCatalog(ctx.database);
    const rows = await ctx.database.db
      .select({ id: productVariants.id, sku: productVariants.sku })
      .from(productVariants);
    variants = Object.fromEntries(rows.map((r) => [r.sku, r.id]));
    for (const who of ['customer', 'viewer', 'staff', 'owner'] as const)
      cookies[who] = (await signIn(ctx.app, `${who}@example.com`)).cookie;
    for (const role of ['viewer', 'staff', 'owner'] as const)
      await setRole(ctx.database, `${role}@example.com`, role);

    const ming = await shopper(ctx.app, 'ming@example.com');
    await ming.add(variants['CUP-1']!, 2);
    fx.A = (await ming.order({ note: '=SUM(1,2) 請附提袋' })).json().order.orderNo;
    const hua = await shopper(ctx.app, 'hua@example.com');
    huaUid = hua.uid;
    await hua.add(variants['DD-S']!, 1);
    await hua.pickStore('7-ELEVEN', '158703');
    fx.B = (
      await hua.order({
        paymentMethod: 'credit_card',
        shipping: {
          method: 'cvs',
          recipientName: '陳小華',
          phone: '0987654321',
          cvsBrand: '7-ELEVEN',
          storeId: '158703',
        },
      })
    ).json().order.orderNo;
    await hua.add(variants['LS-S']!, 1);
    fx.C = (
      await hua.order({
        paymentMethod: 'atm',
        shipping: {
          method: 'home',
          recipientName: '王大明',
          phone: '0922333444',
          city: '臺北市',
          district: '大安區',
          address: '復興南路一段 320 號 5 樓',
        },
      })
    ).json().order.orderNo;
    expect([fx.A, fx.B, fx.C].every((n) => /^TW\d{14}$/.test(n))).toBe(true);
    await ctx.database.db
      .update(users)
      .set({ displayName: '王小明' })
      .where(eq(users.email, 'ming@example.com'));
    await ctx.database.db
      .update(users)
      .set({ displayName: '陳小華' })
      .where(eq(users.email, 'hua@example.com'));
    // A: 2026/01/11 00:30 in Taipei (still 01/10 in UTC); B: 2026/01/12 23:59 in Taipei; C: now.
    await ctx.database.db
      .update(orders)
      .set({ createdAt: new Date('2026-01-10T16:30:00Z') })
      .where(eq(orders.orderNo, fx.A));
    await ctx.database.db
      .update(orders)
      .set({ createdAt: new Date('2026-01-12T15:59:00Z') })
      .where(eq(orders.orderNo, fx.B));
  });
  afterAll(async () => ctx.close());

  const call = (method: 'GET' | 'POST', url: string, who: Who, payload?: object) =>
    ctx.app.inject({
      method,
      url,
      headers: { origin: ORIGIN, ...(who !== 'anonymous' ? { cookie: cookies[who]! } : {}) },
      ...(payload ? { payload } : {}),
    });
  const list = async (query: string, who: Who = 'staff') => {
    const res = await call('GET', `/api/admin/orders${query}`, who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as PageOf<AdminOrderRow>;
  };
  const listed = async (query: string) => (await list(query)).items.map((r) => r.orderNo);
  const detail = async (orderNo: string, who: Who = 'staff') => {
    const res = await call('GET', `/api/admin/orders/${orderNo}`, who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as AdminOrderDetail;
  };
  const act = (orderNo: string, body: object, who: Who = 'staff') =>
    call('POST', `/api/admin/orders/${orderNo}/actions`, who, body);
  const actOk = async (orderNo: string, body: object, who: Who = 'staff') => {
    const res = await act(orderNo, body, who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as AdminOrderDetail;
  };
  const statusOf = async (orderNo: string) =>
    (await ctx.database.db.select({ s: orders.status }).from(orders).where(eq(orders.orderNo, orderNo)))[0]!
      .s;
  const stockOf = async (sku: string) =>
    (
      await ctx.database.db
        .select({ s: productVariants.stock })
        .from(productVariants)
        .where(eq(productVariants.sku, sku))
    )[0]!.s;
  const auditOf = (orderNo: string) =>
    ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'order'), eq(auditLog.entityId, orderNo)))
      .orderBy(auditLog.id);
  const eventCount = async (orderNo: string) =>
    (
      await ctx.database.db
        .select({ id: orderEvents.id })
        .from(orderEvents)
        .innerJoin(orders, eq(orders.id, orderEvents.orderId))
        .where(eq(orders.orderNo, orderNo))
    ).length;

  /** A new order from a new shopper; card orders can be marked paid as the gateway would. */
  let n = 0;
  async function newOrder(
    options: {
      payment?: 'cod' | 'credit_card' | 'atm';
      paid?: boolean;
      sku?: string;
      qty?: number;
      cvs?: boolean;
    } = {},
  ) {
    const s = await shopper(ctx.app, `buyer${++n}@example.com`);
    await s.add(variants[options.sku ?? 'CUP-1']!, options.qty ?? 1);
    if (options.cvs) await s.pickStore('FAMILY', '013542');
    const res = await s.order({
      paymentMethod: options.payment ?? 'cod',
      ...(options.cvs
        ? {
            shipping: {
              method: 'cvs',
              recipientName: '林小嵐',
              phone: '0912345678',
              cvsBrand: 'FAMILY',
              storeId: '013542',
            },
          }
        : {}),
    });
    expect(res.statusCode, res.body).toBe(201);
    const order = res.json().order as { orderNo: string; total: number };
    if (options.paid) {
      expect(
        await recordPaid(orderDeps(ctx.app), {
          merchantTradeNo: `${order.orderNo}P1`,
          amount: order.total,
          tradeNo: `T${order.orderNo.slice(-6)}`,
          rtnCode: '1',
          rtnMsg: '交易成功',
        }),
      ).toBe('ok');
    }
    return { ...order, uid: s.uid, email: `buyer${n}@example.com` };
  }

  describe('the list', () => {
    it('pages newest first, with the customer, recipient, item count, total and payment state', async () => {
      const page = await list('');
      expect(page).toMatchObject({ page: 1, pageSize: 20, total: 3, totalPages: 1 });
      expect(page.items.map((r) => r.orderNo)).toEqual([fx.C, fx.B, fx.A]);
      expect(page.items[2]).toEqual({
        orderNo: fx.A,
        placedAt: '2026-01-10T16:30:00.000Z',
        customerName: '王小明',
        customerEmail: 'ming@example.com',
        recipientName: '林小嵐',
        recipientPhone: '0912345678',
        itemCount: 2,
        total: 960 + 120 + 30,
        status: 'processing',
        paymentMethod: 'cod',
        paymentState: null,
        shippingMethod: 'home',
      });
      expect(page.items[1]).toMatchObject({
        customerName: '陳小華',
        recipientName: '陳小華',
        itemCount: 1,
        total: 480 + 65,
        status: 'pending_payment',
        paymentMethod: 'credit_card',
        paymentState: 'pending',
        shippingMethod: 'cvs',
      });
      const first = await list('?pageSize=2');
      expect(first).toMatchObject({ page: 1, pageSize: 2, total: 3, totalPages: 2 });
      expect(first.items.map((r) => r.orderNo)).toEqual([fx.C, fx.B]);
      expect(await listed('?pageSize=2&page=2')).toEqual([fx.A]);
      expect(await listed('?pageSize=2&page=3')).toEqual([]);
    });

    it('narrows by status, payment method and shipping method', async () => {
      expect(await listed('?status=processing')).toEqual([fx.A]);
      expect(await listed('?status=pending_payment')).toEqual([fx.C, fx.B]);
      expect(await listed('?status=shipped')).toEqual([]);
      expect(await listed('?payment=cod')).toEqual([fx.A]);
      expect(await listed('?payment=credit_card')).toEqual([fx.B]);
      expect(await listed('?payment=atm')).toEqual([fx.C]);
      expect(await listed('?shipping=cvs')).toEqual([fx.B]);
      expect(await listed('?shipping=home')).toEqual([fx.C, fx.A]);
      expect(await listed('?status=pending_payment&shipping=home')).toEqual([fx.C]);
    });

    it('narrows by Taipei calendar dates, both ends included', async () => {
      // A was placed at 00:30 on 01/11 in Taipei, which is still 01/10 in UTC.
      expect(await listed('?from=2026-01-11&to=2026-01-11')).toEqual([fx.A]);
      expect(await listed('?from=2026-01-10&to=2026-01-10')).toEqual([]);
      expect(await listed('?from=2026-01-11&to=2026-01-12')).toEqual([fx.B, fx.A]);
      expect(await listed('?from=2026-01-12')).toEqual([fx.C, fx.B]);
      expect(await listed('?to=2026-01-12')).toEqual([fx.B, fx.A]);
      expect(await listed('?from=2026-01-13&to=2026-01-31')).toEqual([]);
    });

    it('searches by order number (whole or part), customer e-mail and recipient phone', async () => {
      expect(await listed(`?q=${fx.B}`)).toEqual([fx.B]);
      expect(await listed(`?q=${fx.B.slice(-6)}`)).toEqual([fx.B]);
      expect(await listed(`?q=${fx.C.toLowerCase()}`)).toEqual([fx.C]);
      expect(await listed('?q=hua%40example')).toEqual([fx.C, fx.B]);
      expect(await listed('?q=MING%40EXAMPLE.COM')).toEqual([fx.A]);
      expect(await listed('?q=0987654321')).toEqual([fx.B]);
      expect(await listed('?q=0922-333-444')).toEqual([fx.C]);
      expect(await listed('?q=333444')).toEqual([fx.C]);
      expect(await listed('?q=%E7%8E%8B%E5%A4%A7%E6%98%8E')).toEqual([fx.C]); // 王大明, the recipient
      expect(await listed('?q=nobody')).toEqual([]);
      // Wildcards are text, not patterns.
      expect(await listed('?q=%25')).toEqual([]);
      expect(await listed('?q=hua%40example&payment=atm')).toEqual([fx.C]);
    });

    it('refuses bad filters with 400 and zh-TW messages beside the field', async () => {
      const cases: Array<[string, string, string]> = [
        ['?status=lost', 'status', '訂單狀態不正確'],
        ['?payment=bitcoin', 'payment', '付款方式不正確'],
        ['?shipping=drone', 'shipping', '配送方式不正確'],
        ['?from=2026/01/01', 'from', '開始日期格式不正確（例如 2026-11-21）'],
        ['?to=yesterday', 'to', '結束日期格式不正確（例如 2026-11-21）'],
        ['?from=2026-02-01&to=2026-01-01', 'to', '結束日期不能早於開始日期'],
        ['?pageSize=101', 'pageSize', '每頁最多 100 筆'],
        ['?page=0', 'page', '頁碼至少為 1'],
      ];
      for (const [query, field, message] of cases) {
        const res = await call('GET', `/api/admin/orders${query}`, 'staff');
        expect(res.statusCode, query).toBe(400);
        expect(res.json().error.code).toBe('invalid-argument');
        expect(res.json().error.fields[field], query).toBe(message);
      }
      expect((await call('GET', '/api/admin/orders?sort=total', 'staff')).statusCode).toBe(400);
      expect(
        (await call('GET', '/api/admin/orders/export.csv?from=2026-02-01&to=2026-01-01', 'staff')).json()
          .error.fields.to,
      ).toBe('結束日期不能早於開始日期');
    });
  });

  describe('CSV export', () => {
    it('downloads the filtered orders as UTF-8 with a BOM and zh-TW headings, one row per order', async () => {
      const res = await call('GET', '/api/admin/orders/export.csv?payment=cod', 'viewer');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="orders-\d{8}\.csv"$/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body.startsWith('\uFEFF訂單編號,成立時間,')).toBe(true);
      expect(res.body.endsWith('\r\n')).toBe(true);
      const records = parseCsv(res.body);
      expect(records).toHaveLength(2);
      expect(records[0]).toEqual([...ORDER_CSV_HEADERS]);
      expect(records[1]).toEqual([
        fx.A,
        '2026/01/11 00:30',
        '備貨中',
        '王小明',
        'ming@example.com',
        '林小嵐',
        '0912345678',
        '宅配到府',
        '558 南投縣鹿谷鄉興產路 87 號',
        '貨到付款',
        '到貨收款',
        '2',
        '960',
        '0',
        '150',
        '1110',
        '',
        '',
        // A formula typed into the note stays text in a spreadsheet; its comma is quoted.
        "'=SUM(1,2) 請附提袋",
      ]);
    });

    it('uses the same filters as the list, newest first', async () => {
      const all = parseCsv((await call('GET', '/api/admin/orders/export.csv', 'staff')).body);
      expect(all.slice(1).map((r) => r[0])).toEqual([fx.C, fx.B, fx.A]);
      const cvs = parseCsv(
        (await call('GET', '/api/admin/orders/export.csv?shipping=cvs&q=hua', 'staff')).body,
      );
      expect(cvs.slice(1).map((r) => [r[0], r[2], r[8], r[9], r[10], r[15]])).toEqual([
        [fx.B, '待付款', '7-ELEVEN 鹿谷門市（158703）', '信用卡', '等待付款', '545'],
      ]);
      const none = parseCsv(
        (await call('GET', '/api/admin/orders/export.csv?status=refunded', 'staff')).body,
      );
      expect(none).toEqual([[...ORDER_CSV_HEADERS]]);
    });
  });

  describe('who may do what', () => {
    it('answers anonymous callers 401 and shoppers 403 on every order endpoint', async () => {
      const endpoints: Array<['GET' | 'POST', string, object?]> = [
        ['GET', '/api/admin/orders'],
        ['GET', '/api/admin/orders/export.csv'],
        ['GET', `/api/admin/orders/${fx.A}`],
        ['POST', `/api/admin/orders/${fx.A}/actions`, { action: 'cancel', reason: '測試' }],
      ];
      for (const [method, url, body] of endpoints) {
        const anonymous = await call(method, url, 'anonymous', body);
        expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
        expect(anonymous.json().error.code).toBe('unauthenticated');
        const customer = await call(method, url, 'customer', body);
        expect(customer.statusCode, `${method} ${url}`).toBe(403);
        expect(customer.json().error.code).toBe('forbidden');
      }
      expect(await statusOf(fx.A)).toBe('processing');
    });

    it('lets viewers, staff and owners read the list, the export and the detail', async () => {
      for (const who of ['viewer', 'staff', 'owner'] as const) {
        expect((await list('', who)).total, who).toBe(3);
        const csv = await call('GET', '/api/admin/orders/export.csv', who);
        expect(csv.statusCode, who).toBe(200);
        expect((await detail(fx.B, who)).orderNo).toBe(fx.B);
      }
    });

    it('refuses actions to viewers (403) and changes nothing; staff may act', async () => {
      const order = await newOrder();
      const refused = await act(order.orderNo, { action: 'cancel', reason: '檢視者不能取消' }, 'viewer');
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toMatchObject({
        code: 'forbidden',
        message: '您的角色沒有權限進行這項操作。',
      });
      expect(await statusOf(order.orderNo)).toBe('processing');
      expect(await auditOf(order.orderNo)).toEqual([]);
      expect((await actOk(order.orderNo, { action: 'cancel', reason: '顧客來電取消' }, 'staff')).status).toBe(
        'cancelled',
      );
    });

    it('shows the audit trail of an order to the owner only', async () => {
      expect((await detail(fx.A, 'owner')).operations).toEqual([]);
      expect((await detail(fx.A, 'staff')).operations).toBeNull();
      expect((await detail(fx.A, 'viewer')).operations).toBeNull();
    });
  });

  describe('the detail', () => {
    it('has items, amounts, payments with gateway data, the store, invoice, member and history', async () => {
      const d = await detail(fx.B);
      expect(d).toMatchObject({
        orderNo: fx.B,
        status: 'pending_payment',
        placedAt: '2026-01-12T15:59:00.000Z',
        paymentMethod: 'credit_card',
        paidAt: null,
        customer: { id: huaUid, name: '陳小華', email: 'hua@example.com' },
        itemCount: 1,
        amounts: { subtotal: 480, discounts: [], discountTotal: 0, shipping: 65, codFee: 0, total: 545 },
        shipping: {
          method: 'cvs',
          recipientName: '陳小華',
          phone: '0987654321',
          postalCode: null,
          address: null,
          cvsBrand: '7-ELEVEN',
          storeName: '7-ELEVEN 鹿谷門市',
          storeId: '158703',
          storeAddress: '南投縣鹿谷鄉中正路二段 123 號',
        },
        invoice: {
          type: 'member',
          label: '會員載具（電子發票存於會員帳號）',
          mobileBarcode: null,
          taxId: null,
        },
        note: '',
        shipment: null,
        allowedActions: ['cancel'],
        shipmentEvents: [],
      });
      expect(d.items).toEqual([
        {
          id: expect.any(String),
          productName: '凍頂烏龍茶',
          productSlug: 'dong-ding',
          variantLabel: '75 g',
          sku: 'DD-S',
          imageSrc: null,
          unitPrice: 480,
          quantity: 1,
          lineTotal: 480,
        },
      ]);
      expect(d.payments).toEqual([
        expect.objectContaining({
          merchantTradeNo: `${fx.B}P1`,
          provider: 'ecpay',
          method: 'credit_card',
          amount: 545,
          status: 'pending',
          tradeNo: null,
          rtnCode: null,
          atm: null,
          paidAt: null,
        }),
      ]);
      expect(d.events).toEqual([
        expect.objectContaining({ kind: 'status', status: 'pending_payment', note: '訂單成立，等待付款' }),
      ]);
    });

    it('splits the cash-on-delivery fee from shipping, and offers only the moves the state machine allows', async () => {
      const a = await detail(fx.A);
      expect(a.amounts).toEqual({
        subtotal: 960,
        discounts: [],
        discountTotal: 0,
        shipping: 120,
        codFee: 30,
        total: 1110,
      });
      // An amount the current rules could not have charged is not split.
      await ctx.database.db.update(orders).set({ shippingFee: 175 }).where(eq(orders.orderNo, fx.A));
      expect((await detail(fx.A)).amounts).toMatchObject({ shipping: 175, codFee: null });
      await ctx.database.db.update(orders).set({ shippingFee: 150 }).where(eq(orders.orderNo, fx.A));
      expect(a.shipping).toMatchObject({
        method: 'home',
        postalCode: '558',
        address: '南投縣鹿谷鄉興產路 87 號',
        storeName: null,
      });
      expect(a.payments).toEqual([]);
      // Processing COD: ship or cancel; no refund before any money was collected.
      expect(a.allowedActions).toEqual(['ship', 'ship-ecpay', 'cancel']);
      const paid = await newOrder({ payment: 'credit_card', paid: true });
      const p = await detail(paid.orderNo);
      expect(p.allowedActions).toEqual(['process', 'cancel', 'refund']);
      expect(p.payments[0]).toMatchObject({
        status: 'paid',
        tradeNo: `T${paid.orderNo.slice(-6)}`,
        rtnCode: '1',
        rtnMsg: '交易成功',
      });
      expect(p.paidAt).not.toBeNull();
    });

    it('an attempt still open when a later one paid the order reads as replaced, not as waiting for payment', async () => {
      const s = await shopper(ctx.app, 'pays-again@example.com');
      await s.add(variants['CUP-1']!, 1);
      const placed = await s.order({ paymentMethod: 'credit_card' });
      expect(placed.statusCode, placed.body).toBe(201);
      const order = placed.json().order as { orderNo: string; total: number };
      // 「前往付款」 again: a new attempt (P2), which the shopper pays; P1 is never answered.
      const again = await s.call('POST', `/api/orders/${order.orderNo}/pay`);
      expect(again.statusCode, again.body).toBe(200);
      expect(
        await recordPaid(orderDeps(ctx.app), {
          merchantTradeNo: `${order.orderNo}P2`,
          amount: order.total,
          tradeNo: 'T2ND',
          rtnCode: '1',
          rtnMsg: '交易成功',
        }),
      ).toBe('ok');
      const d = await detail(order.orderNo);
      expect(d.status).toBe('paid');
      expect(d.payments.map((p) => [p.merchantTradeNo, p.status, p.replaced])).toEqual([
        [`${order.orderNo}P1`, 'pending', true],
        [`${order.orderNo}P2`, 'paid', false],
      ]);
      // A single open attempt is what the order waits for.
      expect((await detail(fx.B)).payments.map((p) => p.replaced)).toEqual([false]);
    });

    it('answers 404 for an unknown order and 400 for a malformed number', async () => {
      const missing = await call('GET', '/api/admin/orders/TW20260101999999', 'staff');
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.message).toBe('找不到這筆訂單。');
      const bad = await call('GET', '/api/admin/orders/12345', 'staff');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields.orderNo).toBe('訂單編號格式不正確');
      expect((await act('TW20260101999999', { action: 'process' })).statusCode).toBe(404);
    });
  });

  describe('actions', () => {
    it('ships, tracks, delivers and completes a COD order, auditing each step with the status before and after', async () => {
      const order = await newOrder();
      const heard: MemberEvent[] = [];
      const stop = ctx.app.events.subscribe(order.uid, (e) => heard.push(e));
      try {
        const shipped = await actOk(order.orderNo, {
          action: 'ship',
          carrier: '黑貓宅急便',
          trackingNo: ' 9055-1234-5678 ',
        });
        expect(shipped.status).toBe('shipped');
        expect(shipped.shipment).toEqual({ carrier: '黑貓宅急便', trackingNo: '9055-1234-5678' });
        expect(shipped.allowedActions).toEqual(['shipment-event', 'deliver']);
        expect(shipped.shipmentEvents).toEqual(['picked_up', 'in_transit']);
        expect(shipped.events.at(-2)).toMatchObject({
          kind: 'shipment',
          shipmentEvent: 'created',
          carrier: '黑貓宅急便',
          trackingNo: '9055-1234-5678',
        });
        expect(shipped.events.at(-1)).toMatchObject({ kind: 'status', status: 'shipped' });
        // The member's open tracking page hears of it, and the shipping mail goes out.
        expect(heard).toContainEqual({
          type: 'order.updated',
          data: { orderNo: order.orderNo, status: 'shipped' },
        });
        expect((await latestMail(ctx.database, order.email, 'order-shipped')).subject).toContain(
          order.orderNo,
        );

        const moving = await actOk(order.orderNo, {
          action: 'shipment-event',
          event: 'in_transit',
          location: '台中轉運中心',
        });
        expect(moving.status).toBe('shipped');
        expect(moving.events.at(-1)).toMatchObject({
          kind: 'shipment',
          shipmentEvent: 'in_transit',
          location: '台中轉運中心',
        });

        const delivered = await actOk(order.orderNo, { action: 'deliver' });
        expect(delivered.status).toBe('delivered');
        expect(delivered.events.filter((e) => e.kind === 'shipment').map((e) => e.shipmentEvent)).toEqual([
          'created',
          'in_transit',
          'delivered',
        ]);
        expect(delivered.allowedActions).toEqual(['complete', 'refund']);

        const completed = await actOk(order.orderNo, { action: 'complete' });
        expect(completed.status).toBe('completed');
        expect(completed.allowedActions).toEqual(['refund']);
      } finally {
        stop();
      }

      const audit = await auditOf(order.orderNo);
      expect(audit.map((r) => [r.action, r.before, r.after])).toEqual([
        [
          'order.ship',
          { status: 'processing' },
          { status: 'shipped', carrier: '黑貓宅急便', trackingNo: '9055-1234-5678' },
        ],
        [
          'order.shipment-event',
          { status: 'shipped' },
          { status: 'shipped', event: 'in_transit', location: '台中轉運中心' },
        ],
        ['order.deliver', { status: 'shipped' }, { status: 'delivered' }],
        ['order.complete', { status: 'delivered' }, { status: 'completed' }],
      ]);
      expect(
        audit.every(
          (r) => r.actorEmail === 'staff@example.com' && r.actorRole === 'staff' && r.entity === 'order',
        ),
      ).toBe(true);
      // The owner sees the same trail on the order, newest first.
      const ops = (await detail(order.orderNo, 'owner')).operations!;
      expect(ops.map((o) => o.action)).toEqual([
        'order.complete',
        'order.deliver',
        'order.shipment-event',
        'order.ship',
      ]);
    });

    it('adds 「arrived at the store」 only for store pickup orders', async () => {
      const home = await newOrder();
      await actOk(home.orderNo, { action: 'ship', carrier: '新竹物流', trackingNo: 'HCT12345678' });
      const refused = await act(home.orderNo, { action: 'shipment-event', event: 'arrived_at_store' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.fields.event).toBe('宅配訂單不會到達取貨門市，請選擇其他配送事件');

      const store = await newOrder({ cvs: true });
      const shipped = await actOk(store.orderNo, {
        action: 'ship',
        carrier: '全家店到店',
        trackingNo: 'F20261122001',
      });
      expect(shipped.shipmentEvents).toEqual(['picked_up', 'in_transit', 'arrived_at_store']);
      const arrived = await actOk(store.orderNo, {
        action: 'shipment-event',
        event: 'arrived_at_store',
        location: '全家 鹿谷興產店',
      });
      expect(arrived.events.at(-1)).toMatchObject({
        shipmentEvent: 'arrived_at_store',
        location: '全家 鹿谷興產店',
      });
      expect((await auditOf(home.orderNo)).map((r) => r.action)).toEqual(['order.ship']);
    });

    it('processes a paid card order, and cancelling it returns the stock with the reason on the history', async () => {
      const before = await stockOf('POT-1');
      const order = await newOrder({ payment: 'credit_card', paid: true, sku: 'POT-1', qty: 2 });
      expect(await stockOf('POT-1')).toBe(before - 2);
      const processing = await actOk(order.orderNo, { action: 'process' }, 'owner');
      expect(processing.status).toBe('processing');
      const cancelled = await actOk(order.orderNo, {
        action: 'cancel',
        reason: '  茶壺燒製瑕疵，無法出貨  ',
      });
      expect(cancelled.status).toBe('cancelled');
      expect(cancelled.allowedActions).toEqual([]);
      expect(cancelled.events.at(-1)).toMatchObject({
        kind: 'status',
        status: 'cancelled',
        note: '店家取消訂單：茶壺燒製瑕疵，無法出貨',
      });
      expect(await stockOf('POT-1')).toBe(before);
      expect((await auditOf(order.orderNo)).map((r) => [r.action, r.actorEmail, r.before, r.after])).toEqual([
        ['order.process', 'owner@example.com', { status: 'paid' }, { status: 'processing' }],
        [
          'order.cancel',
          'staff@example.com',
          { status: 'processing' },
          { status: 'cancelled', reason: '茶壺燒製瑕疵，無法出貨' },
        ],
      ]);
    });

    it('cancels an unpaid order and refunds a paid one, returning stock both times', async () => {
      const before = await stockOf('DD-S');
      const unpaid = await newOrder({ payment: 'atm', sku: 'DD-S', qty: 3 });
      const paid = await newOrder({ payment: 'credit_card', paid: true, sku: 'DD-S', qty: 2 });
      expect(await stockOf('DD-S')).toBe(before - 5);
      expect((await actOk(unpaid.orderNo, { action: 'cancel', reason: '顧客改訂其他商品' })).status).toBe(
        'cancelled',
      );
      expect(await stockOf('DD-S')).toBe(before - 2);
      // Its payment attempt was never used: the list and the export say 「未付款」, not 「等待付款」.
      expect((await list(`?q=${unpaid.orderNo}`)).items[0]).toMatchObject({
        status: 'cancelled',
        paymentState: 'pending',
      });
      expect(
        parseCsv(
          (await call('GET', `/api/admin/orders/export.csv?q=${unpaid.orderNo}`, 'staff')).body,
        )[1]?.slice(9, 11),
      ).toEqual(['ATM 轉帳', '未付款']);
      const refunded = await actOk(paid.orderNo, { action: 'refund', reason: '顧客七天內退貨' });
      expect(refunded.status).toBe('refunded');
      expect(refunded.events.at(-1)).toMatchObject({
        status: 'refunded',
        note: '已辦理退款：顧客七天內退貨',
      });
      expect(await stockOf('DD-S')).toBe(before);
      expect((await auditOf(paid.orderNo)).map((r) => [r.action, r.before, r.after])).toEqual([
        ['order.refund', { status: 'paid' }, { status: 'refunded', reason: '顧客七天內退貨' }],
      ]);
    });

    it('refuses illegal moves with 409 and a zh-TW message, changing nothing', async () => {
      const order = await newOrder();
      const events = await eventCount(order.orderNo);
      const cases: Array<[object, string]> = [
        [{ action: 'complete' }, '訂單目前為「備貨中」，不能完成訂單。'],
        [{ action: 'deliver' }, '訂單目前為「備貨中」，不能標記已送達。'],
        [{ action: 'process' }, '訂單目前為「備貨中」，不能開始備貨。'],
        [{ action: 'shipment-event', event: 'in_transit' }, '訂單目前為「備貨中」，不能新增配送事件。'],
        [
          { action: 'refund', reason: '誤下單' },
          '貨到付款訂單送達前尚未收款，不需要退款；請改用「取消訂單」。',
        ],
      ];
      for (const [body, message] of cases) {
        const res = await act(order.orderNo, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(409);
        expect(res.json().error).toEqual({ code: 'invalid-transition', message });
      }
      expect(await statusOf(order.orderNo)).toBe('processing');
      expect(await eventCount(order.orderNo)).toBe(events);
      expect(await auditOf(order.orderNo)).toEqual([]);

      await actOk(order.orderNo, { action: 'cancel', reason: '顧客取消' });
      const again = await act(order.orderNo, {
        action: 'ship',
        carrier: '黑貓宅急便',
        trackingNo: '905512345678',
      });
      expect(again.statusCode).toBe(409);
      expect(again.json().error.message).toBe('訂單目前為「已取消」，不能出貨。');
      const twice = await act(order.orderNo, { action: 'cancel', reason: '再按一次' });
      expect(twice.json().error.message).toBe('訂單目前為「已取消」，不能取消訂單。');
      expect(await statusOf(order.orderNo)).toBe('cancelled');
      expect((await auditOf(order.orderNo)).map((r) => r.action)).toEqual(['order.cancel']);
    });

    it('lets only one of two simultaneous cancels through', async () => {
      const before = await stockOf('CUP-1');
      const order = await newOrder();
      const results = await Promise.all([
        act(order.orderNo, { action: 'cancel', reason: '甲' }),
        act(order.orderNo, { action: 'cancel', reason: '乙' }),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(await stockOf('CUP-1')).toBe(before);
      expect(await auditOf(order.orderNo)).toHaveLength(1);
    });

    it('refuses bad bodies with 400 and zh-TW messages beside the fields, changing nothing', async () => {
      const order = await newOrder();
      const events = await eventCount(order.orderNo);
      const cases: Array<[object, string, string]> = [
        [{}, 'action', '請選擇要執行的操作'],
        [{ action: 'explode' }, 'action', '請選擇要執行的操作'],
        [{ action: 'ship', trackingNo: '905512345678' }, 'carrier', '請選擇物流業者'],
        [{ action: 'ship', carrier: '順豐速運', trackingNo: '905512345678' }, 'carrier', '請選擇物流業者'],
        [{ action: 'ship', carrier: '黑貓宅急便' }, 'trackingNo', '請填寫追蹤編號'],
        [{ action: 'ship', carrier: '黑貓宅急便', trackingNo: '   ' }, 'trackingNo', '請填寫追蹤編號'],
        [
          { action: 'ship', carrier: '黑貓宅急便', trackingNo: '12345' },
          'trackingNo',
          '追蹤編號須為 6–30 個英文字母、數字或連字號',
        ],
        [
          { action: 'ship', carrier: '黑貓宅急便', trackingNo: '9055 1234 5678' },
          'trackingNo',
          '追蹤編號須為 6–30 個英文字母、數字或連字號',
        ],
        [
          { action: 'ship', carrier: '黑貓宅急便', trackingNo: '1'.repeat(31) },
          'trackingNo',
          '追蹤編號須為 6–30 個英文字母、數字或連字號',
        ],
        [{ action: 'shipment-event', event: 'delivered' }, 'event', '請選擇配送事件'],
        [
          { action: 'shipment-event', event: 'in_transit', location: '地'.repeat(61) },
          'location',
          '地點最多 60 個字',
        ],
        [{ action: 'cancel' }, 'reason', '請填寫取消原因'],
        [{ action: 'cancel', reason: '  ' }, 'reason', '請填寫取消原因'],
        [{ action: 'refund', reason: '退'.repeat(201) }, 'reason', '退款原因最多 200 個字'],
      ];
      for (const [body, field, message] of cases) {
        const res = await act(order.orderNo, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().error.code).toBe('invalid-argument');
        expect(res.json().error.fields[field], JSON.stringify(body)).toBe(message);
      }
      // Unknown fields are refused too.
      expect((await act(order.orderNo, { action: 'process', status: 'completed' })).statusCode).toBe(400);
      expect((await act(order.orderNo, { action: 'deliver', force: true })).statusCode).toBe(400);
      expect(await statusOf(order.orderNo)).toBe('processing');
      expect(await eventCount(order.orderNo)).toBe(events);
      expect(await auditOf(order.orderNo)).toEqual([]);
    });

    it('keeps the existing advance endpoint for the command line', async () => {
      const order = await newOrder();
      const res = await call('POST', `/api/admin/orders/${order.orderNo}/advance`, 'staff', {
        status: 'shipped',
        carrier: '黑貓宅急便',
        trackingNo: '905512349999',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().status).toBe('shipped');
      expect((await auditOf(order.orderNo)).map((r) => r.action)).toEqual(['order.advance']);
      expect(
        (await call('POST', `/api/admin/orders/${order.orderNo}/advance`, 'viewer', { status: 'delivered' }))
          .statusCode,
      ).toBe(403);
    });
  });
});
