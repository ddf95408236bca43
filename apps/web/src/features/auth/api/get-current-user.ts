import { queryOptions } from '@tanstack/react-query';
import type { CurrentUser, MeResponse } from '@shop/shared/auth';
import { apiGet, reportSessionEnded } from '../../../lib/api-client.ts';
import { hasSessionCookie } from '../../../lib/cookies.ts';
import { useUserStore } from '../stores/user-store.ts';

export async function getCurrentUser(): Promise<CurrentUser | null> {
  // No session hint: nobody is signed in, no request needed.
  if (!hasSessionCookie()) {
    useUserStore.getState().clearUserInfo();
    return null;
  }
  const { user } = await apiGet<MeResponse>('/api/auth/me');
  if (user) {
    useUserStore.getState().setUserInfo(user);
  } else {
    useUserStore.getState().clearUserInfo();
    // The browser held a session the server no longer knows: the same as a 401.
    reportSessionEnded();
  }
  return user;
}

export const currentUserQueryOptions = () =>
  queryOptions({ queryKey: ['auth', 'me'], queryFn: getCurrentUser, staleTime: 60_000 });

let first: Promise<CurrentUser | null> | null = null;

/**
 * The current-user lookup (docs/product-rules.md#client-stores) resolves once the session state is first known, stores the
 * user info and resolves with it. Later calls share that first answer.
 */
export function whenSessionKnown(): Promise<CurrentUser | null> {
  first ??= getCurrentUser().catch(() => useUserStore.getState().userInfo);
  return first;
}
