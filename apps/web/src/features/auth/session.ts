import type { CurrentUser } from '@shop/shared/auth';
import { matchRoute, safeReturnPath } from '@shop/shared/routes';
import { paths } from '../../config/paths.ts';
import { queryClient } from '../../lib/query-client.ts';
import { signOutDone } from '../../lib/api-client.ts';
import { clearSessionHint } from '../../lib/cookies.ts';
import { currentUserQueryOptions } from './api/get-current-user.ts';
import { useResetPasswordStore } from './stores/reset-password-store.ts';
import { believesSignedIn, useUserStore } from './stores/user-store.ts';

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
  signOutDone();
}

/**
 * Where the sign-in and sign-up pages send someone afterwards: `safeReturnPath`'s in-app path, or
 * a console path (`/admin…`, plain segments only): staff signing in from the console go back to
 * it, and the console answers a path it does not know itself (docs/product-rules.md#routes-and-guards).
 * Here rather than in routes.ts, which every page loads first: only the sign-in pages need it.
 */
export function signInReturnPath(value: string | null | undefined): string {
  const pathname = value?.split(/[?#]/, 1)[0];
  return pathname && /^\/admin(\/[\w-]+)*$/.test(pathname) ? value! : safeReturnPath(value);
}

/** Pages only a signed-in person can use: the member pages of the route table and the console. */
export function requiresSignIn(pathname: string): boolean {
  if (pathname === '/admin' || pathname.startsWith('/admin/')) return true;
  return matchRoute(pathname)?.route.access === 'member';
}

/**
 * The server no longer knows this browser's session (a 401, or the current-user lookup finding
 * nobody): a password reset or sign-out elsewhere, an expiry, a disabled account. Whenever the tab
 * believed it was signed in, or shows a page that needs it, the user is forgotten and the tab goes
 * to /login remembering the way back, even if an earlier answer already emptied the user store.
 * Only an anonymous visitor on a public page stays where they are: they had nothing to lose.
 */
export function handleSessionEnded(
  location: { pathname: string; search: string },
  navigate: (to: string) => void,
  believedSignedIn: boolean = believesSignedIn(),
): void {
  if (!believedSignedIn && !requiresSignIn(location.pathname)) return;
  useUserStore.getState().clearUserInfo();
  clearSessionHint();
  queryClient.removeQueries({ queryKey: ['auth'] });
  if (location.pathname !== paths.login()) navigate(paths.login(location.pathname + location.search));
}
