import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { PageOf } from '@shop/shared/admin';
import { COUPON_STATE_LABELS, type CouponDetail, type CouponListQuery, type CouponOptions, type CouponRow, type CouponState } from '@shop/shared/admin-coupons';
import { Badge, type BadgeTone } from '../../components/ui/badge.tsx';
import { apiGet } from '../../lib/api-client.ts';
import { adminKeys, toQueryString } from '../api/admin-api.ts';

/** Query keys of the coupon pages (under 'admin', like every console key). */
export const couponKeys = {
  all: [...adminKeys.all, 'coupons'] as const,
  list: (q: Partial<CouponListQuery>) => [...adminKeys.all, 'coupons', 'list', q] as const,
  detail: (id: string) => [...adminKeys.all, 'coupons', 'detail', id] as const,
  options: () => [...adminKeys.all, 'coupons', 'options'] as const,
};

export const couponsQuery = (q: Partial<CouponListQuery>) =>
  queryOptions({
    queryKey: couponKeys.list(q),
    queryFn: ({ signal }) => apiGet<PageOf<CouponRow>>(`/api/admin/coupons${toQueryString(q)}`, { signal }),
    placeholderData: keepPreviousData,
  });

export const couponQuery = (id: string) =>
  queryOptions({ queryKey: couponKeys.detail(id), queryFn: ({ signal }) => apiGet<CouponDetail>(`/api/admin/coupons/${encodeURIComponent(id)}`, { signal }) });

export const couponOptionsQuery = () =>
  queryOptions({ queryKey: couponKeys.options(), queryFn: ({ signal }) => apiGet<CouponOptions>('/api/admin/coupons/options', { signal }), staleTime: 60_000 });

const TONES: Record<CouponState, BadgeTone> = { running: 'success', paused: 'amber', upcoming: 'tea', expired: 'neutral' };

/** 進行中 / 已暫停 / 未開始 / 已過期. */
export function CouponStateBadge({ state }: { state: CouponState }) {
  return <Badge tone={TONES[state]}>{COUPON_STATE_LABELS[state]}</Badge>;
}

/** 「7 / 50」 with a thin bar, or 「7 / 不限」. */
export function CouponUsage({ used, limit, align = 'end' }: { used: number; limit: number | null; align?: 'start' | 'end' }) {
  const percent = limit ? Math.min(100, Math.round((used / limit) * 100)) : 0;
  return (
    <span className={`inline-flex min-w-20 flex-col gap-1 ${align === 'end' ? 'items-end' : 'items-start'}`}>
      <span className="tabular whitespace-nowrap">
        {used.toLocaleString('zh-TW')} / {limit === null ? '不限' : limit.toLocaleString('zh-TW')}
      </span>
      {limit !== null && (
        <span className="block h-1.5 w-full overflow-hidden rounded-full bg-line" aria-hidden="true">
          <span className={`block h-full rounded-full ${percent >= 100 ? 'bg-danger' : 'bg-tea'}`} style={{ width: `${percent}%` }} />
        </span>
      )}
    </span>
  );
}
