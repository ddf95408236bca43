import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { IS_SALE, PAID_AT, SALE_AMOUNT } from '../../db/money-rules.ts';
import { rows } from '../../db/rows.ts';

// The dashboard's reads: a report over the orders' and the catalogue's tables, as the daily digest
// reads them; it writes nothing.

/** A sale counts on the Taipei calendar day it was paid, for what it is worth (db/money-rules.ts). */
const TAIPEI_DAY = sql`(${PAID_AT} at time zone 'Asia/Taipei')::date`;

/** Sales and order counts per Taipei day from `fromDay` to `toDay` (YYYY-MM-DD, both included); days without sales are absent. */
export async function salesPerDay(db: DbOrTx, fromDay: string, toDay: string) {
  return rows<{ day: string; sales: number; orders: number }>(
    await db.execute(sql`
      select to_char(${TAIPEI_DAY}, 'YYYY-MM-DD') as day, coalesce(sum(${SALE_AMOUNT}), 0)::int as sales, count(*)::int as orders
      from orders o
      where ${IS_SALE} and ${TAIPEI_DAY} >= ${fromDay}::date and ${TAIPEI_DAY} <= ${toDay}::date
      group by 1`),
  );
}

export async function ordersPerStatus(db: DbOrTx) {
  return rows<{ status: string; n: number }>(
    await db.execute(sql`select o.status, count(*)::int as n from orders o group by 1`),
  );
}

/** Active products' variants at or below their low-stock threshold, lowest first. */
export async function lowStockVariants(db: DbOrTx, limit: number) {
  return rows<{
    product_id: string;
    product_name: string;
    sku: string;
    options: Record<string, string>;
    stock: number;
    low_stock_threshold: number;
  }>(
    await db.execute(sql`
      select p.id as product_id, p.name as product_name, v.sku, v.options, v.stock, v.low_stock_threshold
      from product_variants v join products p on p.id = v.product_id
      where p.status = 'active' and not v.archived and v.stock <= v.low_stock_threshold
      order by v.stock asc, p.name asc
      limit ${limit}`),
  );
}
