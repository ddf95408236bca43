import { queryOptions } from '@tanstack/react-query';
import type { CvsMapForm, CvsMapFormBody, CvsStoreChoice, LogisticsOptions } from '@shop/shared/logistics';
import { apiGet, apiPost } from './api-client.ts';
import { submitPaymentForm } from './payment-form.ts';

/** The chains this shop ships to (OK超商 only on a 店到店 contract). */
export const logisticsOptionsQueryOptions = () =>
  queryOptions({
    queryKey: ['logistics', 'options'],
    queryFn: ({ signal }) => apiGet<LogisticsOptions>('/api/logistics/options', { signal }),
    staleTime: 5 * 60_000,
  });

/** The store chosen on a trip to the map, read back with the member's session. */
export const storeChoiceQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['logistics', 'map', token],
    queryFn: ({ signal }) =>
      apiGet<CvsStoreChoice>(`/api/logistics/map/${encodeURIComponent(token)}`, { signal }),
    retry: false,
    staleTime: Infinity,
  });

/** Leaves for the store map (ECPay's, or the sandbox's): a full-page form post. */
export async function openStoreMap(body: CvsMapFormBody): Promise<void> {
  const form = await apiPost<CvsMapForm>('/api/logistics/map', body);
  submitPaymentForm(form);
}
