import type { ReactNode } from 'react';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { PageOf } from '@shop/shared/admin';
import { PAYMENT_STATE_LABELS, paymentStateText, type AdminOrderDetail, type AdminOrderFilters, type AdminOrderRow, type OrderActionBody, type PaymentState } from '@shop/shared/admin-orders';
import type { OrderStatus } from '@shop/shared/order-status';
import { Badge, type BadgeTone } from '../../components/ui/badge.tsx';
import { apiGet, apiPost } from '../../lib/api-client.ts';
import { adminKeys, toQueryString } from '../api/admin-api.ts';

export { OrderStatusBadge, formatDateTime } from '../../features/orders/components/order-parts.tsx';

/** Query keys of the console's order pages (under 'admin', like every console key). */
export const adminOrderKeys = {
  all: [...adminKeys.all, 'orders'] as const,
  list: (filters: AdminOrderFilters & { page: number }) => [...adminKeys.all, 'orders', 'list', filters] as const,
  detail: (orderNo: string) => [...adminKeys.all, 'orders', 'detail', orderNo] as const,
};

export const adminOrdersQuery = (filters: AdminOrderFilters & { page: number }) =>
  queryOptions({
    queryKey: adminOrderKeys.list(filters),
    queryFn: ({ signal }) => apiGet<PageOf<AdminOrderRow>>(`/api/admin/orders${toQueryString(filters)}`, { signal }),
    placeholderData: keepPreviousData,
  });

export const adminOrderQuery = (orderNo: string) =>
  queryOptions({
    queryKey: adminOrderKeys.detail(orderNo),
    queryFn: ({ signal }) => apiGet<AdminOrderDetail>(`/api/admin/orders/${encodeURIComponent(orderNo)}`, { signal }),
  });

/** Where the 「匯出 CSV」 link downloads the filtered list from (the session cookie goes along). */
export const ordersCsvUrl = (filters: AdminOrderFilters) => `/api/admin/orders/export.csv${toQueryString(filters)}`;

export const postOrderAction = (orderNo: string, body: OrderActionBody) => apiPost<AdminOrderDetail>(`/api/admin/orders/${encodeURIComponent(orderNo)}/actions`, body);

const PAYMENT_TONES: Record<PaymentState, BadgeTone> = { pending: 'amber', waiting_transfer: 'amber', paid: 'success', failed: 'danger' };

/**
 * A payment's state as a small badge. With the order (lists), an attempt left open on a cancelled
 * or expired order reads 「未付款」 and cash on delivery 「到貨收款」; alone, it is the attempt's state.
 */
export function PaymentStateBadge({ state, order }: { state: PaymentState | null; order?: { paymentMethod: AdminOrderRow['paymentMethod']; status: OrderStatus } }) {
  const text = order ? paymentStateText(order.paymentMethod, state, order.status) : state ? PAYMENT_STATE_LABELS[state] : '未付款';
  const tone: BadgeTone = !state || text !== PAYMENT_STATE_LABELS[state] ? 'neutral' : PAYMENT_TONES[state];
  return <Badge tone={tone}>{text}</Badge>;
}

/** A titled card of the detail page. */
export function Panel({ title, children, actions, className = '' }: { title: string; children: ReactNode; actions?: ReactNode; className?: string }) {
  return (
    <section aria-label={title} className={`min-w-0 rounded-xl border border-line bg-surface p-5 ${className}`}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 className="font-semibold">{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** Label / value rows. */
export function Facts({ rows }: { rows: ReadonlyArray<readonly [string, ReactNode] | null | false> }) {
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm">
      {rows.map(
        (row) =>
          row && (
            <div key={row[0]} className="contents">
              <dt className="text-ink-muted">{row[0]}</dt>
              <dd className="break-words">{row[1]}</dd>
            </div>
          ),
      )}
    </dl>
  );
}
