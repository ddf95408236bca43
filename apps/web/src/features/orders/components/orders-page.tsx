import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { formatTwd } from '@shop/shared/money';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { PageHeader } from '../../../components/ui/page.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { paths } from '../../../config/paths.ts';
import { ordersQueryOptions, type OrderFilter } from '../api/orders-api.ts';
import { OrderStatusBadge, formatDateTime } from './order-parts.tsx';
import { LoadError } from '../../../components/load-error.tsx';

const FILTERS: Array<{ value: OrderFilter; label: string }> = [
  { value: 'all', label: '全部' },
  { value: 'pending_payment', label: '待付款' },
  { value: 'processing', label: '備貨中' },
  { value: 'shipped', label: '已出貨' },
  { value: 'completed', label: '已完成' },
  { value: 'cancelled', label: '已取消' },
];

/** Shared by /member/orderList and /member/orderTracking (orders on the way). */
export function OrdersPage({ tracking = false }: { tracking?: boolean }) {
  const [params, setParams] = useSearchParams();
  const filter = tracking
    ? 'in-transit'
    : ((FILTERS.find((f) => f.value === params.get('status'))?.value ?? 'all') as OrderFilter);
  const page = Math.max(1, Number(params.get('page')) || 1);
  const orders = useQuery(ordersQueryOptions(filter, page));
  const go = (next: { status?: string; page?: number }) => {
    const p = new URLSearchParams();
    const status = next.status ?? (tracking ? undefined : filter);
    if (status && status !== 'all') p.set('status', status);
    if ((next.page ?? 1) > 1) p.set('page', String(next.page));
    setParams(p);
  };
  const data = orders.data;
  const detailHref = (orderNo: string) =>
    tracking ? paths.orderTrackingDetail(orderNo) : paths.orderDetail(orderNo);

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title={tracking ? '配送追蹤' : '訂單查詢'}
        lead={tracking ? '已付款、備貨中與已出貨的訂單，配送進度會即時更新。' : undefined}
      />
      {!tracking && (
        <nav aria-label="依狀態篩選" className="-mx-1 flex gap-2 overflow-x-auto px-1">
          {FILTERS.map((f) => (
            <button
              key={f.value}
              type="button"
              aria-pressed={filter === f.value}
              onClick={() => go({ status: f.value })}
              className={cn(
                'min-h-10 shrink-0 rounded-full border px-4 text-sm',
                filter === f.value
                  ? 'border-tea bg-tea text-white'
                  : 'border-line bg-surface hover:border-tea',
              )}
            >
              {f.label}
            </button>
          ))}
        </nav>
      )}
      {orders.isError && !data ? (
        <LoadError query={orders} />
      ) : !data ? (
        <div className="flex flex-col gap-3" role="status" aria-label="載入訂單">
          <Skeleton className="h-24" />
          <Skeleton className="h-24" />
        </div>
      ) : data.items.length === 0 ? (
        <EmptyState
          title={tracking ? '目前沒有配送中的訂單' : filter === 'all' ? '還沒有訂單' : '這個狀態沒有訂單'}
          description={tracking ? '付款完成的訂單會出現在這裡。' : '挑選喜歡的茶品，第一筆訂單就從這裡開始。'}
          action={<ButtonLink to={paths.mall()}>前往商城</ButtonLink>}
        />
      ) : (
        <>
          <ul className="flex flex-col gap-3" aria-busy={orders.isFetching}>
            {data.items.map((o) => (
              <li key={o.orderNo}>
                <Link
                  to={detailHref(o.orderNo)}
                  className="flex flex-col gap-2 rounded-lg border border-line bg-surface p-4 hover:border-tea sm:flex-row sm:items-center sm:justify-between"
                >
                  <div className="flex flex-col gap-1">
                    <div className="flex flex-wrap items-center gap-2">
                      <span className="tabular font-medium">{o.orderNo}</span>
                      <OrderStatusBadge status={o.status} />
                    </div>
                    <p className="text-sm text-ink-muted">
                      {formatDateTime(o.createdAt)}・{o.firstItemName}
                      {o.itemCount > 1 ? ` 等 ${o.itemCount} 件` : ''}
                    </p>
                  </div>
                  <p className="tabular text-lg font-semibold">{formatTwd(o.total)}</p>
                </Link>
              </li>
            ))}
          </ul>
          <Pagination page={page} totalPages={data.totalPages} onPage={(p) => go({ page: p })} />
        </>
      )}
    </div>
  );
}
