import { refundsThroughGateway } from '@shop/shared/payment-methods';
import { bankLabel } from '@shop/shared/data/tw-banks';
import { RETURN_REASONS, type RefundAccount, type ReturnView, type Returnable } from '@shop/shared/returns';
import type { OrderStatus } from '@shop/shared/order-status';
import { pageCount, pageWindow } from '@shop/shared/paging';
import { endOfTaipeiDaysAfter } from '@shop/shared/taipei-time';
import type { DbOrTx } from '../../db/client.ts';
import { returnSettings } from '../site/admin-service.ts';
import * as repo from './repo.ts';
import * as returnsRepo from './returns-repo.ts';
import { readTogether } from '../../db/reads.ts';

/**
 * What an order's returns look like (docs/product-rules.md#returns): what may still be returned and
 * until when, what returned items are worth, and the returns as the member, staff and the console's
 * list see them. Reads only; the steps of a return are in returns.ts.
 */

const RETURNABLE_STATUSES: readonly OrderStatus[] = ['delivered', 'completed'];

/** A return's number: the order's, then R and its place among the order's returns. */
export const returnNoOf = (orderNo: string, n: number) => `${orderNo}-R${n}`;

type Item = Awaited<ReturnType<typeof repo.itemsOf>>[number];
export type Loaded = {
  order: repo.OrderRow;
  items: Item[];
  returns: returnsRepo.ReturnRow[];
  returnItems: returnsRepo.ReturnItemRow[];
};

/** The order's items (unless the caller read them already), its returns and their items. */
export async function load(db: DbOrTx, order: repo.OrderRow, knownItems?: Item[]): Promise<Loaded> {
  const [items, returns] = await readTogether(db, [
    async () => knownItems ?? repo.itemsOf(db, order.id),
    () => returnsRepo.returnsOf(db, order.id),
  ]);
  const returnItems = await returnsRepo.itemsOfReturns(
    db,
    returns.map((r) => r.id),
  );
  return { order, items, returns, returnItems };
}

/** How many of each order line are in returns that still count (all but refused ones); `only` narrows to some statuses. */
export function returnedQuantities(
  l: Pick<Loaded, 'returns' | 'returnItems'>,
  only?: readonly returnsRepo.ReturnRow['status'][],
): Map<string, number> {
  const counting = new Set(
    l.returns.filter((r) => (only ? only.includes(r.status) : r.status !== 'refused')).map((r) => r.id),
  );
  const q = new Map<string, number>();
  for (const i of l.returnItems)
    if (counting.has(i.returnId)) q.set(i.orderItemId, (q.get(i.orderItemId) ?? 0) + i.quantity);
  return q;
}

/** When the parcel was delivered: the newest move to delivered in the order's history (read unless given). */
async function deliveredAt(
  db: DbOrTx,
  orderId: string,
  knownEvents?: repo.OrderEventRow[],
): Promise<Date | null> {
  const events = knownEvents ?? (await repo.eventsOf(db, orderId));
  const last = [...events].reverse().find((e) => e.kind === 'status' && e.status === 'delivered');
  return last?.createdAt ?? null;
}

/** What the member may still return and until when, or null (not delivered, period over, a return still open, nothing left). */
export async function returnableOf(
  db: DbOrTx,
  l: Loaded,
  now: Date,
  knownEvents?: repo.OrderEventRow[],
): Promise<Returnable | null> {
  if (!RETURNABLE_STATUSES.includes(l.order.status)) return null;
  if (l.returns.some((r) => r.status === 'requested' || r.status === 'approved')) return null;
  const delivered = await deliveredAt(db, l.order.id, knownEvents);
  if (!delivered) return null;
  // The law's seven days: the day of delivery not counted, the last day to its end (Taipei).
  const until = endOfTaipeiDaysAfter(delivered, (await returnSettings(db)).days);
  if (now > until) return null;
  const taken = returnedQuantities(l);
  const items = l.items
    .map((i) => ({ itemId: i.id, quantity: i.quantity - (taken.get(i.id) ?? 0) }))
    .filter((i) => i.quantity > 0);
  if (items.length === 0) return null;
  return { until: until.toISOString(), items, needsAccount: !refundsThroughGateway(l.order.paymentMethod) };
}

/**
 * What returned items are worth: each line's price less its share of the order's discounts,
 * rounded to the dollar. A return that takes back the last of the order's items is worth what is
 * left of the whole total instead (shipping included), so the parts always add up to the total.
 */
export function returnAmounts(
  order: Pick<repo.OrderRow, 'subtotal' | 'discountTotal' | 'total'>,
  items: ReadonlyArray<Pick<Item, 'id' | 'quantity' | 'lineTotal'>>,
  already: ReadonlyMap<string, number>,
  earlierAmounts: number,
  asked: ReadonlyArray<{ itemId: string; quantity: number }>,
): { lines: Map<string, number>; amount: number; wholeRest: boolean } {
  const net = order.subtotal > 0 ? (order.subtotal - order.discountTotal) / order.subtotal : 0;
  const lines = new Map<string, number>();
  for (const a of asked) {
    const item = items.find((i) => i.id === a.itemId)!;
    lines.set(a.itemId, Math.round((item.lineTotal * a.quantity * net) / item.quantity));
  }
  const wholeRest = items.every(
    (i) => (already.get(i.id) ?? 0) + (asked.find((a) => a.itemId === i.id)?.quantity ?? 0) >= i.quantity,
  );
  const sum = [...lines.values()].reduce((s, v) => s + v, 0);
  const amount = wholeRest
    ? Math.max(0, order.total - earlierAmounts)
    : Math.min(sum, order.total - earlierAmounts);
  return { lines, amount, wholeRest };
}

/** An account as the member and staff see it on the order: the bank, the last four digits, the holder. */
const maskAccount = (bank: RefundAccount | null) =>
  bank ? `${bankLabel(bank.bankCode)} 末四碼 ${bank.account.slice(-4)}（${bank.holder}）` : null;

/** The order's returns as the member and staff see them. */
export async function returnViews(db: DbOrTx, l: Loaded): Promise<ReturnView[]> {
  const refunds = new Map(
    (
      await returnsRepo.refundStates(
        db,
        l.returns.flatMap((r) => (r.refundId ? [r.refundId] : [])),
      )
    ).map((r) => [r.id, r]),
  );
  return l.returns.map((r) => {
    const refund = r.refundId ? refunds.get(r.refundId) : undefined;
    return {
      returnNo: r.returnNo,
      status: r.status,
      reason: RETURN_REASONS[r.reason as keyof typeof RETURN_REASONS] ?? r.reason,
      detail: r.detail,
      photos: r.photos.map(
        (name) => `/api/storage/b/returns/o/${name.split('/').map(encodeURIComponent).join('/')}?alt=media`,
      ),
      amount: r.amount,
      items: l.returnItems
        .filter((i) => i.returnId === r.id)
        .map((i) => {
          const item = l.items.find((o) => o.id === i.orderItemId);
          return {
            itemId: i.orderItemId,
            name: item ? `${item.productName}（${item.variantLabel}）` : '',
            quantity: i.quantity,
            price: item ? Math.round((item.lineTotal * i.quantity) / item.quantity) : i.amount,
            amount: i.amount,
            restock: i.restock,
          };
        }),
      staffMessage: r.staffMessage,
      bank: maskAccount(r.bank),
      refund: refund ? { status: refund.status, doneAt: refund.doneAt?.toISOString() ?? null } : null,
      requestedAt: r.requestedAt.toISOString(),
      decidedAt: r.decidedAt?.toISOString() ?? null,
      receivedAt: r.receivedAt?.toISOString() ?? null,
    };
  });
}

/** Returns and what may still be returned, for the member's order page (which has read the items and history already). */
export async function returnsOfOrder(
  db: DbOrTx,
  order: repo.OrderRow,
  now: Date,
  known: { items: Item[]; events: repo.OrderEventRow[] },
): Promise<{ returns: ReturnView[]; returnable: Returnable | null }> {
  const l = await load(db, order, known.items);
  return { returns: await returnViews(db, l), returnable: await returnableOf(db, l, now, known.events) };
}

/** `returnsOfOrder` for an order placed a moment ago, which has no returns yet (nothing to read). */
export async function returnsOfNewOrder(
  db: DbOrTx,
  order: repo.OrderRow,
  items: Item[],
  events: repo.OrderEventRow[],
): Promise<{ returns: ReturnView[]; returnable: Returnable | null }> {
  return {
    returns: [],
    returnable: await returnableOf(db, { order, items, returns: [], returnItems: [] }, new Date(), events),
  };
}

/** The order's returns alone, for the console's order page (which has read the items already). */
export async function returnsOfOrderForStaff(
  db: DbOrTx,
  order: repo.OrderRow,
  items: Item[],
): Promise<ReturnView[]> {
  return returnViews(db, await load(db, order, items));
}

const CONSOLE_PAGE_SIZE = 20;

/** The console's list of returns: open ones (waiting for a decision or for the goods) by default, newest first. */
export async function consoleReturns(
  db: DbOrTx,
  status: returnsRepo.ReturnRow['status'] | 'open' | 'all',
  page: number,
) {
  const { limit, offset } = pageWindow(page, CONSOLE_PAGE_SIZE);
  const { rows, total } = await returnsRepo.listReturns(db, status, limit, offset);
  return {
    items: rows.map((row) => ({
      returnNo: row.ret.returnNo,
      orderNo: row.orderNo,
      status: row.ret.status,
      memberName: row.memberName,
      memberEmail: row.memberEmail,
      reason: RETURN_REASONS[row.ret.reason as keyof typeof RETURN_REASONS] ?? row.ret.reason,
      amount: row.ret.amount,
      itemCount: Number(row.itemCount),
      refund: row.refundStatus ?? null,
      requestedAt: row.ret.requestedAt.toISOString(),
    })),
    page,
    pageSize: CONSOLE_PAGE_SIZE,
    total,
    totalPages: pageCount(total, CONSOLE_PAGE_SIZE),
  };
}
