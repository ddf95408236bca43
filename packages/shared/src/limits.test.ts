import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  LIVE_UPDATES,
  LONG_POLL_WINDOW_MS,
  QUERY_CACHE_BYTES,
  queryCacheBytes,
  STORAGE_RETRY_LIMIT_MS,
} from './limits.ts';

describe('limits of the specification', () => {
  it('backs off from 1 s by 1.5 to at most 60 s, or a lower cap', () => {
    expect([0, 1, 2, 3].map((n) => backoffDelay(n))).toEqual([1000, 1500, 2250, 3375]);
    expect(backoffDelay(20)).toBe(60_000);
    expect(backoffDelay(20, 30_000)).toBe(30_000);
  });

  it('sizes the client data cache at 40 MiB by default and never below 1 MiB', () => {
    expect(QUERY_CACHE_BYTES).toEqual({ default: 41943040, min: 1048576 });
    expect(queryCacheBytes(undefined)).toBe(41943040);
    expect(queryCacheBytes('')).toBe(41943040);
    expect(queryCacheBytes('lots')).toBe(41943040);
    expect(queryCacheBytes('-5')).toBe(41943040);
    expect(queryCacheBytes('1000')).toBe(1048576);
    expect(queryCacheBytes(' 8388608 ')).toBe(8388608);
    expect(queryCacheBytes(2 ** 30)).toBe(2 ** 30);
  });

  it('keeps the live-update heartbeat, silence and reconnect waits inside the 5–30 s long-polling window', () => {
    for (const ms of [LIVE_UPDATES.heartbeatMs, LIVE_UPDATES.silenceMs, LIVE_UPDATES.reconnectMaxMs]) {
      expect(ms).toBeGreaterThanOrEqual(LONG_POLL_WINDOW_MS.min);
      expect(ms).toBeLessThanOrEqual(LONG_POLL_WINDOW_MS.max);
    }
    // At least one heartbeat can be lost before the client gives the connection up.
    expect(LIVE_UPDATES.silenceMs).toBeGreaterThanOrEqual(2 * LIVE_UPDATES.heartbeatMs);
  });

  it('retries storage uploads for 10 minutes and other operations for 2', () => {
    expect(STORAGE_RETRY_LIMIT_MS).toEqual({ upload: 600_000, operation: 120_000 });
  });
});
