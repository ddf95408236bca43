import { redirect, type LoaderFunctionArgs } from 'react-router';
import { decideGuard, type GuardState } from '@shop/shared/routes';
import { isExternalTarget } from '@shop/shared/redirect-target';
import type { RedirectLookupResponse } from '@shop/shared/redirects';
import { hasSessionCookie } from '../lib/cookies.ts';
import { useResetPasswordStore } from '../features/auth/stores/reset-password-store.ts';
import { lookupRedirect, productQueryOptions } from '../features/catalog/api/product-api.ts';
import { queryClient } from '../lib/query-client.ts';

export function currentGuardState(): GuardState {
  return {
    signedIn: hasSessionCookie(),
    resetPasswordAuth: useResetPasswordStore.getState().resetPasswordAuth,
  };
}

/** Runs the guard table (docs/product-rules.md) for the URL being opened; throws a redirect when needed. */
export function guardRequest(request: Request, state: GuardState = currentGuardState()): void {
  const url = new URL(request.url);
  const decision = decideGuard(url.pathname, url.search, state);
  if (decision.kind === 'redirect') throw redirect(decision.to);
  if (decision.kind === 'not-found') throw new Response('Not Found', { status: 404 });
}

export function guardLoader({ request }: LoaderFunctionArgs): null {
  guardRequest(request);
  return null;
}

export type Navigate = (url: string) => void;

/**
 * The redirect check (docs/product-rules.md) for /mall/:productId: an absolute external target is a full-page
 * navigation; an in-app target replaces the route; no redirect renders the page.
 */
export async function redirectCheck(
  pathname: string,
  lookup: (path: string) => Promise<RedirectLookupResponse> = lookupRedirect,
  fullPage: Navigate = (url) => window.location.assign(url),
): Promise<void> {
  let result: RedirectLookupResponse;
  try {
    result = await lookup(pathname);
  } catch {
    // The lookup is a convenience for old links; if it fails the page itself decides.
    return;
  }
  const target = result.redirect?.target;
  if (!target || target === pathname) return;
  // On the server the answer itself is the redirect, wherever it points.
  if (isExternalTarget(target) && typeof window !== 'undefined') {
    fullPage(target);
    // Keep the router waiting while the browser leaves.
    await new Promise(() => {});
  }
  throw redirect(target);
}

export async function productLoader({ request, params }: LoaderFunctionArgs): Promise<null> {
  guardRequest(request);
  await redirectCheck(new URL(request.url).pathname);
  // The page's data starts loading with its code; the page shows a skeleton until it arrives.
  // (On the server the page's own render asks for it.)
  if (params.productId && typeof window !== 'undefined')
    void queryClient.prefetchQuery(productQueryOptions(params.productId));
  return null;
}
