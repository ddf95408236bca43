import type { AdminReturnsResponse, TransferTasksResponse } from '@shop/shared/returns';
import { apiGet, apiPost } from '../../lib/api-client.ts';
import { adminApiUrl, seg } from '../shared/api.ts';

export type ReturnRow = AdminReturnsResponse['items'][number];

/** Which returns the console lists: open (requested and approved), one status, or all. */
export type ReturnsFilter = 'open' | 'requested' | 'approved' | 'received' | 'refused' | 'all';

/** The console's calls for returns and the transfers staff make for ATM and cash-on-delivery refunds. */
export const returnsApi = {
  list: (q: { status: ReturnsFilter; page: number }, signal?: AbortSignal) =>
    apiGet<AdminReturnsResponse>(adminApiUrl('/returns', { status: q.status, page: q.page }), { signal }),
  transfers: (signal?: AbortSignal) =>
    apiGet<TransferTasksResponse>(adminApiUrl('/refunds/transfers'), { signal }),
  /** The transfer was made: answers the tasks still waiting. */
  transferDone: (id: string, note: string) =>
    apiPost<TransferTasksResponse>(adminApiUrl(`/refunds/${seg(id)}/done`), { note }),
};
