import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { adminKeys } from '../shared/api.ts';
import { productsApi, type ProductListFilters } from './api.ts';

/** Console query keys for products (all under 'admin', like every console query). */
export const productKeys = {
  all: [...adminKeys.all, 'products'] as const,
  lists: () => [...adminKeys.all, 'products', 'list'] as const,
  list: (filters: Record<string, string | number>) =>
    [...adminKeys.all, 'products', 'list', filters] as const,
  detail: (id: string) => [...adminKeys.all, 'products', 'detail', id] as const,
  stockHistory: (productId: string, variantId: string, page: number) =>
    [...adminKeys.all, 'products', 'detail', productId, 'stock-history', variantId, page] as const,
};

export const productListQuery = (filters: ProductListFilters) =>
  queryOptions({
    queryKey: productKeys.list({ ...filters }),
    queryFn: ({ signal }) => productsApi.list(filters, signal),
    placeholderData: keepPreviousData,
  });

export const productDetailQuery = (id: string) =>
  queryOptions({ queryKey: productKeys.detail(id), queryFn: ({ signal }) => productsApi.detail(id, signal) });

/** A variant's stock ledger, one page; under the product's detail key, so what refreshes the product refreshes it. */
export const stockHistoryQuery = (productId: string, variantId: string, page: number) =>
  queryOptions({
    queryKey: productKeys.stockHistory(productId, variantId, page),
    queryFn: ({ signal }) => productsApi.stockHistory(productId, variantId, page, signal),
    placeholderData: keepPreviousData,
  });
