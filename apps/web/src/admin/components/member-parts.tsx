import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { PageOf } from '@shop/shared/admin';
import type { TiersResponse } from '@shop/shared/admin-coupons';
import type { MemberDetail, MemberListQuery, MemberRow } from '@shop/shared/admin-members';
import { Badge } from '../../components/ui/badge.tsx';
import { apiGet } from '../../lib/api-client.ts';
import { adminKeys, toQueryString } from '../api/admin-api.ts';

/** Query keys of the members pages (under 'admin', like every console key). */
export const memberKeys = {
  all: [...adminKeys.all, 'members'] as const,
  list: (q: Partial<MemberListQuery>) => [...adminKeys.all, 'members', 'list', q] as const,
  detail: (id: string) => [...adminKeys.all, 'members', 'detail', id] as const,
};

export const membersQuery = (q: Partial<MemberListQuery>) =>
  queryOptions({
    queryKey: memberKeys.list(q),
    queryFn: ({ signal }) => apiGet<PageOf<MemberRow>>(`/api/admin/members${toQueryString(q)}`, { signal }),
    placeholderData: keepPreviousData,
  });

export const memberQuery = (id: string) =>
  queryOptions({ queryKey: memberKeys.detail(id), queryFn: ({ signal }) => apiGet<MemberDetail>(`/api/admin/members/${encodeURIComponent(id)}`, { signal }) });

/** The tiers (names for filters and badges); shared with the tiers page. */
export const tiersQuery = () =>
  queryOptions({ queryKey: [...adminKeys.all, 'tiers'] as const, queryFn: ({ signal }) => apiGet<TiersResponse>('/api/admin/tiers', { signal }), staleTime: 60_000 });

const dateParts = (iso: string, withTime: boolean) => {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Asia/Taipei',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    ...(withTime ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' as const } : {}),
  }).formatToParts(new Date(iso));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return withTime ? `${get('year')}/${get('month')}/${get('day')} ${get('hour')}:${get('minute')}` : `${get('year')}/${get('month')}/${get('day')}`;
};

/** yyyy/MM/dd in Taiwan time. */
export const formatDate = (iso: string) => dateParts(iso, false);
/** yyyy/MM/dd HH:mm in Taiwan time. */
export const formatDateTime = (iso: string) => dateParts(iso, true);

export function MemberStatusBadge({ disabledAt }: { disabledAt: string | null }) {
  return disabledAt ? <Badge tone="danger">已停用</Badge> : <Badge tone="success">使用中</Badge>;
}

