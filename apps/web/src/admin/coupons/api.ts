import type { PageOf } from '@shop/shared/admin';
import type {
  CouponBodyInput,
  CouponDetail,
  CouponListQuery,
  CouponOptions,
  CouponRow,
} from '@shop/shared/admin-coupons';
import { apiGet, apiPost, apiPut } from '../../lib/api-client.ts';
import { adminApiUrl, seg } from '../shared/api.ts';

/** The console's coupon calls. */
export const couponsApi = {
  list: (q: Partial<CouponListQuery>, signal?: AbortSignal) =>
    apiGet<PageOf<CouponRow>>(adminApiUrl('/coupons', q), { signal }),
  detail: (id: string, signal?: AbortSignal) =>
    apiGet<CouponDetail>(adminApiUrl(`/coupons/${seg(id)}`), { signal }),
  options: (signal?: AbortSignal) => apiGet<CouponOptions>(adminApiUrl('/coupons/options'), { signal }),
  create: (body: CouponBodyInput) => apiPost<CouponDetail>(adminApiUrl('/coupons'), body),
  update: (id: string, body: CouponBodyInput) =>
    apiPut<CouponDetail>(adminApiUrl(`/coupons/${seg(id)}`), body),
  /** Pause (a paused code is refused at checkout at once) or resume. */
  setPaused: (id: string, paused: boolean) =>
    apiPost<CouponDetail>(adminApiUrl(`/coupons/${seg(id)}/${paused ? 'pause' : 'resume'}`)),
};
