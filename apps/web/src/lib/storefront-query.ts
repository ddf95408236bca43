import { queryOptions } from '@tanstack/react-query';
import type { StorefrontView } from '@shop/shared/storefront';
import { apiGet } from './api-client.ts';

/** The footer's facts and the measurement IDs (GET /api/site/storefront): on every page, rarely changed. */
export const storefrontQueryOptions = () =>
  queryOptions({
    queryKey: ['site', 'storefront'],
    queryFn: ({ signal }) => apiGet<StorefrontView>('/api/site/storefront', { signal }),
    staleTime: 5 * 60_000,
  });
