import type { PageOf } from '@shop/shared/admin';
import type { AdminOrderDetail, AdminOrderFilters, AdminOrderRow, OrderActionBody } from '@shop/shared/admin-orders';
import { apiGet, apiPost } from '../../lib/api-client.ts';
import { adminApiUrl, seg } from '../shared/api.ts';

/** The console's order calls. */
export const ordersApi = {
  list: (filters: AdminOrderFilters & { page: number }, signal?: AbortSignal) => apiGet<PageOf<AdminOrderRow>>(adminApiUrl('/orders', filters), { signal }),
  detail: (orderNo: string, signal?: AbortSignal) => apiGet<AdminOrderDetail>(adminApiUrl(`/orders/${seg(orderNo)}`), { signal }),
  action: (orderNo: string, body: OrderActionBody) => apiPost<AdminOrderDetail>(adminApiUrl(`/orders/${seg(orderNo)}/actions`), body),
  /** Where the 「匯出 CSV」 link downloads the filtered list from (the session cookie goes along). */
  csvUrl: (filters: AdminOrderFilters) => adminApiUrl('/orders/export.csv', filters),
};
