import { queryOptions } from '@tanstack/react-query';
import type { CvsBrandCode, QuoteBody, QuoteResponse } from '@shop/shared/checkout';
import type { PlaceOrderBody } from '@shop/shared/checkout';
import type { PlaceOrderResponse } from '@shop/shared/orders';
import { apiGet, apiPost } from '../../../lib/api-client.ts';

export const quoteQueryOptions = (body: QuoteBody) =>
  queryOptions({
    queryKey: ['checkout', 'quote', body],
    queryFn: ({ signal }) => apiPost<QuoteResponse>('/api/checkout/quote', body, { signal, retry: 1 }),
    placeholderData: (previous) => previous,
  });

export const storesQueryOptions = (brand: CvsBrandCode, q: string) =>
  queryOptions({
    queryKey: ['logistics', 'stores', brand, q],
    queryFn: ({ signal }) => apiGet<{ stores: Array<{ brand: CvsBrandCode; id: string; name: string; address: string }> }>(`/api/logistics/stores?brand=${encodeURIComponent(brand)}&q=${encodeURIComponent(q)}`, { signal }),
    staleTime: 5 * 60_000,
  });

export const placeOrder = (body: PlaceOrderBody) => apiPost<PlaceOrderResponse>('/api/orders', body);

export { submitPaymentForm } from '../../../lib/payment-form.ts';
