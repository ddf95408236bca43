import { useQuery } from '@tanstack/react-query';
import type { PaymentOptionsResponse } from '@shop/shared/checkout';
import { apiGet } from '../../../lib/api-client.ts';

/** Whether checkout offers LINE Pay (the server's configuration decides; hidden until it says so). */
export function usePaymentOptions() {
  return useQuery({
    queryKey: ['checkout', 'payment-options'],
    queryFn: ({ signal }) => apiGet<PaymentOptionsResponse>('/api/checkout/payment-options', { signal }),
    staleTime: 60_000,
  });
}
