import { queryOptions } from '@tanstack/react-query';
import type { CvsMapForm, CvsMapFormBody } from '@shop/shared/logistics';
import type { CancelOrderResponse, OrderDetail, OrderListResponse, PaymentForm } from '@shop/shared/orders';
import type { RefundAccount, ReturnRequestBody } from '@shop/shared/returns';
import { apiGet, apiPost, apiPut } from '../../../lib/api-client.ts';
import { networkError, toApiError } from '../../../lib/api-error.ts';
import { submitPaymentForm } from '../../../lib/payment-form.ts';

export type OrderFilter =
  'all' | 'in-transit' | 'pending_payment' | 'processing' | 'shipped' | 'completed' | 'cancelled';

export const ordersQueryOptions = (status: OrderFilter, page: number) =>
  queryOptions({
    queryKey: ['orders', 'list', status, page],
    queryFn: ({ signal }) =>
      apiGet<OrderListResponse>(
        `/api/orders?${new URLSearchParams({ status, page: String(page) }).toString()}`,
        { signal },
      ),
    placeholderData: (previous) => previous,
  });

export const orderQueryOptions = (orderNo: string) =>
  queryOptions({
    queryKey: ['orders', 'detail', orderNo],
    queryFn: ({ signal }) => apiGet<OrderDetail>(`/api/orders/${encodeURIComponent(orderNo)}`, { signal }),
  });

/** Cancels an unpaid order; its lines go back to the cart (`cartNote` says how). */
export const cancelOrder = (orderNo: string) =>
  apiPost<CancelOrderResponse>(`/api/orders/${encodeURIComponent(orderNo)}/cancel`);
export const payOrderAgain = (orderNo: string) =>
  apiPost<{ payment: PaymentForm }>(`/api/orders/${encodeURIComponent(orderNo)}/pay`);
/** The new pickup store for a parcel whose store closed (the map trip's token). */
export const changePickupStore = (orderNo: string, token: string) =>
  apiPost<OrderDetail>(`/api/orders/${encodeURIComponent(orderNo)}/pickup-store`, { token });
/**
 * To the store map for a parcel's new store (checkout's own helper lives with the checkout: shared,
 * it would become one more chunk every page's preload list names, over the first-load budget).
 */
export const openNewStoreMap = async (body: CvsMapFormBody) =>
  submitPaymentForm(await apiPost<CvsMapForm>('/api/logistics/map', body));

const orderUrl = (orderNo: string) => `/api/orders/${encodeURIComponent(orderNo)}`;

/** Asks to return some of a delivered order's items. */
export const requestReturn = (orderNo: string, body: ReturnRequestBody) =>
  apiPost<OrderDetail>(`${orderUrl(orderNo)}/returns`, body);

/** Gives the bank account a transfer refund goes to. */
export const giveRefundAccount = (orderNo: string, body: RefundAccount) =>
  apiPut<OrderDetail>(`${orderUrl(orderNo)}/refund-account`, body);

/** Uploads one photo for a return request (the picture's bytes as the body); answers its stored name. */
export async function uploadReturnPhoto(
  orderNo: string,
  file: File,
  signal?: AbortSignal,
): Promise<{ name: string; url: string }> {
  let res: Response;
  try {
    res = await fetch(`${orderUrl(orderNo)}/return-photos`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': file.type || 'application/octet-stream', accept: 'application/json' },
      body: file,
      signal: signal ?? null,
    });
  } catch {
    throw networkError();
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) throw toApiError(res.status, body);
  return body as { name: string; url: string };
}
