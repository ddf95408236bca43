import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { MemberListQuery } from '@shop/shared/admin-members';
import { adminKeys } from '../shared/api.ts';
import { membersApi } from './api.ts';

/** Query keys of the members pages (under 'admin', like every console key). */
export const memberKeys = {
  all: [...adminKeys.all, 'members'] as const,
  list: (q: Partial<MemberListQuery>) => [...adminKeys.all, 'members', 'list', q] as const,
  detail: (id: string) => [...adminKeys.all, 'members', 'detail', id] as const,
};

export const membersQuery = (q: Partial<MemberListQuery>) =>
  queryOptions({
    queryKey: memberKeys.list(q),
    queryFn: ({ signal }) => membersApi.list(q, signal),
    placeholderData: keepPreviousData,
  });

export const memberQuery = (id: string) =>
  queryOptions({ queryKey: memberKeys.detail(id), queryFn: ({ signal }) => membersApi.detail(id, signal) });

/** The tiers (names for filters and badges); shared with the tiers and coupons pages. */
export const tiersQuery = () =>
  queryOptions({
    queryKey: [...adminKeys.all, 'tiers'] as const,
    queryFn: ({ signal }) => membersApi.tiers(signal),
    staleTime: 60_000,
  });
