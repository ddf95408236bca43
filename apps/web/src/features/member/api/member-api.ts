import { queryOptions } from '@tanstack/react-query';
import type {
  ChangeEmailBody,
  MarketingConsent,
  MembershipResponse,
  Profile,
  UpdateProfileBody,
} from '@shop/shared/membership';
import { apiGet, apiPatch, apiPost, apiPut } from '../../../lib/api-client.ts';

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

/** Whether the member agreed to marketing mail (new teas, offers, cart reminders). */
export const marketingConsentQueryOptions = () =>
  queryOptions({
    queryKey: ['membership', 'marketing-consent'],
    queryFn: ({ signal }) => apiGet<MarketingConsent>('/api/me/marketing-consent', { signal }),
  });

export const setMarketingConsent = (granted: boolean) =>
  apiPut<MarketingConsent>('/api/me/marketing-consent', { granted });
