import { variantLabel } from '@shop/shared/catalog-constants';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { ConflictError, NotFoundError } from '../../lib/errors.ts';
import { renderMail } from '../../lib/mail-layout.ts';
import type { MailMessage } from '../../plugins/mail.ts';
import { enqueueOutbox } from '../../plugins/outbox.ts';
import * as repo from './restock-repo.ts';

/**
 * 貨到通知 (docs/product-rules.md#restock-notices): a member asks to be told when a sold-out variant
 * is back. When its stock goes from none to some, in that same transaction, every waiting request
 * is claimed and gets one notice through the outbox; the notice becomes a mail once it is
 * delivered (the mail needs the shop's address, which the outbox handler knows).
 */

/** How many variants one member may wait for at once. */
export const RESTOCK_WAITING_MAX = 100;

/** The outbox kind of a claimed request, turned into its mail by restock-plugin.ts. */
export const RESTOCK_NOTICE = 'restock-notice';

export async function requestRestock(db: DbOrTx, userId: string, variantId: string): Promise<void> {
  const variant = await repo.variantForRequest(db, variantId);
  if (!variant || variant.archived || variant.status !== 'active')
    throw new NotFoundError('找不到這個規格，可能已經下架。');
  if (variant.stock > 0) throw new ConflictError('這個規格現在有貨，可以直接加入購物車。', 'in-stock');
  if ((await repo.waitingCountFor(db, userId)) >= RESTOCK_WAITING_MAX)
    throw new ConflictError(`貨到通知最多 ${RESTOCK_WAITING_MAX} 項，請先取消一些再登記。`);
  await repo.upsertRequest(db, userId, variantId);
}

export async function cancelRestock(db: DbOrTx, userId: string, variantId: string): Promise<void> {
  await repo.deleteRequest(db, userId, variantId);
}

export function waitingVariantIds(db: DbOrTx, userId: string): Promise<string[]> {
  return repo.waitingVariantIds(db, userId);
}

/** Members waiting per variant (the console's product page). */
export function waitingPerVariant(db: DbOrTx, variantIds: readonly string[]): Promise<Map<string, number>> {
  return repo.waitingPerVariant(db, variantIds);
}

export interface RestockNotice {
  to: string;
  displayName: string;
  productName: string;
  productSlug: string;
  variantLabel: string;
}

/** Called by the stock service when a variant's stock goes from none to some, inside that change. */
export async function noticeRestocked(tx: Tx, variantId: string): Promise<number> {
  const claimed = await repo.claimWaiting(tx, variantId);
  await enqueueOutbox(
    tx,
    claimed.map((c) => ({
      kind: RESTOCK_NOTICE,
      // One notice per request: waiting again after a notice is a new request (a new time).
      key: `${RESTOCK_NOTICE}:${c.user_id}:${variantId}:${c.requested_at}`,
      payload: {
        to: c.email,
        displayName: c.display_name,
        productName: c.product_name,
        productSlug: c.product_slug,
        variantLabel: variantLabel(c.options),
      } satisfies RestockNotice,
      summary: `${c.email}：貨到通知 ${c.product_name}`,
    })),
  );
  return claimed.length;
}

/** The notice's mail, in the shop's words. */
export function restockMail(notice: RestockNotice, publicUrl: string): MailMessage {
  const url = `${publicUrl}/mall/${encodeURIComponent(notice.productSlug)}`;
  const what =
    notice.variantLabel === '標準'
      ? `「${notice.productName}」`
      : `「${notice.productName}」（${notice.variantLabel}）`;
  const mail = renderMail({
    title: `${notice.productName} 已經到貨`,
    greeting: `${notice.displayName} 您好：`,
    paragraphs: [`您登記貨到通知的${what}已經到貨了。數量有限，售完為止，{action}即可前往選購。`],
    action: { label: '前往選購', url },
    notes: ['這封通知只寄一次。若之後又售完，您可以在商品頁再次登記貨到通知。'],
  });
  return { to: notice.to, ...mail, meta: { link: url, kind: 'restock' } };
}

/** A member's 貨到通知 requests as kept (the data export). */
export async function restockRequestsForExport(db: DbOrTx, userId: string) {
  return (await repo.requestsOf(db, userId)).map((r) => ({
    product: r.productName,
    sku: r.sku,
    requestedAt: r.requestedAt.toISOString(),
    notifiedAt: r.notifiedAt?.toISOString() ?? null,
  }));
}

/** Forgets a member's requests, in the caller's transaction (a deleted account). */
export function forgetRestockRequests(db: DbOrTx, userId: string): Promise<void> {
  return repo.deleteAllOf(db, userId);
}
