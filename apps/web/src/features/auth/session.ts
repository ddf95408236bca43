import type { CurrentUser } from '@shop/shared/auth';
import { queryClient } from '../../lib/query-client.ts';
import { clearSessionHint } from '../../lib/cookies.ts';
import { currentUserQueryOptions } from './api/get-current-user.ts';
import { useResetPasswordStore } from './stores/reset-password-store.ts';
import { useUserStore } from './stores/user-store.ts';

/** After sign-in or sign-up: the stores and the cached current user agree at once. */
export function rememberSignedIn(user: CurrentUser): void {
  useUserStore.getState().setUserInfo(user);
  queryClient.setQueryData(currentUserQueryOptions().queryKey, user);
}

/** After sign-out (or a session that ended): forget the user and everything cached for them. */
export function forgetSignedIn(): void {
  useUserStore.getState().clearUserInfo();
  useResetPasswordStore.getState().setResetPasswordAuth(false);
  clearSessionHint();
  queryClient.clear();
}
