import type { Db, Tx } from '../../db/client.ts';
import { verifyCheckMacValue } from '../../lib/ecpay-check-mac.ts';
import type { LogisticsSettings } from './ecpay.ts';
import * as repo from './shipments-repo.ts';
import { parcelStep, type ParcelStep } from './status-codes.ts';

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
  readonly onStep: (orderId: string, step: ParcelStep, shipment: repo.ShipmentRow, record: (tx: Tx) => Promise<void>) => Promise<boolean>;
}

export type NoticeOutcome = 'ok' | 'replay' | 'forged' | 'unknown-shipment' | 'malformed';

export async function receiveNotice(deps: NoticeDeps, form: Record<string, string>): Promise<NoticeOutcome> {
  if (!form.CheckMacValue || !verifyCheckMacValue(form, deps.settings.hashKey, deps.settings.hashIV, 'md5') || form.MerchantID !== deps.settings.merchantId) return 'forged';
  const code = Number(form.RtnCode);
  const logisticsId = form.AllPayLogisticsID ?? '';
  if (!Number.isInteger(code) || code <= 0 || !/^[A-Za-z0-9]{1,20}$/.test(logisticsId) || (form.UpdateStatusDate ?? '').length > 20) return 'malformed';
  const shipment = await repo.byLogisticsId(deps.db, logisticsId);
  if (!shipment) return 'unknown-shipment';
  const notice = { logisticsId, statusCode: code, statusDate: form.UpdateStatusDate ?? '', message: (form.RtnMsg ?? '').slice(0, 200) };
  if (await repo.noticeSeen(deps.db, notice)) return 'replay';
  const now = deps.now ? deps.now() : new Date();
  const record = async (tx: Tx) => {
    // The same notice landing twice at once: the second finds the first's row and undoes itself.
    if (!(await repo.recordNotice(tx, notice))) throw new Replay();
    await repo.setStatus(tx, shipment.id, code, notice.message, now);
  };
  const step = parcelStep(code);
  try {
    const moved = step ? await deps.onStep(shipment.orderId, step, shipment, record) : false;
    if (!moved) await deps.db.transaction(record);
  } catch (error) {
    if (error instanceof Replay) return 'replay';
    throw error;
  }
  return 'ok';
}

class Replay extends Error {}
