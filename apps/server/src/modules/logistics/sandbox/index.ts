import { randomInt } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { desc, eq } from 'drizzle-orm';
import { formatTwd } from '@shop/shared/money';
import { sandboxLogisticsShipments } from '../../../db/schema.ts';
import { checkMacValue, verifyCheckMacValue } from '../../../lib/ecpay-check-mac.ts';
import { ecpayDate } from '../../../lib/ecpay-date.ts';
import { acceptForms, formOf, formPoster } from '../../../lib/form-post.ts';
import { escapeHtml, hiddenFields, sandboxPage, sendPage } from '../../../lib/sandbox-page.ts';
import { isLogisticsName } from '@shop/shared/checkout';
import {
  CVS_MAX_AMOUNT,
  LABEL_PATHS,
  labelPath,
  logisticsSubType,
  SANDBOX_LOGISTICS_PATH,
} from '../ecpay.ts';
import { codeFor, STEP_MESSAGES, type ParcelStep } from '../status-codes.ts';
import { CVS_BRAND_LABELS, DEMO_STORES, demoStoreLocator, sandboxMapReply, type CvsBrand } from './stores.ts';

type Form = Record<string, string>;

/** Which chain a LogisticsSubType is (B2C and C2C alike). */
const BRAND_OF_SUBTYPE: Readonly<Record<string, CvsBrand>> = {
  UNIMART: '7-ELEVEN',
  UNIMARTFREEZE: '7-ELEVEN',
  UNIMARTC2C: '7-ELEVEN',
  FAMI: 'FAMILY',
  FAMIC2C: 'FAMILY',
  HILIFE: 'HILIFE',
  HILIFEC2C: 'HILIFE',
  OKMARTC2C: 'OK',
};

const MAP_RESULTS = 30;

/**
 * A logistics gateway that speaks ECPay's logistics protocol, for running the shop without ECPay.
 * The store map (POST /Express/map) lists a chain's stores (a fixed, made-up list), searchable by
 * name or address, in a phone layout for Device 1; choosing one posts the store to ServerReplyURL
 * through the browser, with the fields and values ECPay's map sends. Registered only outside
 * production and only without ECPAY_LOGISTICS_ENDPOINT.
 */
const logisticsSandbox: FastifyPluginAsync = async (app) => {
  if (app.config.isProduction) throw new Error('the sandbox logistics gateway must never run in production');
  const { merchantId, hashKey, hashIV, type } = app.config.logistics;
  if (!app.config.isTest)
    app.log.info(
      `logistics: no ECPAY_LOGISTICS_ENDPOINT, so store maps and shipments use the built-in sandbox (${app.config.publicUrl}${SANDBOX_LOGISTICS_PATH})`,
    );
  acceptForms(app, 64 * 1024);
  const locator = demoStoreLocator();
  const html = sendPage;
  const refuse = (reply: FastifyReply, message: string) =>
    html(
      reply,
      400,
      sandboxPage({
        gateway: '物流',
        title: '無法開啟電子地圖',
        body: `<h1>無法開啟電子地圖</h1><p>${escapeHtml(message)}</p>`,
      }),
    );

  app.post(`${SANDBOX_LOGISTICS_PATH}/Express/map`, async (request, reply) => {
    // `q` is the sandbox's own search box, posted back with the map's fields.
    const { q = '', ...form } = formOf(request);
    // ECPay reads the map request without checking its signature; a signature sent must be right.
    if (form.CheckMacValue && !verifyCheckMacValue(form, hashKey, hashIV, 'md5'))
      return refuse(reply, 'CheckMacValue 驗證失敗：送來的資料不完整或被竄改。');
    if (form.MerchantID !== merchantId) return refuse(reply, '商店代號（MerchantID）不正確。');
    const brand = BRAND_OF_SUBTYPE[form.LogisticsSubType ?? ''];
    if (form.LogisticsType !== 'CVS' || !brand)
      return refuse(reply, '物流類型（LogisticsType、LogisticsSubType）不正確。');
    if (logisticsSubType(type, brand) !== form.LogisticsSubType)
      return refuse(reply, `這個商店的物流合約（${type}）不能使用 ${form.LogisticsSubType}。`);
    let replyUrl: URL;
    try {
      replyUrl = new URL(form.ServerReplyURL ?? '');
      if (replyUrl.protocol !== 'https:' && replyUrl.protocol !== 'http:') throw new Error('not http');
    } catch {
      return refuse(reply, '回傳網址（ServerReplyURL）不正確。');
    }

    const query = q.trim().slice(0, 40);
    const stores = await locator.search(brand, query, MAP_RESULTS);
    const mobile = form.Device === '1';
    const label = CVS_BRAND_LABELS[brand];
    const rows = stores
      .map(
        (
          s,
        ) => `<li><div class="store"><div><strong>${escapeHtml(s.name)}${s.outlying ? '<span class="tag">離島</span>' : ''}</strong>
<span class="muted">店號 ${escapeHtml(s.id)}・${escapeHtml(s.address)}・${escapeHtml(s.phone)}</span></div>
<form method="post" action="${escapeHtml(replyUrl.href)}">${hiddenFields(sandboxMapReply(form, s))}<button type="submit" aria-label="選擇 ${escapeHtml(s.name)}">選擇此門市</button></form></div></li>`,
      )
      .join('');
    const body = `<h1>${escapeHtml(label)} 電子地圖${mobile ? '（手機版）' : ''}</h1>
<form method="post" action="${SANDBOX_LOGISTICS_PATH}/Express/map" role="search" class="row">${hiddenFields(form)}
<label for="q" class="muted" style="width:100%">以門市名稱、縣市或路名搜尋</label><input id="q" name="q" type="search" value="${escapeHtml(query)}" placeholder="例如：鹿谷、臺北、中正路"><button type="submit">搜尋</button></form>
${stores.length ? `<ul class="stores" aria-label="門市列表">${rows}</ul>` : `<p>找不到符合「${escapeHtml(query)}」的${escapeHtml(label)}門市，請換個關鍵字。</p>`}`;
    return html(
      reply,
      200,
      sandboxPage({ gateway: '物流', title: `${label} 電子地圖`, body, wide: !mobile, mobile }),
    );
  });

  // ── the store list (/Helper/GetStoreList): what the shop trusts a map's store id against ───────

  const LIST_TYPES: Readonly<Record<string, CvsBrand>> = {
    UNIMART: '7-ELEVEN',
    FAMI: 'FAMILY',
    HILIFE: 'HILIFE',
    OKMART: 'OK',
  };
  app.post(`${SANDBOX_LOGISTICS_PATH}/Helper/GetStoreList`, async (request, reply) => {
    reply.type('application/json; charset=utf-8').header('cache-control', 'no-store');
    const form = formOf(request);
    if (!form.CheckMacValue || !verifyCheckMacValue(form, hashKey, hashIV, 'md5'))
      return { RtnCode: 0, RtnMsg: 'CheckMacValue Error', StoreList: [] };
    if (form.MerchantID !== merchantId) return { RtnCode: 0, RtnMsg: 'MerchantID Error', StoreList: [] };
    const types =
      form.CvsType === 'All'
        ? Object.keys(LIST_TYPES)
        : Object.keys(LIST_TYPES).filter((t) => t === form.CvsType);
    if (types.length === 0) return { RtnCode: 0, RtnMsg: 'CvsType Error', StoreList: [] };
    return {
      RtnCode: 1,
      RtnMsg: '成功',
      StoreList: types.map((t) => ({
        CvsType: t,
        StoreInfo: DEMO_STORES.filter((st) => st.brand === LIST_TYPES[t]).map((st) => ({
          StoreId: st.id,
          StoreName: st.name,
          StoreAddr: st.address,
          StorePhone: st.phone,
        })),
      })),
    };
  });

  // ── shipments: /Express/Create, and a page that moves parcels along ────────────────────────────

  const sign = (fields: Form): Form => ({
    ...fields,
    CheckMacValue: checkMacValue(fields, hashKey, hashIV, 'md5'),
  });
  const digits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');
  const post = formPoster(app, app.config.publicUrl);

  /** Why ECPay would refuse this logistics order, as its `0|message`; null when it takes it. */
  async function createRefusal(form: Form): Promise<string | null> {
    if (!form.CheckMacValue || !verifyCheckMacValue(form, hashKey, hashIV, 'md5'))
      return 'CheckMacValue Error';
    if (form.MerchantID !== merchantId) return 'MerchantID Error';
    if (!/^[A-Za-z0-9]{1,20}$/.test(form.MerchantTradeNo ?? '')) return 'MerchantTradeNo Error';
    const [dup] = await app.db
      .select()
      .from(sandboxLogisticsShipments)
      .where(eq(sandboxLogisticsShipments.merchantTradeNo, form.MerchantTradeNo!))
      .limit(1);
    if (dup) return '廠商交易編號重複';
    const brand = BRAND_OF_SUBTYPE[form.LogisticsSubType ?? ''];
    if (form.LogisticsType === 'CVS') {
      if (!brand || logisticsSubType(type, brand) !== form.LogisticsSubType) return 'LogisticsSubType Error';
      if (!DEMO_STORES.some((st) => st.brand === brand && st.id === form.ReceiverStoreID))
        return '收件門市代號錯誤';
      const amount = Number(form.GoodsAmount);
      if (!Number.isInteger(amount) || amount < 1 || amount > CVS_MAX_AMOUNT) return '商品金額錯誤';
      if (form.IsCollection === 'Y' && form.CollectionAmount !== form.GoodsAmount) return '代收金額錯誤';
    } else if (form.LogisticsType === 'HOME') {
      if (form.LogisticsSubType !== 'TCAT' && form.LogisticsSubType !== 'POST')
        return 'LogisticsSubType Error';
      if (!/^\d{3,6}$/.test(form.ReceiverZipCode ?? '') || (form.ReceiverAddress ?? '').length < 6)
        return '收件人地址錯誤';
    } else {
      return 'LogisticsType Error';
    }
    if (!isLogisticsName(form.ReceiverName ?? '')) return '收件人姓名錯誤';
    if (!/^09\d{8}$/.test(form.ReceiverCellPhone ?? '')) return '收件人手機錯誤';
    if (!isLogisticsName(form.SenderName ?? '') && (form.SenderName ?? '').length > 10)
      return '寄件人姓名錯誤';
    try {
      new URL(form.ServerReplyURL ?? '');
    } catch {
      return 'ServerReplyURL Error';
    }
    return null;
  }

  /** The shipment's fields as ECPay reports them (the Create answer and every status notice). */
  const report = (form: Form, logisticsId: string, code: number, message: string, at: Date): Form => ({
    MerchantID: merchantId,
    MerchantTradeNo: form.MerchantTradeNo ?? '',
    RtnCode: String(code),
    RtnMsg: message,
    AllPayLogisticsID: logisticsId,
    LogisticsType: form.LogisticsType ?? '',
    LogisticsSubType: form.LogisticsSubType ?? '',
    GoodsAmount: form.GoodsAmount ?? '',
    UpdateStatusDate: ecpayDate(at),
    ReceiverName: form.ReceiverName ?? '',
    ReceiverPhone: form.ReceiverPhone ?? '',
    ReceiverCellPhone: form.ReceiverCellPhone ?? '',
    ReceiverEmail: form.ReceiverEmail ?? '',
    ReceiverAddress: form.ReceiverAddress ?? '',
    CVSPaymentNo: form.CVSPaymentNo ?? '',
    CVSValidationNo: form.CVSValidationNo ?? '',
    BookingNote: form.BookingNote ?? '',
  });

  app.post(`${SANDBOX_LOGISTICS_PATH}/Express/Create`, async (request, reply) => {
    reply.type('text/plain; charset=utf-8').header('cache-control', 'no-store');
    const form = formOf(request);
    const problem = await createRefusal(form);
    if (problem) return `0|${problem}`;
    const logisticsId = `${Date.now() % 1_000_000}${digits(4)}`;
    const kept: Form = { ...form };
    delete kept.CheckMacValue;
    if (form.LogisticsType === 'CVS') {
      // 7-ELEVEN's store-to-store number is 8 characters plus a 4-digit validation code.
      kept.CVSPaymentNo = form.LogisticsSubType === 'UNIMARTC2C' ? `F${digits(7)}` : digits(11);
      kept.CVSValidationNo = form.LogisticsSubType === 'UNIMARTC2C' ? digits(4) : '';
    } else {
      kept.BookingNote = `9${digits(11)}`;
    }
    await app.db
      .insert(sandboxLogisticsShipments)
      .values({ logisticsId, merchantTradeNo: form.MerchantTradeNo!, fields: kept, statusCode: 300 });
    return `1|${new URLSearchParams(sign(report(kept, logisticsId, 300, '訂單處理中', new Date()))).toString()}`;
  });

  const STEPS: ReadonlyArray<readonly [ParcelStep, string]> = [
    ['handed_over', '寄件（交給物流）'],
    ['arrived_at_store', '到店'],
    ['collected', '已取貨／已送達'],
    ['not_collected', '未取件，退回中'],
    ['refused', '拒收，退回中'],
    ['returned', '已退回寄件人'],
    ['store_closed', '門市關轉'],
  ];

  app.get(`${SANDBOX_LOGISTICS_PATH}/parcels`, async (_request, reply) => {
    const parcels = await app.db
      .select()
      .from(sandboxLogisticsShipments)
      .orderBy(desc(sandboxLogisticsShipments.createdAt))
      .limit(50);
    const rows = parcels
      .map((p) => {
        const f = p.fields;
        const store =
          f.LogisticsType === 'CVS'
            ? (DEMO_STORES.find((st) => st.id === f.ReceiverStoreID)?.name ?? f.ReceiverStoreID ?? '')
            : (f.ReceiverAddress ?? '');
        const buttons = STEPS.filter(([step]) => codeFor(f.LogisticsSubType ?? '', step) !== null)
          .map(
            ([step, label]) =>
              `<form method="post" action="${SANDBOX_LOGISTICS_PATH}/parcels/${escapeHtml(p.logisticsId)}/${step}"><button type="submit" class="secondary" style="color:#1f5fa8;border-color:#1f5fa8">${escapeHtml(label)}</button></form>`,
          )
          .join('');
        return `<li><div><strong>${escapeHtml(f.MerchantTradeNo ?? '')}</strong>・物流編號 ${escapeHtml(p.logisticsId)}・${escapeHtml(f.LogisticsSubType ?? '')}・狀態 ${p.statusCode}</div>
<div class="muted">${escapeHtml(f.ReceiverName ?? '')}・${escapeHtml(store)}・${escapeHtml(formatTwd(Number(f.GoodsAmount)))}${f.IsCollection === 'Y' ? '（取貨付款）' : ''}</div><div class="row">${buttons}</div></li>`;
      })
      .join('');
    return html(
      reply,
      200,
      sandboxPage({
        gateway: '物流',
        title: '模擬貨態',
        wide: true,
        body: `<h1>模擬貨態</h1><p class="muted">每個按鈕都會以綠界的格式，送出有簽章的貨態通知給商店。</p>${rows ? `<ul class="stores" aria-label="物流單">${rows}</ul>` : '<p>目前沒有物流單。</p>'}`,
      }),
    );
  });

  app.post(`${SANDBOX_LOGISTICS_PATH}/parcels/:logisticsId/:step`, async (request, reply) => {
    const { logisticsId, step } = request.params as { logisticsId: string; step: string };
    const [parcel] = await app.db
      .select()
      .from(sandboxLogisticsShipments)
      .where(eq(sandboxLogisticsShipments.logisticsId, logisticsId))
      .limit(1);
    const known = STEPS.find(([s]) => s === step)?.[0];
    const code = parcel && known ? codeFor(parcel.fields.LogisticsSubType ?? '', known) : null;
    if (!parcel || !known || code === null)
      return html(
        reply,
        404,
        sandboxPage({
          gateway: '物流',
          title: '找不到',
          body: `<h1>找不到這張物流單或貨態</h1><p><a href="${SANDBOX_LOGISTICS_PATH}/parcels">回列表</a></p>`,
        }),
      );
    const notice = sign(report(parcel.fields, logisticsId, code, STEP_MESSAGES[known], new Date()));
    let answer: string;
    try {
      answer = (await post(parcel.fields.ServerReplyURL ?? '', notice)).trim();
    } catch {
      answer = '（商店沒有回應）';
    }
    if (answer === '1|OK')
      await app.db
        .update(sandboxLogisticsShipments)
        .set({ statusCode: code })
        .where(eq(sandboxLogisticsShipments.logisticsId, logisticsId));
    return html(
      reply,
      200,
      sandboxPage({
        gateway: '物流',
        title: '已送出貨態',
        body: `<h1>已送出貨態 ${code}（${escapeHtml(STEP_MESSAGES[known])}）</h1><p>商店回應：<strong>${escapeHtml(answer)}</strong></p><p><a href="${SANDBOX_LOGISTICS_PATH}/parcels">回列表</a></p>`,
      }),
    );
  });

  // ── labels: ECPay's print pages, one label per parcel of the form ───────────────────────────────

  const LABEL_STYLE = `<style>.label{border:2px solid #1c2430;border-radius:8px;padding:16px;margin:0 0 16px;page-break-after:always;break-after:page}
.label h2{font-size:18px;margin:0 0 8px}.code{font-family:monospace;font-size:26px;letter-spacing:3px;border:1px dashed #1c2430;padding:8px 12px;display:inline-block;margin:6px 0}
.bars{height:44px;margin:6px 0;background:repeating-linear-gradient(90deg,#1c2430 0 2px,transparent 2px 4px,#1c2430 4px 7px,transparent 7px 9px)}
@media print{body{background:#fff}.test,.noprint{display:none}main{margin:0;max-width:none}.card{border:0;padding:0}}</style>`;

  for (const path of LABEL_PATHS) {
    app.post(`${SANDBOX_LOGISTICS_PATH}${path}`, async (request, reply) => {
      const form = formOf(request);
      const refuse400 = (message: string) =>
        html(
          reply,
          400,
          sandboxPage({
            gateway: '物流',
            title: '無法列印',
            body: `<h1>無法列印寄件單</h1><p>${escapeHtml(message)}</p>`,
          }),
        );
      if (!form.CheckMacValue || !verifyCheckMacValue(form, hashKey, hashIV, 'md5'))
        return refuse400('CheckMacValue 驗證失敗。');
      if (form.MerchantID !== merchantId) return refuse400('商店代號（MerchantID）不正確。');
      const ids = (form.AllPayLogisticsID ?? '').split(',').filter(Boolean);
      const payNos = (form.CVSPaymentNo ?? '').split(',');
      const checkNos = (form.CVSValidationNo ?? '').split(',');
      if (ids.length === 0 || ids.length > 50) return refuse400('物流編號（AllPayLogisticsID）不正確。');
      const labels: string[] = [];
      for (const [i, id] of ids.entries()) {
        const [parcel] = await app.db
          .select()
          .from(sandboxLogisticsShipments)
          .where(eq(sandboxLogisticsShipments.logisticsId, id))
          .limit(1);
        if (!parcel) return refuse400(`找不到物流編號 ${id}。`);
        const f = parcel.fields;
        const expected = labelPath(f.LogisticsSubType ?? '');
        if (expected.path !== path) return refuse400(`物流編號 ${id} 不是這種寄件單。`);
        if (expected.fields.includes('CVSPaymentNo') && payNos[i] !== f.CVSPaymentNo)
          return refuse400(`物流編號 ${id} 的寄件編號不符。`);
        if (expected.fields.includes('CVSValidationNo') && checkNos[i] !== f.CVSValidationNo)
          return refuse400(`物流編號 ${id} 的驗證碼不符。`);
        const brand = BRAND_OF_SUBTYPE[f.LogisticsSubType ?? ''];
        const store =
          f.LogisticsType === 'CVS'
            ? DEMO_STORES.find((st) => st.brand === brand && st.id === f.ReceiverStoreID)
            : undefined;
        const code =
          f.LogisticsType === 'CVS'
            ? `${f.CVSPaymentNo ?? ''}${f.CVSValidationNo ?? ''}`
            : (f.BookingNote ?? id);
        labels.push(`<section class="label" aria-label="寄件單 ${escapeHtml(code)}"><h2>${escapeHtml(brand ? `${CVS_BRAND_LABELS[brand]} ${f.LogisticsSubType?.endsWith('C2C') ? '店到店寄件單' : '大宗寄倉託運單'}` : '黑貓宅急便託運單')}</h2>
<div class="bars" aria-hidden="true"></div><div class="code">${escapeHtml(code)}</div>
<dl><dt>收件人</dt><dd>${escapeHtml(f.ReceiverName ?? '')}（${escapeHtml((f.ReceiverCellPhone ?? '').replace(/^(\d{4})\d{3}/, '$1***'))}）</dd>
${store ? `<dt>取件門市</dt><dd>${escapeHtml(store.name)}（店號 ${escapeHtml(store.id)}）<br>${escapeHtml(store.address)}</dd>` : `<dt>收件地址</dt><dd>${escapeHtml(f.ReceiverZipCode ?? '')} ${escapeHtml(f.ReceiverAddress ?? '')}</dd>`}
<dt>代收金額</dt><dd>${f.IsCollection === 'Y' ? escapeHtml(formatTwd(Number(f.CollectionAmount))) : '不需付款'}</dd>
<dt>寄件人</dt><dd>${escapeHtml(f.SenderName ?? '')}</dd><dt>訂單</dt><dd>${escapeHtml(f.MerchantTradeNo ?? '')}</dd></dl></section>`);
      }
      const body = `${LABEL_STYLE}<h1 class="noprint">寄件單（${labels.length} 張）</h1><p class="noprint muted">請用瀏覽器的列印功能印出，每張寄件單一頁。</p>${labels.join('')}`;
      return html(reply, 200, sandboxPage({ gateway: '物流', title: `寄件單（${labels.length} 張）`, body }));
    });
  }

  // ── a new pickup store for a parcel (store to store: /Express/UpdateStoreInfo) ─────────────────

  app.post(`${SANDBOX_LOGISTICS_PATH}/Express/UpdateStoreInfo`, async (request, reply) => {
    reply.type('text/plain; charset=utf-8').header('cache-control', 'no-store');
    const form = formOf(request);
    if (!form.CheckMacValue || !verifyCheckMacValue(form, hashKey, hashIV, 'md5'))
      return '0|CheckMacValue Error';
    if (form.MerchantID !== merchantId) return '0|MerchantID Error';
    const [parcel] = await app.db
      .select()
      .from(sandboxLogisticsShipments)
      .where(eq(sandboxLogisticsShipments.logisticsId, form.AllPayLogisticsID ?? ''))
      .limit(1);
    if (
      !parcel ||
      parcel.fields.CVSPaymentNo !== form.CVSPaymentNo ||
      (parcel.fields.CVSValidationNo ?? '') !== (form.CVSValidationNo ?? '')
    )
      return '0|查無此物流訂單';
    if (form.StoreType !== '01') return '0|StoreType Error';
    const brand = BRAND_OF_SUBTYPE[parcel.fields.LogisticsSubType ?? ''];
    if (!DEMO_STORES.some((st) => st.brand === brand && st.id === form.ReceiverStoreID))
      return '0|收件門市代號錯誤';
    await app.db
      .update(sandboxLogisticsShipments)
      .set({ fields: { ...parcel.fields, ReceiverStoreID: form.ReceiverStoreID! } })
      .where(eq(sandboxLogisticsShipments.logisticsId, parcel.logisticsId));
    return '1|OK';
  });
};

export default logisticsSandbox;
