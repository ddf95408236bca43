import { queryOptions } from '@tanstack/react-query';
import type { ProductDetail } from '@shop/shared/catalog';
import type { RedirectLookupResponse } from '@shop/shared/redirects';
import { apiGet } from '../../../lib/api-client.ts';

// Apart from catalog-api.ts: the route loader of /mall/:productId needs these two on every page's
// first load (app/guards.ts), and nothing of the mall's lists and filters.

export const productQueryOptions = (idOrSlug: string) =>
  queryOptions({
    queryKey: ['catalog', 'product', idOrSlug],
    queryFn: ({ signal }) =>
      apiGet<ProductDetail>(`/api/catalog/products/${encodeURIComponent(idOrSlug)}`, { signal }),
  });

/** Where an old product link now points (the owner's redirects), checked before /mall/:productId renders. */
export const lookupRedirect = (path: string) =>
  apiGet<RedirectLookupResponse>(`/api/redirects?path=${encodeURIComponent(path)}`);
