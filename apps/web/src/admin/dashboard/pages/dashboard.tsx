import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { adminPath } from '@shop/shared/admin-routes';
import { formatTwd } from '@shop/shared/money';
import { ORDER_STATUS_LABELS } from '@shop/shared/order-status';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { dashboardQuery } from '../queries.ts';
import { AdminPage } from '../../shared/admin-page.tsx';
import { SalesChart } from '../components/sales-chart.tsx';
import { useCan } from '../../shared/use-admin-me.ts';
import { formatTaipeiLongDate } from '@shop/shared/taipei-time';

function Stat({ label, value, sub }: { label: string; value: string; sub: string }) {
  return (
    <Card className="flex flex-col gap-1">
      <p className="text-sm text-ink-muted">{label}</p>
      <p className="tabular font-serif text-3xl text-ink">{value}</p>
      <p className="tabular text-sm text-ink-muted">{sub}</p>
    </Card>
  );
}

/** /admin: today's and this month's sales, orders waiting by status, low stock, 30 days of sales. */
export default function DashboardPage() {
  const q = useQuery(dashboardQuery());
  const canOrders = useCan('orders.read');
  const canProducts = useCan('products.read');
  const d = q.data;
  const today = formatTaipeiLongDate(new Date());

  return (
    <AdminPage title="總覽" description={`${today}・數字以台北時間計算，每分鐘更新`}>
      {q.isError && <LoadError title="總覽暫時無法載入" query={q} />}
      <section aria-label="營業額" className="grid gap-4 sm:grid-cols-2">
        {d ? (
          <>
            <Stat label="今日營業額" value={formatTwd(d.today.sales)} sub={`${d.today.orders} 筆訂單`} />
            <Stat label="本月營業額" value={formatTwd(d.month.sales)} sub={`${d.month.orders} 筆訂單`} />
          </>
        ) : (
          !q.isError && [0, 1].map((i) => <Skeleton key={i} className="h-28 rounded-xl" />)
        )}
      </section>
      <p className="-mt-3 text-xs text-ink-muted">
        營業額計入已付款訂單與貨到付款訂單，不含已取消、已退款與尚未付款的訂單。
      </p>

      <Card className="flex flex-col gap-3">
        <h2 className="font-serif text-xl">最近 30 天營業額</h2>
        {d ? <SalesChart days={d.daily} /> : <Skeleton className="h-64" />}
      </Card>

      <div className="grid items-start gap-6 lg:grid-cols-2">
        <Card className="flex flex-col gap-3">
          <h2 className="font-serif text-xl">訂單狀態</h2>
          {d ? (
            <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3">
              {d.byStatus
                .filter((s) => s.count > 0 || ['paid', 'processing', 'shipped'].includes(s.status))
                .map((s) => (
                  <li key={s.status}>
                    {canOrders ? (
                      <Link
                        to={`${adminPath.orders()}?status=${encodeURIComponent(s.status)}`}
                        className="flex flex-col rounded-lg border border-line px-3 py-2 hover:border-tea hover:bg-tea-soft"
                      >
                        <span className="text-sm text-ink-muted">{ORDER_STATUS_LABELS[s.status]}</span>
                        <span className="tabular text-2xl">{s.count}</span>
                      </Link>
                    ) : (
                      <span className="flex flex-col rounded-lg border border-line px-3 py-2">
                        <span className="text-sm text-ink-muted">{ORDER_STATUS_LABELS[s.status]}</span>
                        <span className="tabular text-2xl">{s.count}</span>
                      </span>
                    )}
                  </li>
                ))}
            </ul>
          ) : (
            <Skeleton className="h-32" />
          )}
        </Card>
        <Card className="flex flex-col gap-3">
          <h2 className="font-serif text-xl">庫存偏低</h2>
          {d ? (
            d.lowStock.length === 0 ? (
              <p className="text-ink-muted">目前沒有庫存偏低的商品。</p>
            ) : (
              <ul className="divide-y divide-line">
                {d.lowStock.map((v) => (
                  <li key={v.sku} className="flex items-center justify-between gap-3 py-2">
                    <span className="min-w-0">
                      {canProducts ? (
                        <Link
                          to={adminPath.productEdit(v.productId)}
                          className="text-tea underline-offset-4 hover:underline"
                        >
                          {v.productName}
                        </Link>
                      ) : (
                        v.productName
                      )}
                      <span className="block text-xs text-ink-muted">
                        {v.variantLabel || '單一規格'}・{v.sku}
                      </span>
                    </span>
                    <span
                      className={`tabular shrink-0 text-sm ${v.stock === 0 ? 'font-semibold text-danger' : 'font-medium text-ink'}`}
                    >
                      {v.stock === 0 ? '已售完' : `剩 ${v.stock} 件`}
                    </span>
                  </li>
                ))}
              </ul>
            )
          ) : (
            <Skeleton className="h-32" />
          )}
        </Card>
      </div>
    </AdminPage>
  );
}
