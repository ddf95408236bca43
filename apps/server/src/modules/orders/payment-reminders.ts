import type { Db } from '../../db/client.ts';
import type { Mailer } from '../../plugins/mail.ts';
import { atmTransferReminderMail, cardPaymentReminderMail, type MailOrder } from './mails.ts';
import * as repo from './repo.ts';
import * as reminders from './reminders-repo.ts';

/**
 * The payment reminders (docs/product-rules.md#reminders; docs/decisions/041): one per unpaid card
 * order shortly before its hold ends, one per unpaid ATM order a day before its account closes.
 * Each order's reminder is claimed by a conditional update in the transaction that writes the mail
 * to the outbox, so a re-run or a second instance never sends it twice, and an order paid or
 * cancelled meanwhile is not claimed at all. The scheduled job runs these once across instances.
 */

export interface ReminderDeps {
  readonly db: Db;
  readonly mailer: Mailer;
  readonly publicUrl: string;
  readonly now?: () => Date;
}

const clockOf = (deps: ReminderDeps) => (deps.now ? deps.now() : new Date());

/** Claims and mails one order's reminder; true when this call claimed it. */
async function remind(
  deps: ReminderDeps,
  orderId: string,
  method: 'credit_card' | 'atm',
  windowMinutes: number,
): Promise<boolean> {
  const now = clockOf(deps);
  return deps.db.transaction(async (tx) => {
    const claimed = await reminders.claimPaymentReminder(tx, orderId, method, now, windowMinutes);
    if (!claimed) return false;
    // Order mail goes to the account's verified address only; without one the claim stands, unmailed.
    const owner = await repo.ownerOf(tx, claimed.user_id);
    if (!owner?.emailVerifiedAt) return true;
    const order: MailOrder = {
      orderNo: claimed.order_no,
      email: owner.email,
      name: owner.name,
      total: claimed.total,
      paymentMethod: method,
      items: (await repo.itemsOf(tx, claimed.id)).map((i) => ({
        productName: i.productName,
        variantLabel: i.variantLabel,
        quantity: i.quantity,
      })),
    };
    if (method === 'credit_card') {
      await deps.mailer.enqueue(
        tx,
        cardPaymentReminderMail(order, new Date(claimed.expires_at), deps.publicUrl),
        `card-payment-reminder:${claimed.id}`,
      );
    } else {
      const atm = await reminders.waitingAtmAccount(tx, claimed.id);
      if (!atm) return true;
      await deps.mailer.enqueue(
        tx,
        atmTransferReminderMail(order, atm, deps.publicUrl),
        `atm-transfer-reminder:${claimed.id}`,
      );
    }
    return true;
  });
}

async function remindAll(
  deps: ReminderDeps,
  ids: readonly string[],
  method: 'credit_card' | 'atm',
  windowMinutes: number,
): Promise<number> {
  let sent = 0;
  for (const id of ids) if (await remind(deps, id, method, windowMinutes)) sent += 1;
  if (sent > 0) deps.mailer.flush();
  return sent;
}

/** Card orders whose hold ends within `leadMinutes`; how many reminders were claimed. Off: none. */
export async function sendCardPaymentReminders(
  deps: ReminderDeps,
  settings: { readonly enabled: boolean; readonly leadMinutes: number },
): Promise<number> {
  if (!settings.enabled) return 0;
  const ids = await reminders.cardReminderCandidates(deps.db, clockOf(deps), settings.leadMinutes);
  return remindAll(deps, ids, 'credit_card', settings.leadMinutes);
}

/** ATM orders whose account closes within a day; how many reminders were claimed. Off: none. */
export async function sendAtmTransferReminders(
  deps: ReminderDeps,
  settings: { readonly enabled: boolean },
): Promise<number> {
  if (!settings.enabled) return 0;
  const ids = await reminders.atmReminderCandidates(deps.db, clockOf(deps));
  return remindAll(deps, ids, 'atm', reminders.ATM_REMINDER_HOURS * 60);
}
