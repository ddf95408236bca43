import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { CategoryTreeResponse, ProductListResponse, RelatedResponse } from '@shop/shared/catalog';
import { apiGet } from '../../../lib/api-client.ts';
import { apiQuery, type MallView } from '../search-params.ts';

export const productsQueryOptions = (view: MallView) =>
  queryOptions({
    queryKey: ['catalog', 'products', apiQuery(view)],
    queryFn: ({ signal }) =>
      apiGet<ProductListResponse>(`/api/catalog/products?${apiQuery(view)}`, { signal }),
    placeholderData: keepPreviousData,
  });

export const relatedQueryOptions = (idOrSlug: string) =>
  queryOptions({
    queryKey: ['catalog', 'related', idOrSlug],
    queryFn: ({ signal }) =>
      apiGet<RelatedResponse>(`/api/catalog/products/${encodeURIComponent(idOrSlug)}/related`, { signal }),
  });

export const categoriesQueryOptions = () =>
  queryOptions({
    queryKey: ['catalog', 'categories'],
    queryFn: ({ signal }) => apiGet<CategoryTreeResponse>('/api/catalog/categories', { signal }),
    staleTime: 5 * 60_000,
  });
