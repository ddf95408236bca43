/**
 * Generic HTTP behaviour (docs/product-rules.md#http-behaviour), shared so the client and its tests agree.
 */

/** Responses with these statuses may be retried (docs/product-rules.md#http-behaviour). */
export const RETRY_STATUSES: readonly number[] = [408, 409, 425, 429, 500, 502, 503, 504];

/** Methods that change state are not retried by default; the rest are retried once. */
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function defaultRetries(method: string): number {
  return WRITE_METHODS.has(method.toUpperCase()) ? 0 : 1;
}

export function isErrorStatus(status: number): boolean {
  return status >= 400 && status <= 599;
}

export function isRetryableStatus(status: number): boolean {
  return RETRY_STATUSES.includes(status);
}

/** Network time-out of every API call (docs/product-rules.md#limits-and-timings): 30 s on desktop, 60 s on mobile. */
export const TIMEOUT_DESKTOP_MS = 30_000;
export const TIMEOUT_MOBILE_MS = 60_000;

export function requestTimeout(isMobile: boolean): number {
  return isMobile ? TIMEOUT_MOBILE_MS : TIMEOUT_DESKTOP_MS;
}
