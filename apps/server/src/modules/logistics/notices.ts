import type { Db, Tx } from '../../db/client.ts';
import { verifyCheckMacValue } from '../../lib/ecpay-check-mac.ts';
import type { LogisticsSettings } from './ecpay.ts';
import * as repo from './shipments-repo.ts';
import { codeFor, parcelStep, type ParcelStep } from './status-codes.ts';

/**
 * ECPay's status notices (ServerReplyURL): signed with MD5, one row per notice so a replay changes
 * nothing, the shipment's latest status kept, and the parcel's step handed to the order (through
 * the order's one door, in the same transaction as the notice's row).
 */

export interface NoticeDeps {
  readonly db: Db;
  readonly settings: LogisticsSettings;
  readonly now?: () => Date;
  /**
   * Moves the order for a parcel step; runs `record` inside the order's transaction and answers
   * true when it did, false when the step changes nothing on the order (then the notice is
   * recorded on its own).
   */
  readonly onStep: (
    orderId: string,
    step: ParcelStep,
    shipment: repo.ShipmentRow,
    record: (tx: Tx) => Promise<void>,
  ) => Promise<boolean>;
}

export type NoticeOutcome = 'ok' | 'replay' | 'forged' | 'unknown-shipment' | 'malformed';

/** Signed with this merchant's logistics keys (MD5), and for this merchant. */
const signed = (deps: NoticeDeps, form: Record<string, string>) =>
  Boolean(form.CheckMacValue) &&
  verifyCheckMacValue(form, deps.settings.hashKey, deps.settings.hashIV, 'md5') &&
  form.MerchantID === deps.settings.merchantId;

const LOGISTICS_ID = /^[A-Za-z0-9]{1,20}$/;

class Replay extends Error {}

/** ECPay's UpdateStatusDate (yyyy/MM/dd HH:mm:ss, zero-padded): such dates compare as strings. */
const STATUS_DATE = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/;

/**
 * Takes a notice once: its row and the shipment's latest status, in the order's transaction when
 * the step moves the order, on their own otherwise. A notice seen before changes nothing.
 *
 * Only the order's current parcel moves the order: a word on an earlier parcel (not collected,
 * then shipped again as a new one) is kept as that parcel's history. ECPay sends notices in batches
 * and retries them for days, so one dated before a notice already taken for the parcel arrives
 * late: it is kept, but the parcel's status and the order stay as the newer one left them.
 */
async function take(
  deps: NoticeDeps,
  shipment: repo.ShipmentRow,
  notice: { logisticsId: string; statusCode: number; statusDate: string; message: string },
  step: ParcelStep | null,
): Promise<NoticeOutcome> {
  if (await repo.noticeSeen(deps.db, notice)) return 'replay';
  const now = deps.now ? deps.now() : new Date();
  const current = (await repo.latestForOrder(deps.db, shipment.orderId))?.id === shipment.id;
  const late =
    STATUS_DATE.test(notice.statusDate) &&
    (await repo.noticeDates(deps.db, notice.logisticsId)).some(
      (d) => STATUS_DATE.test(d) && d > notice.statusDate,
    );
  const record = async (tx: Tx) => {
    // The same notice landing twice at once: the second finds the first's row and undoes itself.
    if (!(await repo.recordNotice(tx, notice))) throw new Replay();
    if (!late) await repo.setStatus(tx, shipment.id, notice.statusCode, notice.message, now);
  };
  try {
    const moved =
      step && current && !late ? await deps.onStep(shipment.orderId, step, shipment, record) : false;
    if (!moved) await deps.db.transaction(record);
  } catch (error) {
    if (error instanceof Replay) return 'replay';
    throw error;
  }
  return 'ok';
}

export async function receiveNotice(deps: NoticeDeps, form: Record<string, string>): Promise<NoticeOutcome> {
  if (!signed(deps, form)) return 'forged';
  const code = Number(form.RtnCode);
  const logisticsId = form.AllPayLogisticsID ?? '';
  if (
    !Number.isInteger(code) ||
    code <= 0 ||
    !LOGISTICS_ID.test(logisticsId) ||
    (form.UpdateStatusDate ?? '').length > 20
  )
    return 'malformed';
  const shipment = await repo.byLogisticsId(deps.db, logisticsId);
  if (!shipment) return 'unknown-shipment';
  return take(
    deps,
    shipment,
    {
      logisticsId,
      statusCode: code,
      statusDate: form.UpdateStatusDate ?? '',
      message: (form.RtnMsg ?? '').slice(0, 200),
    },
    parcelStep(code),
  );
}

/**
 * ECPay's store-change notice for store-to-store parcels (LogisticsC2CReplyURL): the pickup store
 * (StoreType 01) closed (Status 01) or closed for a while (04). Signed like status notices; recorded
 * once, as the chain's store-closed status, and handed to the order as that step.
 */
export async function receiveStoreNotice(
  deps: NoticeDeps,
  form: Record<string, string>,
): Promise<NoticeOutcome> {
  if (!signed(deps, form)) return 'forged';
  const logisticsId = form.AllPayLogisticsID ?? '';
  if (
    !LOGISTICS_ID.test(logisticsId) ||
    !/^0\d$/.test(form.StoreType ?? '') ||
    !/^0\d$/.test(form.Status ?? '')
  )
    return 'malformed';
  const shipment = await repo.byLogisticsId(deps.db, logisticsId);
  if (!shipment) return 'unknown-shipment';
  const closed = form.StoreType === '01' && (form.Status === '01' || form.Status === '04');
  const code = closed ? (codeFor(shipment.subType, 'store_closed') ?? 2104) : 2105;
  // The notice names no time: one row per (parcel, kind of change, store it names).
  const notice = {
    logisticsId,
    statusCode: code,
    statusDate: `${form.StoreType}${form.Status}:${(form.StoreID ?? '').slice(0, 12)}`,
    message: closed ? '取件門市關轉，請重新選擇門市' : '門市資訊更新',
  };
  return take(deps, shipment, notice, closed ? 'store_closed' : null);
}
