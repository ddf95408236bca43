import type { PageOf } from '@shop/shared/admin';
import type { TiersResponse, UpdateTiersBody } from '@shop/shared/admin-coupons';
import type {
  MemberDetail,
  MemberListQuery,
  MemberRow,
  MemberStatusResponse,
} from '@shop/shared/admin-members';
import { apiGet, apiPost, apiPut } from '../../lib/api-client.ts';
import { adminApiUrl, seg } from '../shared/api.ts';

/** The console's member and membership-tier calls. */
export const membersApi = {
  list: (q: Partial<MemberListQuery>, signal?: AbortSignal) =>
    apiGet<PageOf<MemberRow>>(adminApiUrl('/members', q), { signal }),
  detail: (id: string, signal?: AbortSignal) =>
    apiGet<MemberDetail>(adminApiUrl(`/members/${seg(id)}`), { signal }),
  /** Disables (with a reason; the member's sessions end) or enables an account. */
  setDisabled: (id: string, disabled: boolean, body: { reason: string }) =>
    apiPost<MemberStatusResponse>(
      adminApiUrl(`/members/${seg(id)}/${disabled ? 'disable' : 'enable'}`),
      body,
    ),
  tiers: (signal?: AbortSignal) => apiGet<TiersResponse>(adminApiUrl('/tiers'), { signal }),
  /** Sends the rows as typed; the server checks them again and answers field errors. */
  saveTiers: (body: { tiers: Array<Partial<UpdateTiersBody['tiers'][number]>> }) =>
    apiPut<TiersResponse>(adminApiUrl('/tiers'), body),
};
