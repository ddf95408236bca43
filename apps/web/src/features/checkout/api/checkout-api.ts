import { queryOptions } from '@tanstack/react-query';
import type { QuoteBody, QuoteResponse } from '@shop/shared/checkout';
import type { PlaceOrderBody } from '@shop/shared/checkout';
import type { PlaceOrderResponse } from '@shop/shared/orders';
import { apiPost } from '../../../lib/api-client.ts';

export const quoteQueryOptions = (body: QuoteBody) =>
  queryOptions({
    queryKey: ['checkout', 'quote', body],
    queryFn: ({ signal }) => apiPost<QuoteResponse>('/api/checkout/quote', body, { signal, retry: 1 }),
    placeholderData: (previous) => previous,
  });

export const placeOrder = (body: PlaceOrderBody) => apiPost<PlaceOrderResponse>('/api/orders', body);

export { submitPaymentForm } from '../../../lib/payment-form.ts';
