import { taipeiParts } from '@shop/shared/taipei-time';
import { invoiceAwardMail } from './mails.ts';
import * as repo from './repo.ts';
import type { InvoiceDeps } from './invoice-deps.ts';

/**
 * Winning invoices (統一發票中獎). The Ministry of Finance draws each two-month period on the 25th
 * of the following odd month; ECPay's GetIssue then reports IIS_Award_Flag and IIS_Award_Type for
 * an invoice. After each draw the shop asks for every invoice of the period it still knows
 * nothing about, records what ECPay says, and mails the winners whose invoice sits in the ECPay
 * member carrier: for that carrier the seller must tell the winner and print the winning
 * invoice's 證明聯 if asked. Mobile-barcode and citizen-certificate winners are told and paid by
 * the Ministry itself; donated invoices go to the charity; company invoices are not in the draw.
 */

/** IIS_Award_Type: the prize and its amount in TWD. Codes 11 and 12 exist in SDKs without a documented meaning. */
export const PRIZES: Readonly<Record<string, { name: string; amount: number }>> = {
  '8': { name: '特別獎', amount: 10_000_000 },
  '7': { name: '特獎', amount: 2_000_000 },
  '1': { name: '頭獎', amount: 200_000 },
  '2': { name: '二獎', amount: 40_000 },
  '3': { name: '三獎', amount: 10_000 },
  '4': { name: '四獎', amount: 4_000 },
  '5': { name: '五獎', amount: 1_000 },
  '6': { name: '六獎', amount: 200 },
  '10': { name: '雲端發票專屬百萬元獎', amount: 1_000_000 },
  '9': { name: '雲端發票專屬二千元獎', amount: 2_000 },
};

export const prizeOf = (type: string): { name: string; amount: number | null } =>
  PRIZES[type] ?? { name: `中獎（獎別 ${type || '未知'}）`, amount: null };

export interface Period {
  /** First month (odd) of the two-month period, and its year. */
  readonly year: number;
  readonly month: number;
  /** The draw: 25th of the month after the period, 00:00 Taipei. */
  readonly draw: Date;
  /** Prizes are claimed from the 6th of the month after the draw for three months (to the 5th). */
  readonly claimFrom: string;
  readonly claimUntil: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** Year and month `n` months after (year, month). */
function addMonths(year: number, month: number, n: number): { y: number; m: number } {
  const total = year * 12 + (month - 1) + n;
  return { y: Math.floor(total / 12), m: (total % 12) + 1 };
}

export function periodOf(year: number, month: number): Period {
  const first = month % 2 === 1 ? month : month - 1;
  const draw = addMonths(year, first, 2);
  const from = addMonths(year, first, 3);
  const until = addMonths(year, first, 6);
  return {
    year,
    month: first,
    draw: new Date(`${draw.y}-${pad(draw.m)}-25T00:00:00+08:00`),
    claimFrom: `${from.y}-${pad(from.m)}-06`,
    claimUntil: `${until.y}-${pad(until.m)}-05`,
  };
}

/** 115年1-2月期: the period as the Ministry names it (ROC year). */
export const periodLabel = (p: Pick<Period, 'year' | 'month'>) =>
  `${p.year - 1911}年${p.month}-${p.month + 1}月期`;

/** ECPay is asked from the day after the draw (the 26th, Taipei), until the claim period ends. */
const ASK_AFTER_DRAW_MS = 24 * 3600_000;

/** The periods already drawn whose prizes can still be claimed at `now` (at most two). */
export function periodsToCheck(now: Date): Period[] {
  const t = taipeiParts(now);
  const today = `${t.year}-${t.month}-${t.day}`;
  const found: Period[] = [];
  for (let back = 2; back <= 8; back += 1) {
    const { y, m } = addMonths(Number(t.year), Number(t.month), -back);
    const p = periodOf(y, m);
    if (found.some((f) => f.year === p.year && f.month === p.month)) continue;
    if (now.getTime() >= p.draw.getTime() + ASK_AFTER_DRAW_MS && today <= p.claimUntil) found.push(p);
  }
  return found;
}

/** Invoices asked about per run; the rest wait for the next run (every six hours). */
const BATCH = 500;

/**
 * The job after each draw: asks ECPay about every issued invoice of the drawn periods whose result
 * is not known yet, records it, and mails the ECPay-member-carrier winners (once: the mail is written
 * with the first record of the win). Returns how many winners it found.
 */
export async function checkInvoiceAwards(deps: InvoiceDeps): Promise<number> {
  const now = deps.now ? deps.now() : new Date();
  let winners = 0;
  for (const period of periodsToCheck(now)) {
    const next = addMonths(period.year, period.month, 2);
    const open = await repo.unawardedIssued(
      deps.db,
      `${period.year}-${pad(period.month)}-01`,
      `${next.y}-${pad(next.m)}-01`,
      BATCH,
    );
    for (const invoice of open) {
      const found = await deps.client.getIssue({
        invoiceNo: invoice.invoiceNo,
        invoiceDate: invoice.invoiceDate,
      });
      // Not drawn yet, or ECPay away: asked again next run.
      if (!found.ok || found.value.awardFlag === '') continue;
      const { awardFlag, awardType } = found.value;
      const subject =
        awardFlag === '1' && invoice.issuedTo.type === 'member'
          ? await deps.subject(deps.db, invoice.orderId)
          : null;
      await deps.db.transaction(async (tx) => {
        const marked = await repo.markAward(tx, invoice.id, {
          awardFlag,
          awardType: awardFlag === '1' ? awardType : null,
          awardCheckedAt: now,
        });
        if (!marked || awardFlag !== '1') return;
        winners += 1;
        if (subject)
          await deps.mailer.enqueue(
            tx,
            invoiceAwardMail(
              {
                orderNo: subject.orderNo,
                email: subject.buyer.email,
                name: subject.buyer.name,
                invoiceNo: invoice.invoiceNo,
                period,
                prize: prizeOf(awardType),
              },
              deps.publicUrl,
            ),
          );
      });
    }
  }
  deps.mailer.flush();
  return winners;
}
