import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AdminOrderFilters } from '@shop/shared/admin-orders';
import { adminKeys } from '../shared/api.ts';
import { ordersApi } from './api.ts';

/** Query keys of the console's order pages (under 'admin', like every console key). */
export const adminOrderKeys = {
  all: [...adminKeys.all, 'orders'] as const,
  list: (filters: AdminOrderFilters & { page: number }) =>
    [...adminKeys.all, 'orders', 'list', filters] as const,
  detail: (orderNo: string) => [...adminKeys.all, 'orders', 'detail', orderNo] as const,
};

export const adminOrdersQuery = (filters: AdminOrderFilters & { page: number }) =>
  queryOptions({
    queryKey: adminOrderKeys.list(filters),
    queryFn: ({ signal }) => ordersApi.list(filters, signal),
    placeholderData: keepPreviousData,
  });

export const adminOrderQuery = (orderNo: string) =>
  queryOptions({
    queryKey: adminOrderKeys.detail(orderNo),
    queryFn: ({ signal }) => ordersApi.detail(orderNo, signal),
  });
