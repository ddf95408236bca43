import { queryOptions } from '@tanstack/react-query';
import type { LastRecipientResponse } from '@shop/shared/checkout';
import type { AddressBody, AddressView } from '@shop/shared/membership';
import { apiDelete, apiGet, apiPost, apiPut } from '../../../lib/api-client.ts';

type List = { addresses: AddressView[] };

export const addressesQueryOptions = () =>
  queryOptions({
    queryKey: ['addresses'],
    queryFn: ({ signal }) => apiGet<List>('/api/me/addresses', { signal }),
  });

/** Where the member's last order went: a first checkout on this device with no saved address starts from it. */
export const lastRecipientQueryOptions = () =>
  queryOptions({
    queryKey: ['checkout', 'last-recipient'],
    queryFn: ({ signal }) => apiGet<LastRecipientResponse>('/api/checkout/last-recipient', { signal }),
    staleTime: Infinity,
  });

export const addressApi = {
  add: (body: AddressBody) => apiPost<List>('/api/me/addresses', body),
  edit: (id: string, body: AddressBody) => apiPut<List>(`/api/me/addresses/${encodeURIComponent(id)}`, body),
  makeDefault: (id: string) => apiPost<List>(`/api/me/addresses/${encodeURIComponent(id)}/default`),
  remove: (id: string) => apiDelete<List>(`/api/me/addresses/${encodeURIComponent(id)}`),
};
