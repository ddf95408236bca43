import { formatTwd } from '@shop/shared/money';
import type { Db } from '../../db/client.ts';
import { renderMail } from '../../lib/mail-layout.ts';
import type { MailMessage, Mailer } from '../../plugins/mail.ts';
import { marketingMailHeaders, marketingMailMembers, unsubscribeUrl } from '../membership/consent.ts';
import * as repo from './abandoned-repo.ts';
import { getCart } from './service.ts';

/**
 * The abandoned-cart reminder (docs/product-rules.md#reminders; docs/decisions/041): a marketing
 * mail, so only to members who agreed to marketing mail, with one-click unsubscribe (RFC 8058).
 * One per cart until a line is added or changed again: claimed in the transaction that writes the
 * mail to the outbox, so re-runs and other instances never send it twice.
 */

export interface AbandonedCartDeps {
  readonly db: Db;
  readonly mailer: Mailer;
  readonly publicUrl: string;
  /** Signs the unsubscribe link (MAIL_LINK_SECRET). */
  readonly mailLinkSecret: string;
  readonly now?: () => Date;
}

export function abandonedCartMail(
  member: { email: string; name: string },
  lines: ReadonlyArray<{ name: string; variantLabel: string; quantity: number; lineTotal: number }>,
  links: { publicUrl: string; unsubscribeUrl: string; headers: Record<string, string> },
): MailMessage {
  const cartUrl = `${links.publicUrl}/cart`;
  const listed = lines.map(
    (l) =>
      `${l.name}${l.variantLabel && l.variantLabel !== '標準' ? `（${l.variantLabel}）` : ''} ×\u00a0${l.quantity}\u3000${formatTwd(l.lineTotal)}`,
  );
  return {
    to: member.email,
    ...renderMail({
      title: '您的購物車還留著這些茶',
      greeting: `${member.name} 您好：`,
      paragraphs: [
        '您先前放進購物車的茶還在，隨時可以接著結帳：',
        listed.join('\n'),
        '購物車不會替您保留庫存，季節茶與限量茶可能會先售完。想帶回家的話，請{action}回到購物車。',
      ],
      action: { label: '回到購物車', url: cartUrl },
      notes: ['價格與庫存以結帳時為準。'],
      unsubscribeUrl: links.unsubscribeUrl,
    }),
    headers: links.headers,
    meta: { link: cartUrl, kind: 'abandoned-cart' },
  };
}

/** Mails the carts idle for `delayHours`, to consenting members; how many reminders were claimed. Off: none. */
export async function sendAbandonedCartReminders(
  deps: AbandonedCartDeps,
  settings: { readonly enabled: boolean; readonly delayHours: number },
): Promise<number> {
  if (!settings.enabled) return 0;
  const now = deps.now ? deps.now() : new Date();
  const idle = await repo.idleCarts(deps.db, now, settings.delayHours);
  const consenting = await marketingMailMembers(
    deps.db,
    idle.map((c) => c.userId),
  );
  let sent = 0;
  for (const cart of idle.filter((c) => consenting.has(c.userId))) {
    const claimed = await deps.db.transaction(async (tx) => {
      // Asked again inside the claim's transaction: consent withdrawn a moment ago wins.
      if (!(await marketingMailMembers(tx, [cart.userId])).has(cart.userId)) return false;
      if (!(await repo.claimCartReminder(tx, cart.userId, now, settings.delayHours))) return false;
      const lines = (await getCart(tx, cart.userId)).lines.filter((l) => l.problem === null);
      // Nothing in it can be bought any more: claimed (this cart is done), nothing to say.
      if (lines.length === 0) return true;
      await deps.mailer.enqueue(
        tx,
        abandonedCartMail(cart, lines, {
          publicUrl: deps.publicUrl,
          unsubscribeUrl: unsubscribeUrl(deps.publicUrl, deps.mailLinkSecret, cart.userId),
          headers: marketingMailHeaders(deps.publicUrl, deps.mailLinkSecret, cart.userId),
        }),
      );
      return true;
    });
    if (claimed) sent += 1;
  }
  if (sent > 0) deps.mailer.flush();
  return sent;
}
