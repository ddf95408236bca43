import { ACCOUNT_BUSY } from '@shop/shared/member-data';
import type { Db } from '../../db/client.ts';
import { AppError, NotFoundError } from '../../lib/errors.ts';
import { renderMail } from '../../lib/mail-layout.ts';
import { recordAuditBy } from '../../plugins/audit.ts';
import { forgetMailsTo, type Mailer } from '../../plugins/mail.ts';
import { accountContact, accountForExport, forgetAccount } from '../auth/account-data.ts';
import { forgetCart } from '../cart/service.ts';
import { forgetRestockRequests, restockRequestsForExport } from '../catalog/restock.ts';
import { forgetSender, messagesForExport } from '../contact/service.ts';
import { forgetCarriers } from '../invoices/service.ts';
import { consentsForExport, setMarketingConsent } from '../membership/consent.ts';
import { cookieConsentsForExport } from '../membership/cookie-consents.ts';
import { forgetAddresses, listAddresses } from '../membership/profile.ts';
import { forgetBuyer, ordersForExport, unfinishedBusiness } from '../orders/buyer-data.ts';
import { forgetWishlist, wishlist } from '../wishlist/service.ts';

/**
 * A member's own data (docs/product-rules.md#a-members-own-data): everything the shop keeps about
 * them as one file, and deleting the account. Each domain offers its part; this module only puts
 * them together, in one transaction for the deletion.
 */

export async function memberDataExport(db: Db, userId: string, now: Date) {
  const account = await accountForExport(db, userId);
  if (!account) throw new NotFoundError('找不到這個會員帳號。');
  return {
    exportedAt: now.toISOString(),
    about:
      '這是山嵐茶事保存的您的會員資料：基本資料、收件地址、訂單與發票、收藏、貨到通知、聯絡我們的來信、同意紀錄、連結的 LINE 或 Google 帳號與登入紀錄。',
    profile: account.profile,
    addresses: await listAddresses(db, userId),
    orders: await ordersForExport(db, userId),
    wishlist: (await wishlist(db, userId)).items.map((i) => ({
      product: i.product.name,
      addedAt: i.addedAt,
    })),
    restockRequests: await restockRequestsForExport(db, userId),
    contactMessages: await messagesForExport(db, account.profile.email),
    consents: await consentsForExport(db, userId),
    cookieConsents: await cookieConsentsForExport(db, userId),
    linkedSignIns: account.linkedSignIns,
    signIns: account.signIns,
  };
}

export interface DeletionDeps {
  db: Db;
  mailer: Mailer;
  ip: string | null;
}

/**
 * Deletes a member's account: refused while an order is under way or a return or refund is open;
 * otherwise, in one transaction, the person is taken out of every table that names them, what the
 * law makes the shop keep (orders, invoices) stays without them, the deletion is recorded, and a
 * last mail goes to the old address. The caller ends the sessions on every instance.
 */
export async function deleteMemberAccount(deps: DeletionDeps, userId: string, now: Date): Promise<void> {
  const contact = await accountContact(deps.db, userId);
  if (!contact) throw new NotFoundError('找不到這個會員帳號。');
  if (contact.role !== 'customer')
    throw new AppError(403, 'staff-account', '管理人員的帳號無法在這裡刪除，請由店主在後台處理。');
  const busy = await unfinishedBusiness(deps.db, userId);
  if (busy.orders.length > 0 || busy.openReturnOrRefund) {
    const which =
      busy.orders.length > 0
        ? `（${busy.orders.slice(0, 3).join('、')}${busy.orders.length > 3 ? ' 等' : ''}）`
        : '';
    throw new AppError(
      409,
      ACCOUNT_BUSY,
      busy.orders.length > 0
        ? `您還有 ${busy.orders.length} 筆進行中的訂單${which}，完成、取消或退款後才能刪除帳號。`
        : '您還有處理中的退貨或退款，完成後才能刪除帳號。',
    );
  }
  await deps.db.transaction(async (tx) => {
    await forgetBuyer(tx, userId);
    await forgetCarriers(tx, userId);
    await forgetAddresses(tx, userId);
    await forgetCart(tx, userId);
    await forgetWishlist(tx, userId);
    await forgetRestockRequests(tx, userId);
    await forgetSender(tx, contact.email);
    await forgetMailsTo(tx, contact.email);
    // The consent history stays (it proves what was agreed when); its last word is no.
    await setMarketingConsent(tx, userId, false, 'account-deleted');
    if (!(await forgetAccount(tx, userId, now))) throw new NotFoundError('找不到這個會員帳號。');
    // Recorded without the person: who it was is exactly what was just forgotten.
    await recordAuditBy(tx, null, deps.ip, {
      action: 'member.delete-account',
      entity: 'user',
      entityId: userId,
      before: { tier: contact.tier },
      after: { deletedAt: now.toISOString() },
    });
    await deps.mailer.enqueue(tx, goodbyeMail(contact.email, contact.displayName));
  });
  deps.mailer.flush();
}

function goodbyeMail(to: string, displayName: string) {
  const mail = renderMail({
    title: '您的會員帳號已刪除',
    greeting: `${displayName} 您好：`,
    paragraphs: [
      '依您的要求，山嵐茶事已刪除您的會員帳號：姓名、電子郵件、電話、生日、收件地址、收藏與貨到通知都已移除，所有登入也已結束。',
      '依法必須保存的訂單與發票紀錄仍會保留，但其中的收件人姓名、電話與地址已經移除。',
    ],
    notes: ['這是寄到這個信箱的最後一封信。若這不是您本人的操作，請盡快與我們聯絡。'],
  });
  return { to, ...mail, meta: { kind: 'account-deleted' } };
}
