import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CVS_MAP_RETURNS,
  CvsMapForm,
  CvsMapFormBody,
  CvsMapToken,
  CvsStoreChoice,
  LogisticsOptions,
  cvsBrandsFor,
} from '@shop/shared/logistics';
import { escapeHtml } from '../../lib/sandbox-page.ts';
import { safeFields } from '../../lib/log-redaction.ts';
import { enforceLimit } from '../../plugins/rate-limiter.ts';
import { acceptForms, formOf, formPoster } from '../../lib/form-post.ts';
import { PREPARE_PARCEL } from '../orders/lifecycle.ts';
import { recordParcelProgress } from '../orders/parcel-progress.ts';
import { parcelToPrepare } from '../orders/read-models.ts';
import { orderDeps, shipmentDeps } from '../orders/deps.ts';
import {
  MAP_REPLY_PATH,
  mapChoice,
  recordMapReply,
  startMapTrip,
  type MapDeps,
  type MapReplyRefusal,
} from './map.ts';
import { receiveNotice, receiveStoreNotice, type NoticeDeps } from './notices.ts';
import { NOTICE_PATH, STORE_NOTICE_PATH, shipParcel } from './shipments.ts';
import { PermanentDeliveryError } from '../../plugins/outbox.ts';
import { AppError } from '../../lib/errors.ts';

const REFUSAL_TEXTS: Readonly<Record<MapReplyRefusal, string>> = {
  malformed: '我們無法辨識這次的門市選擇，門市沒有變更。請回到原頁面重新選擇門市。',
  unknown: '我們無法辨識這次的門市選擇，門市沒有變更。請回到原頁面重新選擇門市。',
  expired: '這次的門市選擇已超過 30 分鐘，為了保護您的資料，請回到原頁面重新選擇門市。您填寫的資料都還在。',
  used: '這次的門市選擇已經完成，不能再次送出。若要換一間門市，請回到原頁面重新選擇門市。',
  'no-store': '物流業者的門市資料裡找不到這間門市，門市沒有變更。請回到原頁面選擇其他門市。',
  unavailable: '暫時無法向物流業者確認這間門市，門市沒有變更。請稍後回到原頁面重新選擇門市。',
};

/** The page a refused map reply lands on: what happened, and the way back. */
function refusalPage(reason: MapReplyRefusal, returnTo: string | null): string {
  const back = returnTo ?? CVS_MAP_RETURNS.checkout;
  const label =
    back === CVS_MAP_RETURNS['address-book']
      ? '回到會員中心'
      : back.startsWith(CVS_MAP_RETURNS.order)
        ? '回到訂單'
        : '回到結帳頁';
  const text = REFUSAL_TEXTS[reason];
  return `<!doctype html><html lang="zh-Hant-TW"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>請重新選擇門市｜山嵐茶事</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"><style>
body{margin:0;background:#f7f4ee;color:#2b2a26;font-family:"PingFang TC","Noto Sans TC",sans-serif;line-height:1.8}
main{max-width:520px;margin:12vh auto;padding:0 20px}h1{font-size:22px;margin:0 0 8px}
a{display:inline-flex;align-items:center;min-height:44px;margin-top:16px;padding:0 20px;border-radius:8px;background:#3f6b4f;color:#fff;text-decoration:none}
</style></head><body><main><h1>請重新選擇門市</h1><p>${escapeHtml(text)}</p><a href="${escapeHtml(back)}">${label}</a></main></body></html>`;
}

/**
 * Store pickup: which chains this shop ships to, the trip to the store map (form, reply, choice).
 * Orders and the address book accept only a store a map has named (docs/decisions/013).
 */
const logistics: FastifyPluginAsync = async (app) => {
  acceptForms(app, 16 * 1024);
  // Logistics orders made ahead of shipping (ECPAY_LOGISTICS_AUTO_CREATE), from the outbox. A
  // refusal is for staff to meet when they ship; a lost connection is tried again.
  app.outbox.handle(PREPARE_PARCEL, async (payload) => {
    const parcel = await parcelToPrepare(app.db, String(payload.orderId));
    if (!parcel) return;
    try {
      await shipParcel(shipmentDeps(app), parcel);
    } catch (error) {
      if (error instanceof AppError && error.statusCode < 500)
        throw new PermanentDeliveryError(error.message);
      throw error;
    }
  });
  const deps = (): MapDeps => ({
    db: app.db,
    settings: app.config.logistics,
    publicUrl: app.config.publicUrl,
  });
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/logistics/options',
    { schema: { response: { 200: LogisticsOptions } } },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return { brands: cvsBrandsFor(app.config.logistics.type) };
    },
  );

  r.post(
    '/api/logistics/map',
    { onRequest: app.requireUser, schema: { body: CvsMapFormBody, response: { 200: CvsMapForm } } },
    async (request, reply) => {
      await enforceLimit(app.limiter, `cvs-map:user:${request.auth!.user.id}`, {
        max: 30,
        windowMs: 10 * 60_000,
      });
      reply.header('cache-control', 'no-store');
      return startMapTrip(deps(), request.auth!.user.id, request.body);
    },
  );

  r.get(
    '/api/logistics/map/:token',
    {
      onRequest: app.requireUser,
      schema: { params: z.object({ token: CvsMapToken }), response: { 200: CvsStoreChoice } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return mapChoice(deps(), request.auth!.user.id, request.params.token);
    },
  );

  // ECPay's status notices for our shipments, server to server. 1|OK for a notice taken (or one
  // already taken: a replay changes nothing); 0|… for a forged, malformed or unknown one.
  const noticeDeps = (): NoticeDeps => ({
    db: app.db,
    settings: app.config.logistics,
    onStep: async (orderId, step, shipment, record) =>
      recordParcelProgress(orderDeps(app), orderId, step, shipment.collectionAmount, record),
  });
  const noticeRoute = (path: string, receive: typeof receiveNotice, logged: readonly string[]) =>
    app.post(path, async (request, reply) => {
      reply.type('text/plain; charset=utf-8').header('cache-control', 'no-store');
      const form = formOf(request);
      const outcome = await receive(noticeDeps(), form);
      if (outcome === 'ok' || outcome === 'replay') return '1|OK';
      request.log.warn({ outcome, path, notice: safeFields(form, logged) }, 'logistics notice refused');
      return outcome === 'unknown-shipment'
        ? '0|AllPayLogisticsID not found'
        : outcome === 'forged'
          ? '0|CheckMacValue Error'
          : '0|Parameter Error';
    });
  noticeRoute(NOTICE_PATH, receiveNotice, [
    'MerchantID',
    'MerchantTradeNo',
    'AllPayLogisticsID',
    'RtnCode',
    'UpdateStatusDate',
  ]);
  // Store-to-store parcels' store changes (LogisticsC2CReplyURL).
  noticeRoute(STORE_NOTICE_PATH, receiveStoreNotice, [
    'MerchantID',
    'AllPayLogisticsID',
    'StoreType',
    'Status',
    'StoreID',
  ]);

  // The map sends the chosen store here through the shopper's browser: cross-site, without the
  // session cookie and without a signature. The token is what ties it to a trip.
  app.post(MAP_REPLY_PATH, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const form = formOf(request);
    const outcome = await recordMapReply({ ...deps(), post: formPoster(app, app.config.publicUrl) }, form);
    if (outcome.ok) return reply.code(303).header('location', outcome.location).send();
    request.log.warn(
      {
        reason: outcome.reason,
        reply: safeFields(form, [
          'MerchantID',
          'MerchantTradeNo',
          'LogisticsSubType',
          'CVSStoreID',
          'CVSOutSide',
        ]),
      },
      'store map reply refused',
    );
    return reply
      .code(400)
      .type('text/html; charset=utf-8')
      .send(refusalPage(outcome.reason, outcome.returnTo));
  });
};

export default logistics;
