import type { Dashboard } from '@shop/shared/admin-dashboard';
import { ORDER_STATUSES, type OrderStatus } from '@shop/shared/order-status';
import type { DbOrTx } from '../../db/client.ts';
import * as repo from './repo.ts';
import { taipeiDay } from '@shop/shared/taipei-time';
import { readTogether } from '../../db/reads.ts';

/** The console's first page: today's and this month's sales, the last 30 days, orders per status, low stock (a sale: repo.ts). */
export async function dashboard(db: DbOrTx, now = new Date()): Promise<Dashboard> {
  const today = taipeiDay(now);
  const monthStart = `${today.slice(0, 8)}01`;
  const from = new Date(Date.parse(`${today}T00:00:00+08:00`) - 29 * 86_400_000);
  const fromDay = taipeiDay(from);

  const [daily, statuses, low] = await readTogether(db, [
    () => repo.salesPerDay(db, fromDay < monthStart ? fromDay : monthStart, today),
    () => repo.ordersPerStatus(db),
    () => repo.lowStockVariants(db, 12),
  ]);

  const byDay = new Map(daily.map((r) => [r.day, r]));
  const days: Dashboard['daily'] = [];
  for (let i = 0; i < 30; i++) {
    const date = taipeiDay(from.getTime() + i * 86_400_000 + 12 * 3_600_000);
    const r = byDay.get(date);
    days.push({ date, sales: r?.sales ?? 0, orders: r?.orders ?? 0 });
  }
  let month = { sales: 0, orders: 0 };
  for (const [day, r] of byDay)
    if (day >= monthStart) month = { sales: month.sales + r.sales, orders: month.orders + r.orders };
  const t = byDay.get(today);
  const counts = new Map(statuses.map((r) => [r.status as OrderStatus, r.n]));

  return {
    today: { sales: t?.sales ?? 0, orders: t?.orders ?? 0 },
    month,
    byStatus: ORDER_STATUSES.map((status) => ({ status, count: counts.get(status) ?? 0 })),
    lowStock: low.map((r) => ({
      productId: r.product_id,
      productName: r.product_name,
      sku: r.sku,
      variantLabel: Object.values(r.options ?? {}).join('・'),
      stock: r.stock,
      threshold: r.low_stock_threshold,
    })),
    daily: days,
    generatedAt: now.toISOString(),
  };
}
