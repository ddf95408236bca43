import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbAvailable, type TestContext } from '../../../test/helpers.ts';
import { setRole } from '../../../test/fixtures.ts';
import { shopper, shopWithCatalog } from '../../../test/shop.ts';
import { checkMacValue } from '../../lib/ecpay-check-mac.ts';

/**
 * An order as the shopper reads it through the orders API: the pickup store named once, the
 * shipment slip before 已出貨, the carrier's tracking link, a failed payment in one sentence
 * (docs/decisions/008-shopper-words-stores-tracking.md).
 */
describe.skipIf(!dbAvailable())('orders as a shopper reads them', () => {
  let ctx: TestContext;
  let variants: Record<string, string>;
  beforeAll(async () => {
    ({ ctx, variants } = await shopWithCatalog());
  });
  afterAll(async () => ctx.close());

  it('names a pickup store with its chain once (全家 竹山大智店, 7-ELEVEN 鹿谷門市)', async () => {
    const s = await shopper(ctx.app, 'pickup-label@example.com');
    const stores: Array<[string, string, string]> = [
      ['FAMILY', '018234', '全家 竹山大智店'],
      ['7-ELEVEN', '158703', '7-ELEVEN 鹿谷門市'],
    ];
    for (const [cvsBrand, storeId, label] of stores) {
      await s.add(variants['DD-S']!, 1);
      await s.pickStore(cvsBrand, storeId);
      const placed = await s.order({
        shipping: { method: 'cvs', recipientName: '林小嵐', phone: '0912345678', cvsBrand, storeId },
        paymentMethod: 'cod',
      });
      expect(placed.statusCode, placed.body).toBe(201);
      const detail = (await s.call('GET', `/api/orders/${placed.json().order.orderNo}`)).json();
      expect(detail.shipping.store).toBe(label);
    }
  });

  it('lists the shipment slip before 已出貨, so the newest step is the shipment', async () => {
    const s = await shopper(ctx.app, 'timeline@example.com');
    await s.add(variants['DD-S']!, 1);
    const { order } = (await s.order()).json();
    const staff = await shopper(ctx.app, 'timeline-staff@example.com');
    await setRole(ctx.database, 'timeline-staff@example.com', 'staff');
    const url = `/api/admin/orders/${order.orderNo}/advance`;
    await staff.call('POST', url, { status: 'processing' });
    await staff.call('POST', url, { status: 'shipped', carrier: '黑貓宅急便', trackingNo: '905512345678' });
    const detail = (await s.call('GET', `/api/orders/${order.orderNo}`)).json();
    const steps = detail.events.map(
      (e: { kind: string; status: string | null; shipmentEvent: string | null }) =>
        e.kind === 'shipment' ? e.shipmentEvent : e.status,
    );
    expect(steps.slice(-2)).toEqual(['created', 'shipped']);
    // The shipment names the carrier's tracking page for this parcel.
    expect(detail.events.at(-2)).toMatchObject({
      carrier: '黑貓宅急便',
      trackingNo: '905512345678',
      tracking: {
        url: 'https://www.t-cat.com.tw/Inquire/TraceDetail.aspx?BillID=905512345678',
        opensParcel: true,
      },
    });
  });

  it("links a store-pickup parcel to the chain's tracking page, the number to copy there", async () => {
    const s = await shopper(ctx.app, 'track-cvs@example.com');
    await s.add(variants['DD-S']!, 1);
    await s.pickStore('FAMILY', '018234');
    const { order } = (
      await s.order({
        shipping: {
          method: 'cvs',
          recipientName: '林小嵐',
          phone: '0912345678',
          cvsBrand: 'FAMILY',
          storeId: '018234',
        },
      })
    ).json();
    const staff = await shopper(ctx.app, 'track-cvs-staff@example.com');
    await setRole(ctx.database, 'track-cvs-staff@example.com', 'staff');
    const url = `/api/admin/orders/${order.orderNo}/advance`;
    await staff.call('POST', url, { status: 'processing' });
    await staff.call('POST', url, { status: 'shipped', carrier: '全家店到店', trackingNo: 'F 1234/56' });
    const detail = (await s.call('GET', `/api/orders/${order.orderNo}`)).json();
    expect(detail.events.at(-2).tracking).toEqual({
      url: 'https://fmec.famiport.com.tw/FP_Entrance/QueryBox',
      opensParcel: false,
    });
    expect(detail.events.at(-1).tracking).toBeNull();
  });

  it('a failed card payment is told in a whole sentence', async () => {
    const s = await shopper(ctx.app, 'failed-card@example.com');
    await s.add(variants['DD-S']!, 1);
    const { order } = (await s.order({ paymentMethod: 'credit_card' })).json();
    const fields = {
      MerchantID: '3002607',
      MerchantTradeNo: `${order.orderNo}P1`,
      RtnCode: '10100058',
      RtnMsg: '授權失敗',
      TradeNo: `T${Date.now()}`,
      TradeAmt: String(order.total),
      PaymentDate: '2026/11/22 10:00:00',
      PaymentType: 'Credit_CreditCard',
      SimulatePaid: '0',
    };
    const notice = {
      ...fields,
      CheckMacValue: checkMacValue(fields, 'pwFHCqoQZGmho4w6', 'EkRm7iFT261dpevs'),
    };
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments/ecpay/notify',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(notice).toString(),
    });
    expect(res.body).toBe('1|OK');
    const detail = (await s.call('GET', `/api/orders/${order.orderNo}`)).json();
    expect(detail.payment.message).toBe('付款未成功：授權失敗。');
    expect(detail.events.at(-1).note).toBe('付款未成功：授權失敗。');
  });
});
