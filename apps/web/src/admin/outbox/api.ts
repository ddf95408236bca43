import type { OutboxListQuery, OutboxListResponse, OutboxRow } from '@shop/shared/admin-outbox';
import { apiGet, apiPost } from '../../lib/api-client.ts';
import { adminApiUrl, seg } from '../shared/api.ts';

/** The console's calls for the outbox: what waits or failed, and sending one again. */
export const outboxApi = {
  list: (q: OutboxListQuery, signal?: AbortSignal) =>
    apiGet<OutboxListResponse>(adminApiUrl('/outbox', { ...q }), { signal }),
  retry: (id: number) => apiPost<OutboxRow>(adminApiUrl(`/outbox/${seg(String(id))}/retry`), {}),
  hold: (signal?: AbortSignal) => apiGet<OutboxHold>(adminApiUrl('/outbox/hold'), { signal }),
  release: () => apiPost<OutboxHold>(adminApiUrl('/outbox/release'), {}),
};

/** Whether a restored shop's outbox is held, since when, and how much waits. */
export interface OutboxHold {
  held: boolean;
  since: string | null;
  reason: string | null;
  pending: number;
}
