import { sql } from 'drizzle-orm';
import { formatTwd } from '@shop/shared/money';
import { taipeiDay, taipeiHour } from '@shop/shared/taipei-time';
import type { DbOrTx } from '../../db/client.ts';
import { rows } from '../../db/rows.ts';
import { renderMail } from '../../lib/mail-layout.ts';
import { mailKey, type Mailer } from '../../plugins/mail.ts';
import { outboxStatus } from '../../plugins/outbox.ts';
import { notificationSettings } from '../site/admin-service.ts';

/** The digest goes out from this hour (Taipei) on, about the day before. */
export const DIGEST_HOUR = 8;

export interface DigestDeps {
  readonly db: DbOrTx;
  readonly mailer: Mailer;
  readonly publicUrl: string;
  readonly shopNotifyEmail: string;
}

/**
 * The shop's morning mail about yesterday (Taipei): orders paid and their total, cash-on-delivery
 * orders placed, what waits to be shipped, and deliveries that failed. Written to the outbox with
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
  const [figures] = rows<{
    paid: string | number;
    paid_total: string | number | null;
    cod: string | number;
    cod_total: string | number | null;
    to_ship: string | number;
    failed: string | number;
  }>(
    await deps.db.execute(sql`select
      (select count(*) from orders where paid_at >= ${from}::timestamptz and paid_at < ${to}::timestamptz) as paid,
      (select sum(total) from orders where paid_at >= ${from}::timestamptz and paid_at < ${to}::timestamptz) as paid_total,
      (select count(*) from orders where payment_method = 'cod' and created_at >= ${from}::timestamptz and created_at < ${to}::timestamptz) as cod,
      (select sum(total) from orders where payment_method = 'cod' and created_at >= ${from}::timestamptz and created_at < ${to}::timestamptz) as cod_total,
      (select count(*) from orders where status in ('paid', 'processing')) as to_ship,
      (select count(*) from outbox_messages where status = 'failed') as failed`),
  );
  const n = (v: string | number | null | undefined) => Number(v ?? 0);
  const url = `${deps.publicUrl}/admin/orders`;
  const message = {
    to: deps.shopNotifyEmail,
    ...renderMail({
      title: `每日摘要：${yesterday}`,
      paragraphs: [
        `昨天（${yesterday}）完成付款的訂單 ${n(figures?.paid)} 筆，共 ${formatTwd(n(figures?.paid_total))}。`,
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
