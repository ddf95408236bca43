import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { OrderStatus } from '@shop/shared/order-status';
import type { DbOrTx } from '../../db/client.ts';
import { orderReturns, orders, refunds } from '../../db/schema.ts';

/** A member's order numbers, oldest first (the data export). */
export async function orderNumbersOf(db: DbOrTx, userId: string): Promise<string[]> {
  const found = await db
    .select({ orderNo: orders.orderNo })
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(asc(orders.createdAt));
  return found.map((o) => o.orderNo);
}

/** Orders of a member that are still under way: not yet completed, cancelled, expired or refunded. */
export async function unfinishedOrderNumbers(db: DbOrTx, userId: string, finished: readonly OrderStatus[]) {
  const found = await db
    .select({ orderNo: orders.orderNo })
    .from(orders)
    .where(and(eq(orders.userId, userId), notInArray(orders.status, [...finished])))
    .orderBy(asc(orders.createdAt));
  return found.map((o) => o.orderNo);
}

/** A return or refund of a member's orders still waiting for the shop. */
export async function openReturnOrRefund(db: DbOrTx, userId: string): Promise<boolean> {
  const own = db.select({ id: orders.id }).from(orders).where(eq(orders.userId, userId));
  const [ret] = await db
    .select({ id: orderReturns.id })
    .from(orderReturns)
    .where(and(inArray(orderReturns.orderId, own), inArray(orderReturns.status, ['requested', 'approved'])))
    .limit(1);
  if (ret) return true;
  const [refund] = await db
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(inArray(refunds.orderId, own), eq(refunds.status, 'pending')))
    .limit(1);
  return refund !== undefined;
}

/** A bank account with all but its last four digits hidden and no holder's name. */
const maskedBank = (column: unknown) => sql`case when ${column} is null then null else jsonb_build_object(
  'bankCode', ${column} -> 'bankCode',
  'account', '••••' || right(${column} ->> 'account', 4),
  'holder', '已刪除') end`;

/**
 * Takes the person out of a member's orders (a deleted account): the recipient's name and phone,
 * a home address (the city stays, for the shop's figures), the buyer's note, a mobile barcode or
 * citizen certificate asked for the invoice, and the bank accounts of refunds and returns (the last
 * four digits stay, so the books can still be matched). Amounts, items, dates, stores and invoice
 * numbers stay: the shop must keep them.
 */
export async function anonymiseOrdersOf(db: DbOrTx, userId: string): Promise<void> {
  await db
    .update(orders)
    .set({
      shipping: sql`jsonb_strip_nulls(jsonb_build_object(
        'method', ${orders.shipping} -> 'method',
        'recipientName', '已刪除',
        'phone', '',
        'city', ${orders.shipping} -> 'city',
        'cvsBrand', ${orders.shipping} -> 'cvsBrand',
        'storeId', ${orders.shipping} -> 'storeId',
        'storeName', ${orders.shipping} -> 'storeName',
        'storeAddress', ${orders.shipping} -> 'storeAddress',
        'storePhone', ${orders.shipping} -> 'storePhone',
        'storeOutlying', ${orders.shipping} -> 'storeOutlying'))`,
      invoice: sql`${orders.invoice} - 'mobileBarcode' - 'certificate'`,
      note: '',
    })
    .where(eq(orders.userId, userId));
  const own = db.select({ id: orders.id }).from(orders).where(eq(orders.userId, userId));
  await db
    .update(orderReturns)
    .set({ bank: maskedBank(orderReturns.bank), detail: '' })
    .where(inArray(orderReturns.orderId, own));
  await db
    .update(refunds)
    .set({ bank: maskedBank(refunds.bank) })
    .where(inArray(refunds.orderId, own));
}
