import { queryOptions } from '@tanstack/react-query';
import type { CvsMapForm, CvsMapFormBody } from '@shop/shared/logistics';
import type { OrderDetail, OrderListResponse, PaymentForm } from '@shop/shared/orders';
import { apiGet, apiPost } from '../../../lib/api-client.ts';
import { submitPaymentForm } from '../../../lib/payment-form.ts';

export type OrderFilter = 'all' | 'in-transit' | 'pending_payment' | 'processing' | 'shipped' | 'completed' | 'cancelled';

export const ordersQueryOptions = (status: OrderFilter, page: number) =>
  queryOptions({
    queryKey: ['orders', 'list', status, page],
    queryFn: ({ signal }) => apiGet<OrderListResponse>(`/api/orders?${new URLSearchParams({ status, page: String(page) }).toString()}`, { signal }),
    placeholderData: (previous) => previous,
  });

export const orderQueryOptions = (orderNo: string) =>
  queryOptions({
    queryKey: ['orders', 'detail', orderNo],
    queryFn: ({ signal }) => apiGet<OrderDetail>(`/api/orders/${encodeURIComponent(orderNo)}`, { signal }),
  });

export const cancelOrder = (orderNo: string) => apiPost<OrderDetail>(`/api/orders/${encodeURIComponent(orderNo)}/cancel`);
export const payOrderAgain = (orderNo: string) => apiPost<{ payment: PaymentForm }>(`/api/orders/${encodeURIComponent(orderNo)}/pay`);
/** The new pickup store for a parcel whose store closed (the map trip's token). */
export const changePickupStore = (orderNo: string, token: string) => apiPost<OrderDetail>(`/api/orders/${encodeURIComponent(orderNo)}/pickup-store`, { token });
/**
 * To the store map for a parcel's new store (checkout's own helper lives with the checkout: shared,
 * it would become one more chunk every page's preload list names, over the first-load budget).
 */
export const openNewStoreMap = async (body: CvsMapFormBody) => submitPaymentForm(await apiPost<CvsMapForm>('/api/logistics/map', body));
