import { defaultRetries, isErrorStatus, isRetryableStatus, requestTimeout } from '@shop/shared/http-policy';
import { type ApiError, networkError, toApiError } from './api-error.ts';
import { isMobileDevice } from './device.ts';
import { requestScope } from './request-scope.ts';

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler = () => {};
/** Bumped when a deliberate sign-out starts: a 401 to a request sent before it is expected, not news. */
let signOutGeneration = 0;
let signingOut = false;

/** The app decides what a 401 means (clear the user, go to /login); set once at start. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

/**
 * The person chose to sign out: until `signOutDone`, and for every request sent before, a 401 is
 * the sign-out itself, so it leaves the page to the sign-out flow instead of sending it to /login.
 */
export function signOutStarted(): void {
  signOutGeneration += 1;
  signingOut = true;
}

export function signOutDone(): void {
  signingOut = false;
}

/**
 * Something other than a 401 showed the session is gone (the current-user lookup answered
 * "nobody" while the browser still held the session hint): handled exactly like a 401.
 */
export function reportSessionEnded(): void {
  if (!signingOut) onUnauthorized();
}

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  /** Override the default (writes 0 retries, reads 1; docs/product-rules.md#http-behaviour). */
  retry?: number;
  timeout?: number;
}

/** Aborts after `ms` or when `outer` aborts; built by hand where AbortSignal.any/timeout are missing (older Safari). */
function requestSignal(ms: number, outer?: AbortSignal): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('timed out', 'TimeoutError')), ms);
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onAbort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * The one way to call the API, on plain fetch (see docs/decisions/004). Applies the retry and
 * time-out policy of docs/product-rules.md#http-behaviour: 400–599 are errors; 408, 409, 425, 429, 500, 502, 503 and 504
 * are retried, writes 0 times by default and other methods once; 30 s on desktop, 60 s on mobile.
 * Throws ApiError with the server's code and zh-TW message; no answer at all is
 * `network-request-failed`.
 */
export async function api<T>(method: string, url: string, options: RequestOptions = {}): Promise<T> {
  const retries = options.retry ?? defaultRetries(method);
  const timeout = options.timeout ?? requestTimeout(isMobileDevice());
  const hasBody = options.body !== undefined;
  const generation = signOutGeneration;
  for (let attempt = 0; ; attempt++) {
    const { signal, done } = requestSignal(timeout, options.signal);
    let res: Response;
    let body: unknown;
    try {
      // On the server (a page rendered before it is sent) the request's scope answers in-process.
      res = await (requestScope()?.fetch ?? fetch)(url, {
        method,
        credentials: 'same-origin',
        headers: { accept: 'application/json', ...(hasBody ? { 'content-type': 'application/json' } : {}) },
        body: hasBody ? JSON.stringify(options.body) : null,
        signal,
      });
      body = await readBody(res);
    } catch (error) {
      // The caller cancelled: pass the abort on untouched (react-query expects it).
      if (options.signal?.aborted) throw error;
      if (attempt < retries) continue;
      throw networkError();
    } finally {
      done();
    }
    if (!isErrorStatus(res.status)) return body as T;
    if (attempt < retries && isRetryableStatus(res.status)) continue;
    const apiError: ApiError = toApiError(res.status, body);
    if (apiError.status === 401 && !signingOut && generation === signOutGeneration) onUnauthorized();
    // The shop closed for maintenance: a full load of /maintenance, where the server answers its
    // plain page (docs/product-rules.md#maintenance-mode), which goes back to this page when the
    // shop opens again (`next`). Never a loop: that page has no script.
    // (A literal: config/paths.ts would pull the route table into this shared chunk.)
    if (apiError.status === 503 && apiError.code === 'maintenance' && typeof location !== 'undefined')
      location.replace('/maintenance?next=' + encodeURIComponent(location.pathname + location.search));
    throw apiError;
  }
}

export const apiGet = <T>(url: string, options?: RequestOptions) => api<T>('GET', url, options);
export const apiPost = <T>(url: string, body?: unknown, options?: RequestOptions) =>
  api<T>('POST', url, { ...options, body });
export const apiPut = <T>(url: string, body?: unknown, options?: RequestOptions) =>
  api<T>('PUT', url, { ...options, body });
export const apiPatch = <T>(url: string, body?: unknown, options?: RequestOptions) =>
  api<T>('PATCH', url, { ...options, body });
export const apiDelete = <T>(url: string, options?: RequestOptions) => api<T>('DELETE', url, options);
