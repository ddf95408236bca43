import { refundsThroughGateway } from '@shop/shared/payment-methods';
import { randomUUID } from 'node:crypto';
import { bankLabel } from '@shop/shared/data/tw-banks';
import {
  MAX_RETURN_PHOTOS_PER_ORDER,
  RETURN_REASONS,
  type RefundAccount,
  type ReturnRequestBody,
} from '@shop/shared/returns';
import { formatTwd } from '@shop/shared/money';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../lib/errors.ts';
import * as stock from '../catalog/stock.ts';
import { catalogChanged } from '../catalog/service.ts';
import { issueKey, requestAllowance } from '../invoices/service.ts';
import { outboxStatus } from '../../plugins/outbox.ts';
import { installmentRefundRefused, requestRefund, setRefundAccount } from '../payments/refunds.ts';
import type { ObjectStore } from '../storage/backends.ts';
import { BUCKETS } from '../storage/buckets.ts';
import { countObjects, getMetadata, removeObject, storeObject } from '../storage/service.ts';
import {
  returnApprovedMail,
  returnReceivedMail,
  returnRefusedMail,
  returnRequestedMail,
  shopReturnMail,
  type MailReturn,
} from './return-mails.ts';
import * as repo from './repo.ts';
import * as returnsRepo from './returns-repo.ts';
import { afterChange, applyTransition } from './lifecycle.ts';
import { type ChangeDeps, clock } from './order-deps.ts';
import { getOrder } from './read-models.ts';
import {
  load,
  returnableOf,
  returnAmounts,
  returnedQuantities,
  returnNoOf,
  type Loaded,
} from './returns-views.ts';

/**
 * Returns from the member area (docs/product-rules.md#returns). A member asks within the return
 * period counted from delivery; staff approve or refuse with a message; when the goods arrive
 * staff choose, item by item, what goes back to stock, and the money goes back in the same
 * transaction: a refund (card through ECPay, otherwise a transfer staff make) and, for part of the
 * order, an allowance on its invoice. Returning the last of an order's items refunds the order
 * through its one door instead, which also voids the invoice.
 */

export interface ReturnDeps extends ChangeDeps {
  readonly store: ObjectStore;
}

const PHOTO_NAME = /^(TW\d{14})\/[0-9a-f-]{36}\.(jpg|png|webp)$/;
const PHOTO_EXT: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

/**
 * A photo for a return request, stored in the private `returns` bucket under the order's number
 * and a random name. Only the order's own member, only while it may be returned.
 */
export async function uploadReturnPhoto(
  deps: ReturnDeps,
  userId: string,
  orderNo: string,
  bytes: Buffer,
  contentType: string,
): Promise<{ name: string; url: string }> {
  const order = await repo.findByOrderNo(deps.db, orderNo);
  if (!order || order.userId !== userId) throw new NotFoundError('找不到這筆訂單。');
  if (!(await returnableOf(deps.db, await load(deps.db, order), clock(deps))))
    throw new ConflictError('這筆訂單目前不能申請退貨。', 'not-returnable');
  const ext = PHOTO_EXT[contentType.split(';')[0]!.trim().toLowerCase()];
  if (!ext)
    throw new BadRequestError('照片請用 JPEG、PNG 或 WebP 格式。', {
      photos: '照片請用 JPEG、PNG 或 WebP 格式',
    });
  // At most MAX_RETURN_PHOTOS_PER_ORDER files per order: counted before, and again after storing
  // (uploads racing each other past the count take their own file back out).
  const storage = { db: deps.db, store: deps.store };
  const stored = () => countObjects(storage, 'returns', `${orderNo}/`);
  const tooMany = () =>
    new ConflictError(
      `這筆訂單已上傳 ${MAX_RETURN_PHOTOS_PER_ORDER} 張照片，無法再上傳；如需補充請與客服聯絡。`,
      'too-many-photos',
    );
  if ((await stored()) >= MAX_RETURN_PHOTOS_PER_ORDER) throw tooMany();
  const name = `${orderNo}/${randomUUID()}.${ext}`;
  await storeObject(storage, BUCKETS.returns!, 'returns', name, bytes, { uploadedBy: userId });
  if ((await stored()) > MAX_RETURN_PHOTOS_PER_ORDER) {
    await removeObject(storage, 'returns', name);
    throw tooMany();
  }
  return { name, url: `/api/storage/b/returns/o/${name}?alt=media` };
}

/** A return's mail to its member; `known` is the order as the caller loaded it, when its return items are current. */
async function mailOf(
  tx: DbOrTx,
  order: repo.OrderRow,
  ret: returnsRepo.ReturnRow,
  known?: Loaded,
): Promise<{ owner: { email: string; name: string; verified: boolean }; mail: MailReturn } | null> {
  const owner = await repo.ownerOf(tx, order.userId);
  if (!owner) return null;
  const l = known ?? (await load(tx, order));
  const items = l.returnItems
    .filter((i) => i.returnId === ret.id)
    .map((i) => {
      const item = l.items.find((o) => o.id === i.orderItemId);
      return { name: item ? `${item.productName}（${item.variantLabel}）` : '', quantity: i.quantity };
    });
  return {
    owner: { email: owner.email, name: owner.name, verified: Boolean(owner.emailVerifiedAt) },
    mail: {
      orderNo: order.orderNo,
      returnNo: ret.returnNo,
      email: owner.email,
      name: owner.name,
      items,
      amount: ret.amount,
      card: refundsThroughGateway(order.paymentMethod),
    },
  };
}

/** The member asks to return some or all of a delivered order's items. */
export async function requestReturn(
  deps: ReturnDeps,
  userId: string,
  orderNo: string,
  body: ReturnRequestBody & { detail: string; photos: string[] },
) {
  const now = clock(deps);
  const found = await repo.findByOrderNo(deps.db, orderNo);
  if (!found || found.userId !== userId) throw new NotFoundError('找不到這筆訂單。');
  for (const photo of body.photos) {
    const m = PHOTO_NAME.exec(photo);
    if (!m || m[1] !== orderNo)
      throw new BadRequestError('照片無法辨識，請重新上傳。', { photos: '照片無法辨識，請重新上傳' });
    await getMetadata(
      { db: deps.db, store: deps.store },
      { userId, role: 'customer' },
      'returns',
      photo,
    ).catch(() => {
      throw new BadRequestError('找不到上傳的照片，請重新上傳。', { photos: '找不到上傳的照片，請重新上傳' });
    });
  }
  const order = await deps.db.transaction(async (tx) => {
    // One request at a time per order: decided on the locked order row.
    const order = await repo.findById(tx, found.id, { forUpdate: true });
    if (!order) throw new NotFoundError('找不到這筆訂單。');
    const l = await load(tx, order);
    const returnable = await returnableOf(tx, l, now);
    if (!returnable) {
      const open = l.returns.some((r) => r.status === 'requested' || r.status === 'approved');
      throw new ConflictError(
        open
          ? '這筆訂單已有處理中的退貨申請，請等候客服回覆。'
          : '這筆訂單已超過退貨期限或無法退貨，如有問題請與客服聯絡。',
        'not-returnable',
      );
    }
    const fields: Record<string, string> = {};
    for (const [i, a] of body.items.entries()) {
      const left = returnable.items.find((r) => r.itemId === a.itemId)?.quantity ?? 0;
      if (!l.items.some((o) => o.id === a.itemId)) fields[`items.${i}.itemId`] = '這項商品不在訂單中';
      else if (left === 0) fields[`items.${i}.quantity`] = '這項商品已經申請過退貨';
      else if (a.quantity > left) fields[`items.${i}.quantity`] = `最多可退 ${left} 件`;
    }
    if (Object.keys(fields).length > 0)
      throw new BadRequestError(Object.values(fields)[0]!, fields, 'invalid-return');
    if (returnable.needsAccount && !body.refundAccount) {
      throw new BadRequestError(
        '請填寫退款帳戶：這筆訂單的退款會以轉帳退還。',
        { 'refundAccount.bankCode': '請輸入銀行代碼' },
        'invalid-return',
      );
    }
    const earlier = l.returns.filter((r) => r.status !== 'refused').reduce((s, r) => s + r.amount, 0);
    const { lines, amount } = returnAmounts(order, l.items, returnedQuantities(l), earlier, body.items);
    const ret = await returnsRepo.insertReturn(
      tx,
      {
        orderId: order.id,
        returnNo: returnNoOf(order.orderNo, l.returns.length + 1),
        reason: body.reason,
        detail: body.detail,
        photos: body.photos,
        amount,
        bank: returnable.needsAccount && body.refundAccount ? body.refundAccount : null,
        requestedAt: now,
      },
      body.items.map((a) => ({
        orderItemId: a.itemId,
        quantity: a.quantity,
        amount: lines.get(a.itemId) ?? 0,
      })),
    );
    await repo.insertEvent(tx, {
      orderId: order.id,
      kind: 'status',
      status: order.status,
      note: `會員申請退貨（${ret.returnNo}）`,
      createdAt: now,
    });
    const m = await mailOf(tx, order, ret);
    if (m?.owner.verified) await deps.mailer.enqueue(tx, returnRequestedMail(m.mail, deps.publicUrl));
    if (m && deps.shopNotifyEmail) {
      await deps.mailer.enqueue(
        tx,
        shopReturnMail(
          { ...m.mail, reason: RETURN_REASONS[body.reason], detail: body.detail },
          deps.shopNotifyEmail,
          deps.publicUrl,
        ),
        `shop-return:${ret.returnNo}`,
      );
    }
    return order;
  });
  await afterChange(deps, order, 'status');
  return getOrder(deps.db, userId, orderNo);
}

/** Staff's decision on a requested return, in one transaction with their audit row. */
export async function decideReturn(
  deps: ChangeDeps,
  returnNo: string,
  decision: { approve: boolean; message: string },
  actorId: string | null,
  inTransaction?: (tx: Tx, orderNo: string) => Promise<void>,
): Promise<string> {
  const now = clock(deps);
  const order = await deps.db.transaction(async (tx) => {
    const ret = await returnsRepo.findByReturnNo(tx, returnNo, { forUpdate: true });
    if (!ret) throw new NotFoundError('找不到這筆退貨申請。');
    if (ret.status !== 'requested')
      throw new ConflictError('這筆退貨申請已經處理過了。', 'invalid-transition');
    const order = await repo.findById(tx, ret.orderId);
    if (!order) throw new NotFoundError('找不到這筆訂單。');
    // An instalment card payment can only be refunded whole: a return of part of it is refused
    // here, where staff decide, rather than when the goods arrive.
    if (decision.approve && order.paymentMethod === 'credit_card' && order.installments) {
      const l = await load(tx, order);
      const covered = returnedQuantities(
        {
          returns: l.returns.map((r) => (r.id === ret.id ? { ...r, status: 'approved' as const } : r)),
          returnItems: l.returnItems,
        },
        ['approved', 'received'],
      );
      if (!l.items.every((i) => (covered.get(i.id) ?? 0) >= i.quantity))
        throw installmentRefundRefused(order.installments);
    }
    await returnsRepo.setReturnStatus(tx, ret.id, 'requested', {
      status: decision.approve ? 'approved' : 'refused',
      staffMessage: decision.message || null,
      decidedAt: now,
      decidedBy: actorId,
    });
    await repo.insertEvent(tx, {
      orderId: order.id,
      kind: 'status',
      status: order.status,
      note: decision.approve
        ? `退貨申請已核准（${returnNo}），請寄回商品`
        : `退貨申請未核准（${returnNo}）：${decision.message}`,
      createdAt: now,
    });
    const m = await mailOf(tx, order, ret);
    if (m?.owner.verified)
      await deps.mailer.enqueue(
        tx,
        decision.approve
          ? returnApprovedMail(m.mail, decision.message, deps.publicUrl)
          : returnRefusedMail(m.mail, decision.message, deps.publicUrl),
      );
    await inTransaction?.(tx, order.orderNo);
    return order;
  });
  await afterChange(deps, order, 'status');
  return order.orderNo;
}

/**
 * The goods of an approved return arrived. In one transaction: the items staff chose go back to
 * stock (the ledger names the return), the money goes back (card refund through the outbox, or a
 * transfer task), and the invoice gets an allowance for the part; the last of the order's items
 * instead refunds the whole order through its one door, which voids the invoice.
 */
export async function receiveReturn(
  deps: ChangeDeps,
  returnNo: string,
  restock: ReadonlyArray<{ itemId: string; restock: boolean }>,
  actorId: string | null,
  inTransaction?: (tx: Tx, orderNo: string) => Promise<void>,
): Promise<string> {
  const now = clock(deps);
  const { order, restocked } = await deps.db.transaction(async (tx) => {
    const ret = await returnsRepo.findByReturnNo(tx, returnNo, { forUpdate: true });
    if (!ret) throw new NotFoundError('找不到這筆退貨申請。');
    if (ret.status !== 'approved')
      throw new ConflictError(
        ret.status === 'received' ? '這筆退貨已經收貨並退款了。' : '退貨申請核准後才能收貨。',
        'invalid-transition',
      );
    let order = await repo.findById(tx, ret.orderId, { forUpdate: true });
    if (!order) throw new NotFoundError('找不到這筆訂單。');
    const l = await load(tx, order);
    const mine = l.returnItems.filter((i) => i.returnId === ret.id);
    const missing = mine.filter((i) => !restock.some((r) => r.itemId === i.orderItemId));
    if (missing.length > 0 || restock.some((r) => !mine.some((i) => i.orderItemId === r.itemId))) {
      throw new BadRequestError('請為這筆退貨的每一項商品選擇是否放回庫存。', {
        items: '請為每一項商品選擇是否放回庫存',
      });
    }
    let restocked = false;
    for (const item of mine) {
      const back = restock.find((r) => r.itemId === item.orderItemId)!.restock;
      await returnsRepo.setRestock(tx, ret.id, item.orderItemId, back);
      const line = l.items.find((o) => o.id === item.orderItemId);
      if (back && line?.variantId) {
        await stock.giveBack(tx, [{ variantId: line.variantId, quantity: item.quantity }], {
          kind: 'refund',
          reason: `退貨入庫（${returnNo}）`,
          orderNo: order.orderNo,
          actorId,
        });
        restocked = true;
      }
    }
    const received = returnedQuantities(
      {
        returns: l.returns.map((r) => (r.id === ret.id ? { ...r, status: 'received' as const } : r)),
        returnItems: l.returnItems,
      },
      ['received'],
    );
    const whole = l.items.every((i) => (received.get(i.id) ?? 0) >= i.quantity);
    const reason = `退貨 ${returnNo}`;
    // An instalment card payment goes back only whole (ECPay): the last items refund the whole
    // order through its one door below; a part of one is refused before anything changes.
    const wholeOnly = order.paymentMethod === 'credit_card' && order.installments !== null;
    if (wholeOnly && !whole) throw installmentRefundRefused(order.installments!);
    const refund = wholeOnly
      ? null
      : await requestRefund(tx, order, {
          key: `return:${returnNo}`,
          amount: ret.amount,
          reason,
          bank: ret.bank,
        });
    await returnsRepo.setReturnStatus(tx, ret.id, 'approved', {
      status: 'received',
      receivedAt: now,
      refundId: refund?.id ?? null,
    });
    if (whole) {
      // Everything came back: the order is refunded through its one door (which voids the invoice, or credits what is left of it).
      order = await applyTransition(
        tx,
        order,
        { to: 'refunded', note: `退貨 ${returnNo} 已收到，訂單全額退款`, actorId },
        now,
      );
    } else {
      await repo.insertEvent(tx, {
        orderId: order.id,
        kind: 'status',
        status: order.status,
        note: `已收到退貨（${returnNo}），退款 ${formatTwd(ret.amount)}`,
        createdAt: now,
      });
      if (refund && (await outboxStatus(tx, issueKey(order.orderNo))) !== null)
        await requestAllowance(tx, order, `return:${returnNo}`, refund.amount, reason);
    }
    const m = await mailOf(tx, order, ret, l);
    if (m?.owner.verified)
      await deps.mailer.enqueue(
        tx,
        returnReceivedMail({ ...m.mail, amount: refund?.amount ?? 0 }, deps.publicUrl),
      );
    await inTransaction?.(tx, order.orderNo);
    return { order, restocked };
  });
  if (restocked) catalogChanged();
  await afterChange(deps, order, 'status');
  return order.orderNo;
}

/** The member gives the bank account for their order's transfers still waiting for one. */
export async function giveRefundAccount(
  deps: ChangeDeps,
  userId: string,
  orderNo: string,
  account: RefundAccount,
) {
  const order = await repo.findByOrderNo(deps.db, orderNo);
  if (!order || order.userId !== userId) throw new NotFoundError('找不到這筆訂單。');
  const n = await deps.db.transaction(async (tx) => {
    const n = await setRefundAccount(tx, order.id, account);
    if (n > 0)
      await repo.insertEvent(tx, {
        orderId: order.id,
        kind: 'status',
        status: order.status,
        note: `會員已提供退款帳戶（${bankLabel(account.bankCode)}）`,
        createdAt: clock(deps),
      });
    return n;
  });
  if (n === 0) throw new ConflictError('這筆訂單沒有等待帳戶的退款。', 'invalid-transition');
  await afterChange(deps, order, 'status');
  return getOrder(deps.db, userId, orderNo);
}
