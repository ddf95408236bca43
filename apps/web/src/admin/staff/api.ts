import type { CreateStaffResponse, StaffRole } from '@shop/shared/admin';
import type { RevokeStaffResponse, StaffListResponse, StaffRow } from '@shop/shared/admin-members';
import type { z } from 'zod';
import { apiGet, apiPatch, apiPost } from '../../lib/api-client.ts';
import { adminApiUrl, seg } from '../shared/api.ts';

export type StaffInviteSent = z.infer<typeof CreateStaffResponse>;

/** The console's staff-account calls (owners only). */
export const staffApi = {
  list: (signal?: AbortSignal) => apiGet<StaffListResponse>(adminApiUrl('/staff'), { signal }),
  invite: (body: { email: string; role: StaffRole }) => apiPost<StaffInviteSent>(adminApiUrl('/staff'), body),
  setRole: (id: string, role: StaffRole) => apiPatch<StaffRow>(adminApiUrl(`/staff/${seg(id)}`), { role }),
  revoke: (id: string) => apiPost<RevokeStaffResponse>(adminApiUrl(`/staff/${seg(id)}/revoke`)),
};
