import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { CouponListQuery } from '@shop/shared/admin-coupons';
import { adminKeys } from '../shared/api.ts';
import { couponsApi } from './api.ts';

/** Query keys of the coupon pages (under 'admin', like every console key). */
export const couponKeys = {
  all: [...adminKeys.all, 'coupons'] as const,
  lists: () => [...adminKeys.all, 'coupons', 'list'] as const,
  list: (q: Partial<CouponListQuery>) => [...adminKeys.all, 'coupons', 'list', q] as const,
  detail: (id: string) => [...adminKeys.all, 'coupons', 'detail', id] as const,
  options: () => [...adminKeys.all, 'coupons', 'options'] as const,
};

export const couponsQuery = (q: Partial<CouponListQuery>) =>
  queryOptions({
    queryKey: couponKeys.list(q),
    queryFn: ({ signal }) => couponsApi.list(q, signal),
    placeholderData: keepPreviousData,
  });

export const couponQuery = (id: string) =>
  queryOptions({ queryKey: couponKeys.detail(id), queryFn: ({ signal }) => couponsApi.detail(id, signal) });

export const couponOptionsQuery = () =>
  queryOptions({
    queryKey: couponKeys.options(),
    queryFn: ({ signal }) => couponsApi.options(signal),
    staleTime: 60_000,
  });
