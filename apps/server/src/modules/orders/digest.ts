import { formatTwd } from '@shop/shared/money';
import { taipeiDay, taipeiHour } from '@shop/shared/taipei-time';
import type { DbOrTx } from '../../db/client.ts';
import { renderMail } from '../../lib/mail-layout.ts';
import { mailKey, type Mailer } from '../../plugins/mail.ts';
import { outboxStatus } from '../../plugins/outbox.ts';
import { notificationSettings } from '../site/admin-service.ts';
import * as repo from './repo.ts';

/** The digest goes out from this hour (Taipei) on, about the day before. */
export const DIGEST_HOUR = 8;

export interface DigestDeps {
  readonly db: DbOrTx;
  readonly mailer: Mailer;
  readonly publicUrl: string;
  readonly shopNotifyEmail: string;
}

/**
 * The shop's morning mail about yesterday (Taipei): sales paid and what they are worth (the money
 * words of db/money-rules.ts), cash-on-delivery orders placed, what waits to be shipped, and deliveries that failed. Written to the outbox with
 * the day as its key, so however many instances run this, and however often, it is sent once.
 * False when it is not yet time, or the owner switched it off.
 */
export async function enqueueDailyDigest(deps: DigestDeps, now: Date = new Date()): Promise<boolean> {
  if (taipeiHour(now) < DIGEST_HOUR) return false;
  const today = taipeiDay(now);
  const yesterday = taipeiDay(new Date(now.getTime() - 86_400_000));
  const key = `shop-digest:${yesterday}`;
  // Looked at every 20 minutes: once today's is written, nothing more is counted.
  if ((await outboxStatus(deps.db, mailKey(key))) !== null) return true;
  if (!(await notificationSettings(deps.db)).dailyDigest) return false;
  const from = `${yesterday}T00:00:00+08:00`;
  const to = `${today}T00:00:00+08:00`;
  const figures = await repo.digestFigures(deps.db, from, to);
  const n = (v: string | number | null | undefined) => Number(v ?? 0);
  const url = `${deps.publicUrl}/admin/orders`;
  const message = {
    to: deps.shopNotifyEmail,
    ...renderMail({
      title: `每日摘要：${yesterday}`,
      paragraphs: [
        `昨天（${yesterday}）完成付款的訂單 ${n(figures?.paid)} 筆，共 ${formatTwd(n(figures?.paid_total))}（貨到付款以送達收款計，已扣除退款）。`,
        `貨到付款新訂單 ${n(figures?.cod)} 筆，共 ${formatTwd(n(figures?.cod_total))}。`,
        `目前待出貨（已付款與備貨中）${n(figures?.to_ship)} 筆。`,
        n(figures?.failed) > 0
          ? `有 ${n(figures?.failed)} 則通知或綠界呼叫寄送失敗，請到後台「寄送狀態」處理。`
          : '所有通知都已順利送出。',
      ],
      action: { label: '到後台處理訂單', url },
    }),
    meta: { link: url, kind: 'shop-daily-digest' },
  };
  await deps.mailer.enqueue(deps.db, message, key);
  deps.mailer.flush();
  return true;
}
