import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ShippingRules } from '@shop/shared/shipping';
import { apiGet } from '../../../lib/api-client.ts';

/**
 * The shipping fee table in force, from the server (the owner edits it in the console). Every page
 * that names a fee or a free-shipping threshold reads it here, so no page can quote an amount
 * checkout would not charge.
 */
export const shippingRulesQueryOptions = () =>
  queryOptions({
    queryKey: ['site', 'shipping-rules'],
    queryFn: ({ signal }) => apiGet<ShippingRules>('/api/site/shipping-rules', { signal }),
    staleTime: 10_000,
  });

export function useShippingRules() {
  return useQuery(shippingRulesQueryOptions());
}
