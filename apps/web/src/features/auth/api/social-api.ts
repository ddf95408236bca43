import { queryOptions } from '@tanstack/react-query';
import type {
  SignInMethodsResponse,
  SocialCodeProofBody,
  SocialDoneResponse,
  SocialEmailBody,
  SocialPasswordProofBody,
  SocialPendingResponse,
  SocialProviderId,
} from '@shop/shared/social-sign-in';
import { apiDelete, apiGet, apiPost } from '../../../lib/api-client.ts';

type OkResponse = { ok: true };

/** The trip this browser has waiting (an e-mail to give, or an account to prove). */
export const socialPendingQueryOptions = () =>
  queryOptions({
    queryKey: ['auth', 'social-pending'],
    queryFn: () => apiGet<SocialPendingResponse>('/api/auth/oidc/pending'),
    staleTime: 0,
  });

export const signInMethodsQueryOptions = () =>
  queryOptions({
    queryKey: ['auth', 'sign-in-methods'],
    queryFn: () => apiGet<SignInMethodsResponse>('/api/auth/sign-in-methods'),
  });

export const socialApi = {
  giveEmail: (body: SocialEmailBody) => apiPost<SocialDoneResponse>('/api/auth/oidc/email', body),
  sendProofCode: () => apiPost<OkResponse>('/api/auth/oidc/proof-code/send'),
  proveWithCode: (body: SocialCodeProofBody) =>
    apiPost<SocialDoneResponse>('/api/auth/oidc/proof-code', body),
  proveWithPassword: (body: SocialPasswordProofBody) =>
    apiPost<SocialDoneResponse>('/api/auth/oidc/proof-password', body),
  unlink: (provider: SocialProviderId) => apiDelete<OkResponse>(`/api/auth/sign-in-methods/${provider}`),
};
