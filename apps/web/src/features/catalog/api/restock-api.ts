import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { RestockRequestsResponse } from '@shop/shared/wishlist';
import { apiDelete, apiGet, apiPost } from '../../../lib/api-client.ts';
import { toast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/form.ts';

/** The variants the member waits for (貨到通知). */
export const restockQueryOptions = () =>
  queryOptions({
    queryKey: ['restock-requests'],
    queryFn: ({ signal }) => apiGet<RestockRequestsResponse>('/api/restock-requests', { signal }),
    staleTime: 60_000,
  });

export function useRestockRequest() {
  const client = useQueryClient();
  const key = restockQueryOptions().queryKey;
  return useMutation({
    mutationFn: ({ variantId, wait }: { variantId: string; wait: boolean }) =>
      wait
        ? apiPost<void>('/api/restock-requests', { variantId })
        : apiDelete<void>(`/api/restock-requests/${variantId}`),
    onError: (error) => toast.error(errorMessage(error)),
    onSuccess: (_data, { variantId, wait }) => {
      client.setQueryData(key, (r: RestockRequestsResponse | undefined) => ({
        variantIds: [...(r?.variantIds ?? []).filter((id) => id !== variantId), ...(wait ? [variantId] : [])],
      }));
      toast.success(wait ? '已登記貨到通知，到貨時會寄信給您' : '已取消貨到通知');
    },
  });
}
