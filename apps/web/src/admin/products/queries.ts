import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { adminKeys } from '../shared/api.ts';
import { productsApi, type ProductListFilters } from './api.ts';

/** Console query keys for products (all under 'admin', like every console query). */
export const productKeys = {
  all: [...adminKeys.all, 'products'] as const,
  lists: () => [...adminKeys.all, 'products', 'list'] as const,
  list: (filters: Record<string, string | number>) => [...adminKeys.all, 'products', 'list', filters] as const,
  detail: (id: string) => [...adminKeys.all, 'products', 'detail', id] as const,
};

export const productListQuery = (filters: ProductListFilters) =>
  queryOptions({ queryKey: productKeys.list({ ...filters }), queryFn: ({ signal }) => productsApi.list(filters, signal), placeholderData: keepPreviousData });

export const productDetailQuery = (id: string) => queryOptions({ queryKey: productKeys.detail(id), queryFn: ({ signal }) => productsApi.detail(id, signal) });
