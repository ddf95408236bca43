import { ofetch, FetchError, type FetchOptions } from 'ofetch';
import { defaultRetries, RETRY_STATUSES, requestTimeout } from '@shop/shared/http-policy';
import { ApiError, networkError, toApiError } from './api-error.ts';
import { isMobileDevice } from './device.ts';

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler = () => {};

/** The app decides what a 401 means (clear the user, go to /login); set once at start. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

const base = ofetch.create({
  baseURL: '/',
  credentials: 'same-origin',
  retryStatusCodes: [...RETRY_STATUSES],
  retryDelay: 0,
  headers: { accept: 'application/json' },
});

export type RequestOptions = Omit<FetchOptions<'json'>, 'method' | 'responseType'> & {
  /** Override the spec §7 default (writes 0 retries, reads 1). */
  retry?: number;
};

/**
 * The one way to call the API. Applies the retry and time-out policy of spec §7 and §9 and throws
 * ApiError with the server's code and zh-TW message; a request that never got an answer throws
 * `network-request-failed`.
 */
export async function api<T>(method: string, url: string, options: RequestOptions = {}): Promise<T> {
  try {
    return await base<T>(url, {
      ...options,
      method: method as FetchOptions['method'],
      retry: options.retry ?? defaultRetries(method),
      timeout: options.timeout ?? requestTimeout(isMobileDevice()),
    });
  } catch (error) {
    throw normalizeError(error);
  }
}

function normalizeError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof FetchError && error.response) {
    const apiError = toApiError(error.response.status, error.data);
    if (apiError.status === 401) onUnauthorized();
    return apiError;
  }
  return networkError();
}

export const apiGet = <T>(url: string, options?: RequestOptions) => api<T>('GET', url, options);
export const apiPost = <T>(url: string, body?: unknown, options?: RequestOptions) =>
  api<T>('POST', url, { ...options, body: body as FetchOptions['body'] });
export const apiPut = <T>(url: string, body?: unknown, options?: RequestOptions) =>
  api<T>('PUT', url, { ...options, body: body as FetchOptions['body'] });
export const apiPatch = <T>(url: string, body?: unknown, options?: RequestOptions) =>
  api<T>('PATCH', url, { ...options, body: body as FetchOptions['body'] });
export const apiDelete = <T>(url: string, options?: RequestOptions) => api<T>('DELETE', url, options);
