/**
 * The product's limits and timings, in one place for the server and the web client.
 * docs/product-rules.md#limits-and-timings says where each one is used and why some do not apply.
 */

/** Most of one item a cart line may hold, whatever the stock (the cart, the product page's quantity box). */
export const MAX_LINE_QUANTITY = 99;

/** Every retry loop's wait: 1 s, then ×1.5 each time, never more than 60 s. */
export const RETRY_BACKOFF = { initialMs: 1000, multiplier: 1.5, maxMs: 60_000 } as const;

/** The wait before retry number `attempt` (0 for the first retry), at most `capMs`. */
export function backoffDelay(attempt: number, capMs: number = RETRY_BACKOFF.maxMs): number {
  return Math.min(capMs, RETRY_BACKOFF.initialMs * RETRY_BACKOFF.multiplier ** Math.max(0, attempt));
}

/**
 * How long storage calls keep retrying a network failure or a retryable status before giving up
 * with `retry-limit-exceeded`: an upload 10 minutes (a large picture on a weak phone signal), any
 * other operation (a read, a delete) 2 minutes.
 */
export const STORAGE_RETRY_LIMIT_MS = { upload: 10 * 60_000, operation: 2 * 60_000 } as const;

/**
 * The longest string value the shop takes: 10 MB. No request can carry one that long (JSON bodies
 * stop at 1 MB, forms at 64 KB, the product CSV import at 2 MB, URLs at 16 KB), so this holds by
 * those limits; the server's test checks that none of them is raised past it.
 */
export const MAX_STRING_VALUE_BYTES = 10 * 1024 * 1024;

/** The web client's data cache: about 40 MiB by default, never less than 1 MiB. */
export const QUERY_CACHE_BYTES = { default: 41_943_040, min: 1_048_576 } as const;

/**
 * The data cache's size from a setting (a number of bytes, or its text): the default when absent
 * or unreadable, raised to the minimum when smaller.
 */
export function queryCacheBytes(setting?: string | number | null): number {
  const text = typeof setting === 'string' ? setting.trim() : setting;
  if (text === undefined || text === null || text === '') return QUERY_CACHE_BYTES.default;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) return QUERY_CACHE_BYTES.default;
  return Math.max(QUERY_CACHE_BYTES.min, Math.floor(value));
}

/** The long-polling window: a live connection is heard from, and waits to come back, within 5–30 s. */
export const LONG_POLL_WINDOW_MS = { min: 5_000, max: 30_000 } as const;

/**
 * The member's live-update stream (/api/events): the server sends a heartbeat every 15 s; a client
 * that hears nothing for 30 s takes the connection for dead (a network that drops packets without a
 * word) and opens a new one; reconnecting backs off from 1 s but never waits more than 30 s.
 */
export const LIVE_UPDATES = { heartbeatMs: 15_000, silenceMs: 30_000, reconnectMaxMs: 30_000 } as const;
