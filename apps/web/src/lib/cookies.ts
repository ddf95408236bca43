import { SIGNED_IN_COOKIE } from '@shop/shared/session';
import { requestScope } from './request-scope.ts';

/**
 * The token cookie is HttpOnly (docs/product-rules.md#client-stores); its companion tells the router a session exists.
 * The server trusts only the token, so this is a routing hint, never a credential.
 */
export function hasSessionCookie(cookieString: string = requestScope()?.cookie ?? document.cookie): boolean {
  return cookieString.split(';').some((part) => part.trim().startsWith(`${SIGNED_IN_COOKIE}=`));
}

export function clearSessionHint(): void {
  document.cookie = `${SIGNED_IN_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`;
}
