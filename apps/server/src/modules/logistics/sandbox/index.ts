import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { verifyCheckMacValue } from '../../../lib/ecpay-check-mac.ts';
import { escapeHtml, hiddenFields, sandboxPage } from '../../../lib/sandbox-page.ts';
import { parseForm } from '../../payments/index.ts';
import { logisticsSubType, SANDBOX_LOGISTICS_PATH } from '../ecpay.ts';
import { CVS_BRAND_LABELS, demoStoreLocator, sandboxMapReply, type CvsBrand } from './stores.ts';

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
  if (!app.config.isTest) app.log.info(`logistics: no ECPAY_LOGISTICS_ENDPOINT, so store maps and shipments use the built-in sandbox (${app.config.publicUrl}${SANDBOX_LOGISTICS_PATH})`);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => done(null, parseForm(String(body))));
  const locator = demoStoreLocator();
  const html = (reply: FastifyReply, status: number, content: string) => reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(content);
  const refuse = (reply: FastifyReply, message: string) => html(reply, 400, sandboxPage({ gateway: '物流', title: '無法開啟電子地圖', body: `<h1>無法開啟電子地圖</h1><p>${escapeHtml(message)}</p>` }));

  app.post(`${SANDBOX_LOGISTICS_PATH}/Express/map`, async (request, reply) => {
    // `q` is the sandbox's own search box, posted back with the map's fields.
    const { q = '', ...form } = (request.body && typeof request.body === 'object' ? request.body : {}) as Form;
    // ECPay reads the map request without checking its signature; a signature sent must be right.
    if (form.CheckMacValue && !verifyCheckMacValue(form, hashKey, hashIV, 'md5')) return refuse(reply, 'CheckMacValue 驗證失敗：送來的資料不完整或被竄改。');
    if (form.MerchantID !== merchantId) return refuse(reply, '商店代號（MerchantID）不正確。');
    const brand = BRAND_OF_SUBTYPE[form.LogisticsSubType ?? ''];
    if (form.LogisticsType !== 'CVS' || !brand) return refuse(reply, '物流類型（LogisticsType、LogisticsSubType）不正確。');
    if (logisticsSubType(type, brand) !== form.LogisticsSubType) return refuse(reply, `這個商店的物流合約（${type}）不能使用 ${form.LogisticsSubType}。`);
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
        (s) => `<li><div class="store"><div><strong>${escapeHtml(s.name)}${s.outlying ? '<span class="tag">離島</span>' : ''}</strong>
<span class="muted">店號 ${escapeHtml(s.id)}・${escapeHtml(s.address)}・${escapeHtml(s.phone)}</span></div>
<form method="post" action="${escapeHtml(replyUrl.href)}">${hiddenFields(sandboxMapReply(form, s))}<button type="submit" aria-label="選擇 ${escapeHtml(s.name)}">選擇此門市</button></form></div></li>`,
      )
      .join('');
    const body = `<h1>${escapeHtml(label)} 電子地圖${mobile ? '（手機版）' : ''}</h1>
<form method="post" action="${SANDBOX_LOGISTICS_PATH}/Express/map" role="search" class="row">${hiddenFields(form)}
<label for="q" class="muted" style="width:100%">以門市名稱、縣市或路名搜尋</label><input id="q" name="q" type="search" value="${escapeHtml(query)}" placeholder="例如：鹿谷、臺北、中正路"><button type="submit">搜尋</button></form>
${stores.length ? `<ul class="stores" aria-label="門市列表">${rows}</ul>` : `<p>找不到符合「${escapeHtml(query)}」的${escapeHtml(label)}門市，請換個關鍵字。</p>`}`;
    return html(reply, 200, sandboxPage({ gateway: '物流', title: `${label} 電子地圖`, body, wide: !mobile, mobile }));
  });
};

export default logisticsSandbox;
