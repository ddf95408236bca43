import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { Dashboard } from '@shop/shared/admin-dashboard';
import { ORDER_STATUSES, type OrderStatus } from '@shop/shared/order-status';
import { rows } from '../../db/rows.ts';
import type { DbOrTx } from '../../db/client.ts';

/**
 * A sale is an order that was paid (card, ATM), or a cash-on-delivery order that is going ahead,
 * counted on the Taipei calendar day it was paid or placed. Cancelled, refunded and unpaid orders
 * are not sales.
 */
const SALE_AT = sql`coalesce(o.paid_at, case when o.payment_method = 'cod' then o.created_at end)`;
const IS_SALE = sql`o.status in ('paid', 'processing', 'shipped', 'delivered', 'completed') and ${SALE_AT} is not null`;
const TAIPEI_DAY = sql`(${SALE_AT} at time zone 'Asia/Taipei')::date`;

export async function dashboard(db: DbOrTx, now = new Date()): Promise<Dashboard> {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Taipei' }).format(now);
  const monthStart = `${today.slice(0, 8)}01`;
  const from = new Date(Date.parse(`${today}T00:00:00+08:00`) - 29 * 86_400_000);
  const fromDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Taipei' }).format(from);

  const [daily, statuses, low] = await Promise.all([
    db.execute(sql`
      select to_char(${TAIPEI_DAY}, 'YYYY-MM-DD') as day, coalesce(sum(o.total), 0)::int as sales, count(*)::int as orders
      from orders o
      where ${IS_SALE} and ${TAIPEI_DAY} >= least(${fromDay}::date, ${monthStart}::date) and ${TAIPEI_DAY} <= ${today}::date
      group by 1`),
    db.execute(sql`select o.status, count(*)::int as n from orders o group by 1`),
    db.execute(sql`
      select p.id as product_id, p.name as product_name, v.sku, v.options, v.stock, v.low_stock_threshold
      from product_variants v join products p on p.id = v.product_id
      where p.status = 'active' and not v.archived and v.stock <= v.low_stock_threshold
      order by v.stock asc, p.name asc
      limit 12`),
  ]);

  const byDay = new Map(rows<{ day: string; sales: number; orders: number }>(daily).map((r) => [r.day, r]));
  const days: Dashboard['daily'] = [];
  for (let i = 0; i < 30; i++) {
    const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Taipei' }).format(new Date(from.getTime() + i * 86_400_000 + 12 * 3_600_000));
    const r = byDay.get(date);
    days.push({ date, sales: r?.sales ?? 0, orders: r?.orders ?? 0 });
  }
  let month = { sales: 0, orders: 0 };
  for (const [day, r] of byDay) if (day >= monthStart) month = { sales: month.sales + r.sales, orders: month.orders + r.orders };
  const t = byDay.get(today);
  const counts = new Map(rows<{ status: OrderStatus; n: number }>(statuses).map((r) => [r.status, r.n]));

  return {
    today: { sales: t?.sales ?? 0, orders: t?.orders ?? 0 },
    month,
    byStatus: ORDER_STATUSES.map((status) => ({ status, count: counts.get(status) ?? 0 })),
    lowStock: rows<{ product_id: string; product_name: string; sku: string; options: Record<string, string>; stock: number; low_stock_threshold: number }>(low).map((r) => ({
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

/** GET /api/admin/dashboard */
const dashboardRoutes: FastifyPluginAsync = async (app) => {
  app.withTypeProvider<ZodTypeProvider>().get('/api/admin/dashboard', { config: { permission: 'dashboard.read' }, schema: { response: { 200: Dashboard } } }, async () => dashboard(app.db));
};

export default dashboardRoutes;
