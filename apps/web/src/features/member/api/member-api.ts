import { queryOptions } from '@tanstack/react-query';
import type {
  ChangeEmailBody,
  MembershipResponse,
  Profile,
  UpdateProfileBody,
} from '@shop/shared/membership';
import { apiGet, apiPatch, apiPost } from '../../../lib/api-client.ts';

export const membershipQueryOptions = () =>
  queryOptions({
    queryKey: ['membership'],
    queryFn: ({ signal }) => apiGet<MembershipResponse>('/api/me/membership', { signal }),
  });

export const profileQueryOptions = () =>
  queryOptions({
    queryKey: ['membership', 'profile'],
    queryFn: ({ signal }) => apiGet<Profile>('/api/me/profile', { signal }),
  });

export const updateProfile = (body: UpdateProfileBody) => apiPatch<Profile>('/api/me/profile', body);
export const requestEmailChange = (body: ChangeEmailBody) =>
  apiPost<{ pendingEmail: string }>('/api/me/email', body);
