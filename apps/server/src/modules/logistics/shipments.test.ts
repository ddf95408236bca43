import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkMacValue, verifyCheckMacValue } from '../../lib/ecpay-check-mac.ts';
import {
  auditLog,
  logisticsNotices,
  mailOutbox,
  orderEvents,
  orders,
  outboxMessages,
  productVariants,
  sandboxLogisticsShipments,
  shipments,
} from '../../db/schema.ts';
import { createTestApp, dbAvailable, signIn, type TestContext } from '../../../test/helpers.ts';
import { seedTestCatalog, setRole } from '../../../test/fixtures.ts';
import { latestMail, mailSettled } from '../../../test/mail.ts';
import { ORIGIN, replyFromMap, shopper } from '../../../test/shop.ts';
import { placeOfAddress } from '@shop/shared/data/tw-districts';
import {
  labelForms,
  parseCreateReply,
  parseStoreList,
  shipmentFields,
  type LogisticsSettings,
} from './ecpay.ts';
import { orderDeps } from '../orders/deps.ts';
import { recordPaid } from '../orders/payment-results.ts';

const C2C: LogisticsSettings = {
  merchantId: '2000933',
  hashKey: 'XBERn1YOvpM9nfZc',
  hashIV: 'h1ONHk4P4yqbl5LK',
  endpoint: undefined,
  type: 'C2C',
};
const SENDER = { name: '山嵐茶事', phone: '0912345678', zip: '558', address: '南投縣鹿谷鄉興產路 87 號' };
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('logistics orders: the fields ECPay takes and the answers it gives', () => {
  const request = {
    merchantTradeNo: 'TW20261125000001L1',
    orderedAt: new Date('2026-11-25T03:04:05Z'),
    goodsAmount: 1095,
    collectionAmount: 1095,
    goodsName: '山嵐茶事訂單TW20261125000001',
    receiver: { name: '王小茶', cellPhone: '0912345678' },
    destination: { kind: 'CVS' as const, brand: '7-ELEVEN' as const, storeId: '158703' },
    serverReplyUrl: 'https://shop.example/api/logistics/notify',
    storeNoticeUrl: 'https://shop.example/api/logistics/store-notice',
  };

  it('a store-pickup order with cash to collect, signed with MD5 over everything sent', () => {
    const fields = shipmentFields(C2C, SENDER, request, '2026/11/25 11:04:05');
    expect(fields).toMatchObject({
      MerchantID: '2000933',
      MerchantTradeNo: 'TW20261125000001L1',
      MerchantTradeDate: '2026/11/25 11:04:05',
      LogisticsType: 'CVS',
      LogisticsSubType: 'UNIMARTC2C',
      GoodsAmount: '1095',
      IsCollection: 'Y',
      CollectionAmount: '1095',
      SenderName: '山嵐茶事',
      SenderCellPhone: '0912345678',
      ReceiverName: '王小茶',
      ReceiverCellPhone: '0912345678',
      ReceiverStoreID: '158703',
      ServerReplyURL: 'https://shop.example/api/logistics/notify',
      LogisticsC2CReplyURL: 'https://shop.example/api/logistics/store-notice',
    });
    expect(verifyCheckMacValue(fields, C2C.hashKey, C2C.hashIV, 'md5')).toBe(true);
    const paid = shipmentFields(C2C, SENDER, { ...request, collectionAmount: 0 }, '2026/11/25 11:04:05');
    expect(paid.IsCollection).toBe('N');
    expect(paid).not.toHaveProperty('CollectionAmount');
    const home = shipmentFields(
      { ...C2C, type: 'B2C' },
      SENDER,
      {
        ...request,
        collectionAmount: 0,
        destination: {
          kind: 'HOME',
          zip: '110',
          address: '臺北市信義區松仁路 100 號',
          sameCity: false,
          outlying: false,
        },
      },
      'x',
    );
    expect(home).toMatchObject({
      LogisticsType: 'HOME',
      LogisticsSubType: 'TCAT',
      SenderZipCode: '558',
      ReceiverZipCode: '110',
      Distance: '01',
      Temperature: '0001',
      Specification: '0001',
    });
    expect(home).not.toHaveProperty('IsCollection');
  });

  it('prints labels per print page, several parcels on one form as comma-separated lists in the same order', () => {
    const forms = labelForms(C2C, 'https://shop.example', [
      { subType: 'UNIMARTC2C', logisticsId: '101', cvsPaymentNo: 'F1111111', cvsValidationNo: '1111' },
      { subType: 'FAMIC2C', logisticsId: '102', cvsPaymentNo: '22222222222', cvsValidationNo: '' },
      { subType: 'UNIMARTC2C', logisticsId: '103', cvsPaymentNo: 'F3333333', cvsValidationNo: '3333' },
      { subType: 'TCAT', logisticsId: '104', cvsPaymentNo: '', cvsValidationNo: '' },
    ]);
    expect(forms.map((f) => [f.path, f.count])).toEqual([
      ['/Express/PrintUniMartC2COrderInfo', 2],
      ['/Express/PrintFAMIC2COrderInfo', 1],
      ['/helper/printTradeDocument', 1],
    ]);
    expect(forms[0]!.action).toBe(
      'https://shop.example/sandbox/ecpay/logistics/Express/PrintUniMartC2COrderInfo',
    );
    expect(forms[0]!.fields).toMatchObject({
      MerchantID: '2000933',
      AllPayLogisticsID: '101,103',
      CVSPaymentNo: 'F1111111,F3333333',
      CVSValidationNo: '1111,3333',
    });
    expect(forms[1]!.fields).not.toHaveProperty('CVSValidationNo');
    expect(forms[2]!.fields).toEqual({
      MerchantID: '2000933',
      AllPayLogisticsID: '104',
      CheckMacValue: expect.any(String),
    });
    for (const f of forms) expect(verifyCheckMacValue(f.fields, C2C.hashKey, C2C.hashIV, 'md5')).toBe(true);
  });

  it('reads GetStoreList’s JSON (RtnCode 1, StoreList[].StoreInfo[]) for one chain; a refusal or another shape is no list', () => {
    const answer = {
      RtnCode: 1,
      RtnMsg: '成功',
      StoreList: [
        {
          CvsType: 'FAMI',
          StoreInfo: [
            {
              StoreId: '018234',
              StoreName: '全家 鹿谷興產店',
              StoreAddr: '南投縣鹿谷鄉興產路 1 號',
              StorePhone: '049-2750000',
            },
          ],
        },
        {
          CvsType: 'UNIMART',
          StoreInfo: [
            {
              StoreId: '189362',
              StoreName: '馬公門市',
              StoreAddr: '澎湖縣馬公市中正路 38 號',
              StorePhone: null,
            },
          ],
        },
      ],
    };
    expect(parseStoreList(JSON.stringify(answer), 'UNIMART')).toEqual([
      { id: '189362', name: '馬公門市', address: '澎湖縣馬公市中正路 38 號', phone: '' },
    ]);
    expect(parseStoreList(JSON.stringify({ ...answer, RtnCode: 0 }), 'UNIMART')).toBeNull();
    expect(parseStoreList('<html>502</html>', 'UNIMART')).toBeNull();
    expect(placeOfAddress('880台澎湖縣馬公市中正路 38 號')).toBeNull();
    expect(placeOfAddress('880 澎湖縣馬公市中正路 38 號')).toEqual({ city: '澎湖縣', district: '馬公市' });
    expect(placeOfAddress('台東縣綠島鄉南寮村 1 號')).toEqual({ city: '臺東縣', district: '綠島鄉' });
  });

  it('believes only a signed 1|… answer; 0|… and a tampered answer are refusals', () => {
    const answer = {
      MerchantID: '2000933',
      MerchantTradeNo: 'TW20261125000001L1',
      RtnCode: '300',
      RtnMsg: '訂單處理中',
      AllPayLogisticsID: '1718546',
      CVSPaymentNo: 'F1234567',
      CVSValidationNo: '7175',
    };
    const signed = new URLSearchParams({
      ...answer,
      CheckMacValue: checkMacValue(answer, C2C.hashKey, C2C.hashIV, 'md5'),
    }).toString();
    expect(parseCreateReply(C2C, `1|${signed}`)).toEqual({
      ok: true,
      fields: expect.objectContaining({ AllPayLogisticsID: '1718546', CVSValidationNo: '7175' }),
    });
    expect(parseCreateReply(C2C, `1|${signed.replace('1718546', '1718547')}`)).toMatchObject({ ok: false });
    expect(parseCreateReply(C2C, '0|收件人姓名錯誤')).toEqual({ ok: false, message: '收件人姓名錯誤' });
    expect(parseCreateReply(C2C, '<html>502 Bad Gateway</html>')).toMatchObject({ ok: false });
  });
});

describe.skipIf(!dbAvailable())(
  'shipping through ECPay logistics (the sandbox) and its status notices',
  () => {
    let ctx: TestContext;
    let variants: Record<string, string>;
    let staffCookie: string;

    beforeAll(async () => {
      ctx = await createTestApp();
      await seedTestCatalog(ctx.database);
      const rows = await ctx.database.db
        .select({ id: productVariants.id, sku: productVariants.sku })
        .from(productVariants);
      variants = Object.fromEntries(rows.map((r) => [r.sku, r.id]));
      staffCookie = (await signIn(ctx.app, 'ship-staff@example.com')).cookie;
      await setRole(ctx.database, 'ship-staff@example.com', 'staff');
    });
    afterAll(async () => ctx.close());

    const action = (orderNo: string, body: object) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/admin/orders/${orderNo}/actions`,
        headers: { cookie: staffCookie, origin: ORIGIN },
        payload: body,
      });
    const notify = (fields: Record<string, string>) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/logistics/notify',
        headers: FORM,
        payload: new URLSearchParams(fields).toString(),
      });
    const sandboxStep = (logisticsId: string, step: string) =>
      ctx.app.inject({ method: 'POST', url: `/sandbox/ecpay/logistics/parcels/${logisticsId}/${step}` });
    const eventsOf = async (orderNo: string) => {
      const [o] = await ctx.database.db.select().from(orders).where(eq(orders.orderNo, orderNo));
      return ctx.database.db
        .select()
        .from(orderEvents)
        .where(eq(orderEvents.orderId, o!.id))
        .orderBy(orderEvents.id);
    };

    /** A home order paid by card and shipped through ECPay (黑貓): its number and its parcel's row. */
    async function shippedHomeOrder(email: string, city = '臺北市', district = '信義區') {
      const s = await shopper(ctx.app, email);
      await s.add(variants['DD-S']!, 1);
      const placed = (
        await s.order({
          shipping: {
            method: 'home',
            recipientName: '王小茶',
            phone: '0912345678',
            city,
            district,
            address: '中正路 1 號',
          },
          paymentMethod: 'credit_card',
        })
      ).json().order as { orderNo: string; total: number };
      expect(
        await recordPaid(orderDeps(ctx.app), {
          merchantTradeNo: `${placed.orderNo}P1`,
          amount: placed.total,
          tradeNo: `T${placed.orderNo}`,
          rtnCode: '1',
          rtnMsg: '交易成功',
        }),
      ).toBe('ok');
      expect((await action(placed.orderNo, { action: 'process' })).statusCode).toBe(200);
      expect((await action(placed.orderNo, { action: 'ship-ecpay' })).statusCode).toBe(200);
      const [parcel] = await ctx.database.db
        .select()
        .from(shipments)
        .where(eq(shipments.merchantTradeNo, `${placed.orderNo}L1`));
      return { orderNo: placed.orderNo, parcel: parcel! };
    }

    /** ECPay's status notice for a parcel, signed: `code` at `date` (yyyy/MM/dd HH:mm:ss). */
    const statusNotice = (
      parcel: { logisticsId: string; merchantTradeNo: string; logisticsType: string; subType: string },
      code: number,
      date: string,
      message = '',
    ) => {
      const fields = {
        MerchantID: '2000933',
        MerchantTradeNo: parcel.merchantTradeNo,
        RtnCode: String(code),
        RtnMsg: message,
        AllPayLogisticsID: parcel.logisticsId,
        LogisticsType: parcel.logisticsType,
        LogisticsSubType: parcel.subType,
        GoodsAmount: '1',
        UpdateStatusDate: date,
        ReceiverName: '王小茶',
        ReceiverPhone: '',
        ReceiverCellPhone: '0912345678',
        ReceiverEmail: '',
        ReceiverAddress: '',
        CVSPaymentNo: '',
        CVSValidationNo: '',
        BookingNote: '',
      };
      return notify({ ...fields, CheckMacValue: checkMacValue(fields, C2C.hashKey, C2C.hashIV, 'md5') });
    };
    const statusOf = async (orderNo: string) =>
      (await ctx.database.db.select().from(orders).where(eq(orders.orderNo, orderNo)))[0]!.status;
    const mailsOf = async (to: string, kind: string) => {
      await mailSettled(ctx.database);
      return (await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to))).filter(
        (m) => m.meta.kind === kind,
      );
    };

    async function cvsOrder(email: string, recipientName = '王小茶') {
      const s = await shopper(ctx.app, email);
      await s.add(variants['DD-S']!, 1);
      await s.pickStore('7-ELEVEN', '158703');
      const res = await s.order({
        shipping: {
          method: 'cvs',
          recipientName,
          phone: '0912345678',
          cvsBrand: '7-ELEVEN',
          storeId: '158703',
        },
        paymentMethod: 'cod',
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().order as { orderNo: string; total: number; status: string };
    }

    it('staff ship a cash-on-delivery store order through ECPay: the logistics order carries the amount to collect, the parcel its numbers', async () => {
      const order = await cvsOrder('ship-cod@example.com');
      expect(order.status).toBe('processing');
      const res = await action(order.orderNo, { action: 'ship-ecpay' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().status).toBe('shipped');

      const [shipment] = await ctx.database.db.select().from(shipments);
      expect(shipment).toMatchObject({
        merchantTradeNo: `${order.orderNo}L1`,
        logisticsType: 'CVS',
        subType: 'UNIMARTC2C',
        goodsAmount: order.total,
        collectionAmount: order.total,
        statusCode: 300,
      });
      expect(shipment!.cvsPaymentNo).toMatch(/^F\d{7}$/);
      expect(shipment!.cvsValidationNo).toMatch(/^\d{4}$/);
      // What the gateway received, as ECPay would have.
      const [sent] = await ctx.database.db
        .select()
        .from(sandboxLogisticsShipments)
        .where(eq(sandboxLogisticsShipments.logisticsId, shipment!.logisticsId));
      expect(sent!.fields).toMatchObject({
        IsCollection: 'Y',
        CollectionAmount: String(order.total),
        ReceiverStoreID: '158703',
        ReceiverName: '王小茶',
        ServerReplyURL: 'http://localhost:3000/api/logistics/notify',
      });
      const shipped = (await eventsOf(order.orderNo)).find((e) => e.shipmentEvent === 'created');
      expect(shipped).toMatchObject({
        carrier: '7-ELEVEN 交貨便',
        trackingNo: `${shipment!.cvsPaymentNo}${shipment!.cvsValidationNo}`,
      });

      // Its label: signed for the 7-ELEVEN store-to-store print page; an order without a parcel is named.
      const other = await cvsOrder('ship-cod-2@example.com');
      const labels = await ctx.app.inject({
        method: 'POST',
        url: '/api/admin/logistics/labels',
        headers: { cookie: staffCookie, origin: ORIGIN },
        payload: { orderNos: [order.orderNo, other.orderNo] },
      });
      expect(labels.statusCode, labels.body).toBe(200);
      const { forms, missing } = labels.json() as {
        forms: Array<{ path: string; action: string; fields: Record<string, string> }>;
        missing: string[];
      };
      expect(missing).toEqual([other.orderNo]);
      expect(forms).toHaveLength(1);
      expect(forms[0]!.fields).toMatchObject({
        AllPayLogisticsID: shipment!.logisticsId,
        CVSPaymentNo: shipment!.cvsPaymentNo,
        CVSValidationNo: shipment!.cvsValidationNo,
      });
      const printed = await ctx.app.inject({
        method: 'POST',
        url: new URL(forms[0]!.action).pathname,
        headers: FORM,
        payload: new URLSearchParams(forms[0]!.fields).toString(),
      });
      expect(printed.statusCode).toBe(200);
      expect(printed.body).toContain('7-ELEVEN 店到店寄件單');
      expect(printed.body).toContain(`${shipment!.cvsPaymentNo}${shipment!.cvsValidationNo}`);
      expect(printed.body).toContain('鹿谷門市');
      const forged = await ctx.app.inject({
        method: 'POST',
        url: new URL(forms[0]!.action).pathname,
        headers: FORM,
        payload: new URLSearchParams({ ...forms[0]!.fields, CVSValidationNo: '0000' }).toString(),
      });
      expect(forged.statusCode).toBe(400);
      const viewerCookie = (await signIn(ctx.app, 'ship-viewer@example.com')).cookie;
      await setRole(ctx.database, 'ship-viewer@example.com', 'viewer');
      expect(
        (
          await ctx.app.inject({
            method: 'POST',
            url: '/api/admin/logistics/labels',
            headers: { cookie: viewerCookie, origin: ORIGIN },
            payload: { orderNos: [order.orderNo] },
          })
        ).statusCode,
      ).toBe(403);

      // Shipping twice is refused and makes no second parcel.
      expect((await action(order.orderNo, { action: 'ship-ecpay' })).statusCode).toBe(409);
      expect(await ctx.database.db.select().from(shipments)).toHaveLength(1);
    });

    it('a paid home-delivery order ships with 黑貓 through ECPay, its booking note the tracking number; cash on delivery to the door is refused (ECPay would not collect it)', async () => {
      const s = await shopper(ctx.app, 'ship-home@example.com');
      const home = {
        method: 'home',
        recipientName: '王小茶',
        phone: '0912345678',
        city: '臺北市',
        district: '信義區',
        address: '松仁路 100 號',
      };
      await s.add(variants['DD-S']!, 1);
      const cod = (await s.order({ shipping: home, paymentMethod: 'cod' })).json().order.orderNo as string;
      const refused = await action(cod, { action: 'ship-ecpay' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.message).toContain('綠界的宅配不代收貨款');
      expect(
        await ctx.database.db
          .select()
          .from(shipments)
          .where(eq(shipments.merchantTradeNo, `${cod}L1`)),
      ).toEqual([]);

      await s.add(variants['DD-S']!, 1);
      const card = (await s.order({ shipping: home, paymentMethod: 'credit_card' })).json().order as {
        orderNo: string;
        total: number;
      };
      expect(
        await recordPaid(orderDeps(ctx.app), {
          merchantTradeNo: `${card.orderNo}P1`,
          amount: card.total,
          tradeNo: 'T0001',
          rtnCode: '1',
          rtnMsg: '交易成功',
        }),
      ).toBe('ok');
      const orderNo = card.orderNo;
      expect((await action(orderNo, { action: 'process' })).statusCode).toBe(200);
      expect((await action(orderNo, { action: 'ship-ecpay' })).statusCode).toBe(200);
      const [shipment] = await ctx.database.db
        .select()
        .from(shipments)
        .where(eq(shipments.merchantTradeNo, `${orderNo}L1`));
      expect(shipment).toMatchObject({ logisticsType: 'HOME', subType: 'TCAT', collectionAmount: 0 });
      expect(shipment!.bookingNote).toMatch(/^9\d{11}$/);
      const [sent] = await ctx.database.db
        .select()
        .from(sandboxLogisticsShipments)
        .where(eq(sandboxLogisticsShipments.logisticsId, shipment!.logisticsId));
      expect(sent!.fields).toMatchObject({
        ReceiverZipCode: '110',
        ReceiverAddress: '臺北市信義區松仁路 100 號',
        SenderZipCode: '558',
        Distance: '01',
      });
      expect((await eventsOf(orderNo)).find((e) => e.shipmentEvent === 'created')).toMatchObject({
        carrier: '黑貓宅急便',
        trackingNo: shipment!.bookingNote,
      });
    });

    it('a home parcel to an island declares Distance 02 (離島), by the same rule that charged the island surcharge', async () => {
      let n = 0;
      const shipTo = async (city: string, district: string) => {
        const email = `ship-island-${++n}@example.com`;
        const quote = (
          await (
            await shopper(ctx.app, email)
          ).call('POST', '/api/checkout/quote', {
            shippingMethod: 'home',
            city,
            district,
            paymentMethod: 'credit_card',
          })
        ).json();
        const { parcel } = await shippedHomeOrder(email, city, district);
        const [sent] = await ctx.database.db
          .select()
          .from(sandboxLogisticsShipments)
          .where(eq(sandboxLogisticsShipments.logisticsId, parcel.logisticsId));
        return { surcharge: quote.outlyingSurcharge as number, distance: sent!.fields.Distance };
      };
      // 澎湖 (like 金門 and 馬祖) and the main island's own islands (綠島) pay the surcharge and go as 02.
      expect(await shipTo('澎湖縣', '馬公市')).toEqual({ surcharge: 150, distance: '02' });
      expect(await shipTo('臺東縣', '綠島鄉')).toEqual({ surcharge: 150, distance: '02' });
      // On the main island: the sender's own county 00, any other 01.
      expect(await shipTo('南投縣', '竹山鎮')).toEqual({ surcharge: 0, distance: '00' });
      expect(await shipTo('臺東縣', '臺東市')).toEqual({ surcharge: 0, distance: '01' });
    });

    it('checkout refuses a receiver name the carriers would refuse, beside the field, and places nothing', async () => {
      const s = await shopper(ctx.app, 'ship-name-checkout@example.com');
      await s.add(variants['DD-S']!, 1);
      await s.pickStore('7-ELEVEN', '158703');
      const cvs = (recipientName: string) =>
        s.order({
          shipping: {
            method: 'cvs',
            recipientName,
            phone: '0912345678',
            cvsBrand: '7-ELEVEN',
            storeId: '158703',
          },
          paymentMethod: 'cod',
        });
      for (const name of ['歐陽小明 先生', '王小明先生啊', '王', 'Wang Xiao', 'Wang3', '林小嵐★']) {
        const res = await cvs(name);
        expect(res.statusCode, name).toBe(400);
        expect(res.json().error.fields, name).toEqual({
          'shipping.recipientName':
            '超商取件人姓名須為 2–5 個中文字或 4–10 個英文字母，不可含空白、稱謂或符號',
        });
      }
      // Home delivery goes through ECPay (黑貓) with the same ReceiverName rule.
      const home = await s.order({
        shipping: {
          method: 'home',
          recipientName: 'Wang Xiao Cha the Third',
          phone: '0912345678',
          city: '臺北市',
          district: '信義區',
          address: '松仁路 100 號',
        },
        paymentMethod: 'cod',
      });
      expect(home.statusCode).toBe(400);
      expect(home.json().error.fields).toEqual({
        'shipping.recipientName': '收件人姓名須為 2–5 個中文字或 4–10 個英文字母，不可含空白、稱謂或符號',
      });
      // The address book keeps the same rule for a pickup store.
      const saved = await s.call('POST', '/api/me/addresses', {
        kind: 'cvs',
        recipientName: '歐陽小明 先生',
        phone: '0912345678',
        cvsBrand: '7-ELEVEN',
        storeId: '158703',
      });
      expect(saved.statusCode).toBe(400);
      expect(saved.json().error.fields).toEqual({
        recipientName: '超商取件人姓名須為 2–5 個中文字或 4–10 個英文字母，不可含空白、稱謂或符號',
      });
      expect((await s.call('GET', '/api/orders')).json().items).toEqual([]);
      // Names the carriers take: 2–5 Chinese characters, 4–10 Latin letters.
      expect((await cvs('歐陽小明')).statusCode).toBe(201);
    });

    it('a receiver name the carriers refuse stops the shipment; staff correct it before shipping (audited, same rule) and ship', async () => {
      const order = await cvsOrder('ship-name@example.com');
      // An order placed before checkout checked the name.
      const [row] = await ctx.database.db.select().from(orders).where(eq(orders.orderNo, order.orderNo));
      await ctx.database.db
        .update(orders)
        .set({ shipping: { ...row!.shipping, recipientName: '歐陽小明 先生' } })
        .where(eq(orders.id, row!.id));
      const res = await action(order.orderNo, { action: 'ship-ecpay' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toContain('2–5 個中文字或 4–10 個英文字母');
      expect(
        (await ctx.database.db.select().from(orders).where(eq(orders.orderNo, order.orderNo)))[0]!.status,
      ).toBe('processing');

      const correct = (body: object, cookie = staffCookie) =>
        ctx.app.inject({
          method: 'PATCH',
          url: `/api/admin/orders/${order.orderNo}/recipient`,
          headers: { cookie, origin: ORIGIN },
          payload: body,
        });
      const bad = await correct({ recipientName: '歐陽小明 先生', phone: '0912345678' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields).toEqual({
        recipientName: '超商取件人姓名須為 2–5 個中文字或 4–10 個英文字母，不可含空白、稱謂或符號',
      });
      expect((await correct({ recipientName: '歐陽小明', phone: '0912' })).statusCode).toBe(400);
      const viewerCookie = (await signIn(ctx.app, 'ship-name-viewer@example.com')).cookie;
      await setRole(ctx.database, 'ship-name-viewer@example.com', 'viewer');
      expect(
        (await correct({ recipientName: '歐陽小明', phone: '0912345678' }, viewerCookie)).statusCode,
      ).toBe(403);
      expect(
        (await ctx.database.db.select().from(orders).where(eq(orders.orderNo, order.orderNo)))[0]!.shipping
          .recipientName,
      ).toBe('歐陽小明 先生');

      const fixed = await correct({ recipientName: '歐陽小明', phone: '0987-654-321' });
      expect(fixed.statusCode, fixed.body).toBe(200);
      expect(fixed.json().shipping).toMatchObject({ recipientName: '歐陽小明', phone: '0987654321' });
      const [audit] = await ctx.database.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.entityId, order.orderNo));
      expect(audit).toMatchObject({
        action: 'order.recipient',
        entity: 'order',
        before: { recipientName: '歐陽小明 先生', phone: '0912345678' },
        after: { recipientName: '歐陽小明', phone: '0987654321' },
      });
      expect((await action(order.orderNo, { action: 'ship-ecpay' })).statusCode).toBe(200);
      const [parcel] = await ctx.database.db
        .select()
        .from(shipments)
        .where(eq(shipments.merchantTradeNo, `${order.orderNo}L1`));
      const [sent] = await ctx.database.db
        .select()
        .from(sandboxLogisticsShipments)
        .where(eq(sandboxLogisticsShipments.logisticsId, parcel!.logisticsId));
      expect(sent!.fields).toMatchObject({ ReceiverName: '歐陽小明', ReceiverCellPhone: '0987654321' });
      // Once shipped, the parcel carries the name: it is no longer the shop's to change.
      const late = await correct({ recipientName: '王小明', phone: '0987654321' });
      expect(late.statusCode).toBe(409);
      expect(
        (await ctx.database.db.select().from(orders).where(eq(orders.orderNo, order.orderNo)))[0]!.shipping
          .recipientName,
      ).toBe('歐陽小明');
    });

    it('status notices move the parcel along once each: at the store (with a mail and the pickup deadline), then collected with the cash taken', async () => {
      const order = await cvsOrder('ship-notice@example.com');
      expect((await action(order.orderNo, { action: 'ship-ecpay' })).statusCode).toBe(200);
      const [o] = await ctx.database.db.select().from(orders).where(eq(orders.orderNo, order.orderNo));
      const [shipment] = await ctx.database.db.select().from(shipments).where(eq(shipments.orderId, o!.id));

      const arrived = await sandboxStep(shipment!.logisticsId, 'arrived_at_store');
      expect(arrived.statusCode).toBe(200);
      expect(arrived.body).toContain('1|OK');
      expect((await eventsOf(order.orderNo)).map((e) => e.shipmentEvent ?? e.status)).toContain(
        'arrived_at_store',
      );
      const mail = await latestMail(ctx.database, 'ship-notice@example.com', 'parcel-at-store');
      expect(mail.subject).toContain(`包裹已到店：${order.orderNo}`);
      expect(mail.text).toMatch(/請於 \d{4}\/\d{2}\/\d{2}（週.）前攜帶證件到門市取貨，並於取貨時付款 NT\$/);

      // The same notice again (ECPay retries until it reads 1|OK): answered, nothing added.
      const [sent] = await ctx.database.db
        .select()
        .from(sandboxLogisticsShipments)
        .where(eq(sandboxLogisticsShipments.logisticsId, shipment!.logisticsId));
      const notice = {
        MerchantID: '2000933',
        MerchantTradeNo: sent!.merchantTradeNo,
        RtnCode: '2073',
        RtnMsg: '包裹配達取件門市',
        AllPayLogisticsID: shipment!.logisticsId,
        LogisticsType: 'CVS',
        LogisticsSubType: 'UNIMARTC2C',
        GoodsAmount: String(order.total),
        UpdateStatusDate: '2026/11/26 10:00:00',
        ReceiverName: '王小茶',
        ReceiverPhone: '',
        ReceiverCellPhone: '0912345678',
        ReceiverEmail: '',
        ReceiverAddress: '',
        CVSPaymentNo: shipment!.cvsPaymentNo,
        CVSValidationNo: shipment!.cvsValidationNo,
        BookingNote: '',
      };
      const signed = { ...notice, CheckMacValue: checkMacValue(notice, C2C.hashKey, C2C.hashIV, 'md5') };
      expect((await notify(signed)).body).toBe('1|OK');
      const before = (await eventsOf(order.orderNo)).length;
      expect((await notify(signed)).body).toBe('1|OK');
      expect((await eventsOf(order.orderNo)).length).toBe(before);

      // Forged, for another merchant, malformed, or for a parcel we never sent: refused, nothing recorded.
      const notices = (await ctx.database.db.select().from(logisticsNotices)).length;
      expect((await notify({ ...signed, RtnCode: '2067' })).body).toBe('0|CheckMacValue Error');
      const other = { ...notice, MerchantID: '2000132' };
      expect(
        (await notify({ ...other, CheckMacValue: checkMacValue(other, C2C.hashKey, C2C.hashIV, 'md5') }))
          .body,
      ).toBe('0|CheckMacValue Error');
      const unknown = { ...notice, AllPayLogisticsID: '99999999' };
      expect(
        (await notify({ ...unknown, CheckMacValue: checkMacValue(unknown, C2C.hashKey, C2C.hashIV, 'md5') }))
          .body,
      ).toBe('0|AllPayLogisticsID not found');
      const junk = { ...notice, RtnCode: 'abc' };
      expect(
        (await notify({ ...junk, CheckMacValue: checkMacValue(junk, C2C.hashKey, C2C.hashIV, 'md5') })).body,
      ).toBe('0|Parameter Error');
      expect((await ctx.database.db.select().from(logisticsNotices)).length).toBe(notices);
      expect(
        (await ctx.database.db.select().from(orders).where(eq(orders.orderNo, order.orderNo)))[0]!.status,
      ).toBe('shipped');

      const collected = await sandboxStep(shipment!.logisticsId, 'collected');
      expect(collected.body).toContain('1|OK');
      const [after] = await ctx.database.db.select().from(orders).where(eq(orders.orderNo, order.orderNo));
      expect(after!.status).toBe('delivered');
      const delivered = (await eventsOf(order.orderNo)).find((e) => e.status === 'delivered');
      expect(delivered!.note).toBe(`買家已到店取貨，門市代收貨款 NT$${order.total.toLocaleString('en-US')}`);
      const [latest] = await ctx.database.db.select().from(shipments).where(eq(shipments.id, shipment!.id));
      expect(latest!.statusCode).toBe(2067);
    });

    it('a parcel not collected comes back: the order waits as 包裹退回 (buyer told), then staff reship it as a new parcel or refund it and the stock returns', async () => {
      const stockOf = async () =>
        (
          await ctx.database.db
            .select({ stock: productVariants.stock })
            .from(productVariants)
            .where(eq(productVariants.id, variants['DD-S']!))
        )[0]!.stock;
      const s = await shopper(ctx.app, 'ship-back@example.com');
      await s.add(variants['DD-S']!, 1);
      await s.pickStore('FAMILY', '018234');
      const placed = await s.order({
        shipping: {
          method: 'cvs',
          recipientName: '王小茶',
          phone: '0912345678',
          cvsBrand: 'FAMILY',
          storeId: '018234',
        },
        paymentMethod: 'cod',
      });
      const orderNo = placed.json().order.orderNo as string;
      expect((await action(orderNo, { action: 'ship-ecpay' })).statusCode).toBe(200);
      const afterSale = await stockOf();
      const parcel = async (n: number) =>
        (
          await ctx.database.db
            .select()
            .from(shipments)
            .where(eq(shipments.merchantTradeNo, `${orderNo}L${n}`))
        )[0]!;

      expect((await sandboxStep((await parcel(1)).logisticsId, 'not_collected')).body).toContain('1|OK');
      const status = async () =>
        (await ctx.database.db.select().from(orders).where(eq(orders.orderNo, orderNo)))[0]!.status;
      expect(await status()).toBe('returned');
      expect((await latestMail(ctx.database, 'ship-back@example.com', 'parcel-returned')).text).toContain(
        '沒有被收取任何費用',
      );
      // Back with the sender later: already 包裹退回, nothing more moves.
      expect((await sandboxStep((await parcel(1)).logisticsId, 'returned')).body).toContain('1|OK');
      expect(await status()).toBe('returned');
      expect(await stockOf()).toBe(afterSale);

      // Reship: back to 備貨中, and shipping again makes a second parcel.
      expect((await action(orderNo, { action: 'process' })).statusCode).toBe(200);
      expect((await action(orderNo, { action: 'ship-ecpay' })).statusCode).toBe(200);
      expect((await parcel(2)).logisticsId).not.toBe((await parcel(1)).logisticsId);
      expect(await stockOf()).toBe(afterSale);

      // Not collected again: this time staff cancel it (cash on delivery: nothing was paid) and the goods go back on the shelf.
      expect((await sandboxStep((await parcel(2)).logisticsId, 'not_collected')).body).toContain('1|OK');
      expect(await status()).toBe('returned');
      expect((await action(orderNo, { action: 'refund', reason: '未取件' })).statusCode).toBe(409);
      expect((await action(orderNo, { action: 'cancel', reason: '買家未取件，包裹退回' })).statusCode).toBe(
        200,
      );
      expect(await status()).toBe('cancelled');
      expect(await stockOf()).toBe(afterSale + 1);
    });

    it('a store that closes while the parcel travels: the buyer is mailed, picks another store of the chain on the map, and ECPay and the order get it', async () => {
      const order = await cvsOrder('ship-closed@example.com');
      expect((await action(order.orderNo, { action: 'ship-ecpay' })).statusCode).toBe(200);
      const [o] = await ctx.database.db.select().from(orders).where(eq(orders.orderNo, order.orderNo));
      const [parcel] = await ctx.database.db.select().from(shipments).where(eq(shipments.orderId, o!.id));
      const s = await shopper(ctx.app, 'ship-closed@example.com');
      const detail = async () => (await s.call('GET', `/api/orders/${order.orderNo}`)).json();
      expect((await detail()).needsNewStore).toBe(false);
      const early = (
        await s.call('POST', '/api/logistics/map', {
          brand: '7-ELEVEN',
          returnTo: 'order',
          orderNo: order.orderNo,
        })
      ).json() as { fields: Record<string, string> };
      expect(
        (
          await s.call('POST', `/api/orders/${order.orderNo}/pickup-store`, {
            token: early.fields.MerchantTradeNo,
          })
        ).statusCode,
      ).toBe(409);

      expect((await sandboxStep(parcel!.logisticsId, 'store_closed')).body).toContain('1|OK');
      expect((await detail()).needsNewStore).toBe(true);
      expect((await latestMail(ctx.database, 'ship-closed@example.com', 'store-closed')).subject).toContain(
        `請重新選擇取件門市：${order.orderNo}`,
      );

      // The map trip goes back to the order's page; another chain's store is refused.
      const other = (
        await s.call('POST', '/api/logistics/map', {
          brand: 'FAMILY',
          returnTo: 'order',
          orderNo: order.orderNo,
        })
      ).json();
      expect((await replyFromMap(ctx.app, other.fields, '018234')).headers.location).toBe(
        `/member/orderTracking/${order.orderNo}?cvsMap=${other.fields.MerchantTradeNo}`,
      );
      const wrongChain = await s.call('POST', `/api/orders/${order.orderNo}/pickup-store`, {
        token: other.fields.MerchantTradeNo,
      });
      expect(wrongChain.statusCode).toBe(400);
      expect(wrongChain.json().error.message).toContain('同一家超商（7-ELEVEN）');
      // Someone else's trip cannot be used.
      const stranger = await shopper(ctx.app, 'ship-stranger@example.com');
      const theirs = await stranger.openMap('7-ELEVEN', 'checkout');
      await replyFromMap(ctx.app, theirs.fields, '162415');
      expect(
        (
          await s.call('POST', `/api/orders/${order.orderNo}/pickup-store`, {
            token: theirs.fields.MerchantTradeNo,
          })
        ).statusCode,
      ).toBe(404);

      const mine = await s.openMap('7-ELEVEN', 'checkout');
      await replyFromMap(ctx.app, mine.fields, '162415');
      const changed = await s.call('POST', `/api/orders/${order.orderNo}/pickup-store`, {
        token: mine.fields.MerchantTradeNo,
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toMatchObject({
        needsNewStore: false,
        shipping: { store: '7-ELEVEN 竹山門市', storeId: '162415' },
      });
      const [sent] = await ctx.database.db
        .select()
        .from(sandboxLogisticsShipments)
        .where(eq(sandboxLogisticsShipments.logisticsId, parcel!.logisticsId));
      expect(sent!.fields.ReceiverStoreID).toBe('162415');
      expect((await eventsOf(order.orderNo)).at(-1)).toMatchObject({
        shipmentEvent: 'store_changed',
        note: '新取件門市：7-ELEVEN 竹山門市（南投縣竹山鎮集山路三段 268 號）',
      });
      expect(
        (
          await s.call('POST', `/api/orders/${order.orderNo}/pickup-store`, {
            token: mine.fields.MerchantTradeNo,
          })
        ).statusCode,
      ).toBe(409);
    });

    it('a home parcel refused, returned, or not collected at the store 黑貓 passed it to comes back as 包裹退回, the buyer mailed once', async () => {
      // 黑貓: 3117 拒收, 5004 一般單退回, 3123 逾期未取（門市刷退）.
      const cases: Array<[number, string]> = [
        [3117, '收件人拒收'],
        [5004, '包裹已退回'],
        [3123, '逾期未取'],
      ];
      for (const [i, [code, note]] of cases.entries()) {
        const email = `ship-home-back-${i}@example.com`;
        const { orderNo, parcel } = await shippedHomeOrder(email);
        expect((await statusNotice(parcel, code, '2026/11/27 10:00:00')).body).toBe('1|OK');
        expect(await statusOf(orderNo), String(code)).toBe('returned');
        expect((await eventsOf(orderNo)).at(-1)!.note, String(code)).toContain(note);
        const [mail] = await mailsOf(email, 'parcel-returned');
        expect(mail!.text, String(code)).toContain('宅配包裹未能送達');
        expect(mail!.text, String(code)).not.toContain('取貨期限');
      }
      // Refused, then back with the sender: still one mail; staff can ship it again as a second parcel.
      const { orderNo, parcel } = await shippedHomeOrder('ship-home-refused@example.com');
      expect((await statusNotice(parcel, 3117, '2026/11/27 10:00:00')).body).toBe('1|OK');
      expect((await statusNotice(parcel, 5008, '2026/11/28 10:00:00')).body).toBe('1|OK');
      expect(await mailsOf('ship-home-refused@example.com', 'parcel-returned')).toHaveLength(1);
      expect((await action(orderNo, { action: 'process' })).statusCode).toBe(200);
      expect((await action(orderNo, { action: 'ship-ecpay' })).statusCode).toBe(200);
      expect(
        await ctx.database.db
          .select()
          .from(shipments)
          .where(eq(shipments.merchantTradeNo, `${orderNo}L2`)),
      ).toHaveLength(1);
    });

    it('a store-number update (2102) is recorded and asks nothing of the buyer', async () => {
      const order = await cvsOrder('ship-renumbered@example.com');
      expect((await action(order.orderNo, { action: 'ship-ecpay' })).statusCode).toBe(200);
      const [parcel] = await ctx.database.db
        .select()
        .from(shipments)
        .where(eq(shipments.merchantTradeNo, `${order.orderNo}L1`));
      const before = (await eventsOf(order.orderNo)).length;
      expect((await statusNotice(parcel!, 2102, '2026/11/27 10:00:00', '門市舊店號更新')).body).toBe('1|OK');
      expect(
        await ctx.database.db
          .select()
          .from(logisticsNotices)
          .where(eq(logisticsNotices.logisticsId, parcel!.logisticsId)),
      ).toContainEqual(expect.objectContaining({ statusCode: 2102 }));
      expect(await statusOf(order.orderNo)).toBe('shipped');
      expect((await eventsOf(order.orderNo)).length).toBe(before);
      expect(
        (
          await (
            await shopper(ctx.app, 'ship-renumbered@example.com')
          ).call('GET', `/api/orders/${order.orderNo}`)
        ).json().needsNewStore,
      ).toBe(false);
      expect(await mailsOf('ship-renumbered@example.com', 'store-closed')).toEqual([]);
    });

    it('a notice for an earlier parcel of a re-shipped order is recorded but moves nothing and mails nobody', async () => {
      const s = await shopper(ctx.app, 'ship-late@example.com');
      await s.add(variants['DD-S']!, 1);
      await s.pickStore('7-ELEVEN', '158703');
      const orderNo = (
        await s.order({
          shipping: {
            method: 'cvs',
            recipientName: '王小茶',
            phone: '0912345678',
            cvsBrand: '7-ELEVEN',
            storeId: '158703',
          },
          paymentMethod: 'cod',
        })
      ).json().order.orderNo as string;
      expect((await action(orderNo, { action: 'ship-ecpay' })).statusCode).toBe(200);
      const parcel = async (n: number) =>
        (
          await ctx.database.db
            .select()
            .from(shipments)
            .where(eq(shipments.merchantTradeNo, `${orderNo}L${n}`))
        )[0]!;
      const l1 = await parcel(1);
      expect((await statusNotice(l1, 2074, '2026/11/20 10:00:00')).body).toBe('1|OK');
      expect(await statusOf(orderNo)).toBe('returned');
      expect((await action(orderNo, { action: 'process' })).statusCode).toBe(200);
      expect((await action(orderNo, { action: 'ship-ecpay' })).statusCode).toBe(200);
      const events = (await eventsOf(orderNo)).length;

      // L1 reaches the sender store days later, while L2 travels.
      expect((await statusNotice(l1, 2072, '2026/11/22 10:00:00')).body).toBe('1|OK');
      expect(
        await ctx.database.db
          .select()
          .from(logisticsNotices)
          .where(eq(logisticsNotices.logisticsId, l1.logisticsId)),
      ).toContainEqual(expect.objectContaining({ statusCode: 2072 }));
      expect(await statusOf(orderNo)).toBe('shipped');
      expect((await eventsOf(orderNo)).length).toBe(events);
      expect(await mailsOf('ship-late@example.com', 'parcel-returned')).toHaveLength(1);

      // L2 itself still moves the order.
      expect((await statusNotice(await parcel(2), 2073, '2026/11/23 10:00:00')).body).toBe('1|OK');
      expect((await eventsOf(orderNo)).at(-1)).toMatchObject({ shipmentEvent: 'arrived_at_store' });
    });

    it('the same step again with a later date, or ECPay’s 2098 re-delivery, is one event and one mail; an older notice moves nothing back', async () => {
      const order = await cvsOrder('ship-again@example.com');
      expect((await action(order.orderNo, { action: 'ship-ecpay' })).statusCode).toBe(200);
      const [parcel] = await ctx.database.db
        .select()
        .from(shipments)
        .where(eq(shipments.merchantTradeNo, `${order.orderNo}L1`));
      const steps = async () =>
        (await eventsOf(order.orderNo)).filter((e) => e.kind === 'shipment').map((e) => e.shipmentEvent);
      expect((await statusNotice(parcel!, 2068, '2026/11/25 09:00:00')).body).toBe('1|OK');
      expect((await statusNotice(parcel!, 2073, '2026/11/26 10:00:00')).body).toBe('1|OK');
      expect((await statusNotice(parcel!, 2073, '2026/11/27 10:00:00')).body).toBe('1|OK');
      expect((await statusNotice(parcel!, 2098, '2026/11/27 18:00:00')).body).toBe('1|OK');
      // Sent late: handed over at the store, before it reached the pickup store.
      expect((await statusNotice(parcel!, 2030, '2026/11/25 20:00:00')).body).toBe('1|OK');
      expect(await steps()).toEqual(['created', 'picked_up', 'arrived_at_store']);
      expect(await mailsOf('ship-again@example.com', 'parcel-at-store')).toHaveLength(1);
      // The parcel's status stays the newest one ECPay reported.
      expect(
        (await ctx.database.db.select().from(shipments).where(eq(shipments.id, parcel!.id)))[0]!.statusCode,
      ).toBe(2098);
      expect(
        await ctx.database.db
          .select()
          .from(logisticsNotices)
          .where(eq(logisticsNotices.logisticsId, parcel!.logisticsId)),
      ).toHaveLength(5);
    });
  },
);

describe.skipIf(!dbAvailable())('logistics orders made at payment (ECPAY_LOGISTICS_AUTO_CREATE)', () => {
  let ctx: TestContext;
  let variantId: string;
  beforeAll(async () => {
    ctx = await createTestApp({ ECPAY_LOGISTICS_AUTO_CREATE: '1' });
    await seedTestCatalog(ctx.database);
    variantId = (
      await ctx.database.db.select({ id: productVariants.id, sku: productVariants.sku }).from(productVariants)
    ).find((r) => r.sku === 'DD-S')!.id;
  });
  afterAll(async () => ctx.close());

  const parcelsOf = async (orderNo: string) => {
    const [o] = await ctx.database.db.select().from(orders).where(eq(orders.orderNo, orderNo));
    return ctx.database.db.select().from(shipments).where(eq(shipments.orderId, o!.id));
  };
  /** What `read` answers once `done` holds: the outbox works after the request has answered. */
  const eventually = async <T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const v = await read();
      if (done(v) || Date.now() > deadline) return v;
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('a card order gets its logistics order when paid (not before), and staff shipping uses that one', async () => {
    const s = await shopper(ctx.app, 'auto-card@example.com');
    await s.add(variantId, 1);
    await s.pickStore('7-ELEVEN', '158703');
    const order = (
      await s.order({
        shipping: {
          method: 'cvs',
          recipientName: '王小茶',
          phone: '0912345678',
          cvsBrand: '7-ELEVEN',
          storeId: '158703',
        },
        paymentMethod: 'credit_card',
      })
    ).json().order as { orderNo: string; total: number };
    expect(await parcelsOf(order.orderNo)).toEqual([]);
    expect(
      await recordPaid(orderDeps(ctx.app), {
        merchantTradeNo: `${order.orderNo}P1`,
        amount: order.total,
        tradeNo: 'T0002',
        rtnCode: '1',
        rtnMsg: '交易成功',
      }),
    ).toBe('ok');
    const made = await eventually(
      () => parcelsOf(order.orderNo),
      (p) => p.length > 0,
    );
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ collectionAmount: 0, subType: 'UNIMARTC2C' });
    // The order is still the shop's to pack: paid, not shipped.
    expect(
      (await ctx.database.db.select().from(orders).where(eq(orders.orderNo, order.orderNo)))[0]!.status,
    ).toBe('paid');

    const staffCookie = (await signIn(ctx.app, 'auto-staff@example.com')).cookie;
    await setRole(ctx.database, 'auto-staff@example.com', 'staff');
    const act = (body: object) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/admin/orders/${order.orderNo}/actions`,
        headers: { cookie: staffCookie, origin: ORIGIN },
        payload: body,
      });
    expect((await act({ action: 'process' })).statusCode).toBe(200);
    expect((await act({ action: 'ship-ecpay' })).statusCode).toBe(200);
    expect(await parcelsOf(order.orderNo)).toHaveLength(1);
  });

  it('a cash-on-delivery store order gets its logistics order, with the amount to collect, when placed', async () => {
    const s = await shopper(ctx.app, 'auto-cod@example.com');
    await s.add(variantId, 1);
    await s.pickStore('FAMILY', '018234');
    const order = (
      await s.order({
        shipping: {
          method: 'cvs',
          recipientName: '王小茶',
          phone: '0912345678',
          cvsBrand: 'FAMILY',
          storeId: '018234',
        },
        paymentMethod: 'cod',
      })
    ).json().order as { orderNo: string; total: number };
    const made = await eventually(
      () => parcelsOf(order.orderNo),
      (p) => p.length > 0,
    );
    expect(made[0]).toMatchObject({ subType: 'FAMIC2C', collectionAmount: order.total });
    // Made through the outbox, from the message the order's own transaction wrote.
    // The parcel is written before the message is marked sent: wait for that too.
    const [message] = await eventually(
      () =>
        ctx.database.db
          .select()
          .from(outboxMessages)
          .where(eq(outboxMessages.key, `logistics.prepare:${order.orderNo}`)),
      ([m]) => m?.status === 'sent',
    );
    expect(message).toMatchObject({ kind: 'logistics.prepare', status: 'sent' });
    // With its logistics order made, the buyer can no longer cancel it alone: the shop must call the parcel back.
    expect((await s.call('GET', `/api/orders/${order.orderNo}`)).json().canCancel).toBe(false);
    const refused = await s.call('POST', `/api/orders/${order.orderNo}/cancel`);
    expect(refused.json().error).toMatchObject({
      code: 'not-cancellable',
      message: '這筆訂單已建立物流單，無法自行取消，請與客服聯絡。',
    });
  });

  it('a logistics order ECPay would refuse is not tried again and again: it waits in 寄送狀態 with the reason, for staff to meet when they ship', async () => {
    const s = await shopper(ctx.app, 'auto-home-cod@example.com');
    await s.add(variantId, 1);
    // Cash on delivery to a door: the shop's carriers collect no money at the door.
    const order = (await s.order({ paymentMethod: 'cod' })).json().order as { orderNo: string };
    const message = await eventually(
      async () =>
        (
          await ctx.database.db
            .select()
            .from(outboxMessages)
            .where(eq(outboxMessages.key, `logistics.prepare:${order.orderNo}`))
        )[0],
      (m) => m?.status === 'failed',
    );
    expect(message).toMatchObject({ status: 'failed', attempts: 1 });
    expect(message?.lastError).toMatch(/貨到付款/);
    expect(await parcelsOf(order.orderNo)).toEqual([]);
  });
});
