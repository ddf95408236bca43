import type { OrderDetail } from '@shop/shared/orders';
import type { OrderStatus } from '@shop/shared/order-status';
import type { DbOrTx } from '../../db/client.ts';
import * as repo from './buyer-data-repo.ts';
import { getOrder } from './read-models.ts';

/** The states an order ends in: nothing more will be shipped, paid or refunded. */
const FINISHED: readonly OrderStatus[] = ['completed', 'cancelled', 'expired', 'refunded'];

/** Every order of a member as the order page shows it, with its invoice (the data export). */
export async function ordersForExport(db: DbOrTx, userId: string): Promise<OrderDetail[]> {
  const numbers = await repo.orderNumbersOf(db, userId);
  const out: OrderDetail[] = [];
  for (const orderNo of numbers) out.push(await getOrder(db, userId, orderNo));
  return out;
}

/**
 * What keeps an account from being deleted now: orders still under way (the shop must still reach
 * the buyer to deliver or refund), and whether a return or refund is still open.
 */
export async function unfinishedBusiness(db: DbOrTx, userId: string) {
  return {
    orders: await repo.unfinishedOrderNumbers(db, userId, FINISHED),
    openReturnOrRefund: await repo.openReturnOrRefund(db, userId),
  };
}

/** Takes the person out of a member's orders, in the caller's transaction (buyer-data-repo.ts). */
export function forgetBuyer(db: DbOrTx, userId: string): Promise<void> {
  return repo.anonymiseOrdersOf(db, userId);
}
