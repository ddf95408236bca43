import type { PageOf } from '@shop/shared/admin';
import type {
  AdminOrderDetail,
  AdminOrderFilters,
  AdminOrderRow,
  OrderActionBody,
  RecipientCorrectionBody,
} from '@shop/shared/admin-orders';
import type { LabelsResponse } from '@shop/shared/logistics';
import { apiGet, apiPatch, apiPost } from '../../lib/api-client.ts';
import { submitPaymentForm } from '../../lib/payment-form.ts';
import { adminApiUrl, seg } from '../shared/api.ts';

/** The console's order calls. */
export const ordersApi = {
  list: (filters: AdminOrderFilters & { page: number }, signal?: AbortSignal) =>
    apiGet<PageOf<AdminOrderRow>>(adminApiUrl('/orders', filters), { signal }),
  detail: (orderNo: string, signal?: AbortSignal) =>
    apiGet<AdminOrderDetail>(adminApiUrl(`/orders/${seg(orderNo)}`), { signal }),
  action: (orderNo: string, body: OrderActionBody) =>
    apiPost<AdminOrderDetail>(adminApiUrl(`/orders/${seg(orderNo)}/actions`), body),
  correctRecipient: (orderNo: string, body: RecipientCorrectionBody) =>
    apiPatch<AdminOrderDetail>(adminApiUrl(`/orders/${seg(orderNo)}/recipient`), body),
  /** Labels of these orders' ECPay parcels: each print page opens in a new tab; answers the orders without one. */
  printLabels: async (orderNos: readonly string[]) => {
    const { forms, missing } = await apiPost<LabelsResponse>(adminApiUrl('/logistics/labels'), { orderNos });
    for (const form of forms) submitPaymentForm(form, '_blank');
    return { printed: forms.reduce((n, f) => n + f.count, 0), missing };
  },
  /** Where the 「匯出 CSV」 link downloads the filtered list from (the session cookie goes along). */
  csvUrl: (filters: AdminOrderFilters) => adminApiUrl('/orders/export.csv', filters),
};
