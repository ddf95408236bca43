import { describe, expect, it } from 'vitest';
import { defaultRetries, isErrorStatus, isRetryableStatus, requestTimeout } from './http-policy.ts';

describe('HTTP policy (docs/product-rules.md#http-behaviour)', () => {
  it('counts 400 to 599 as errors', () => {
    expect(isErrorStatus(399)).toBe(false);
    expect(isErrorStatus(400)).toBe(true);
    expect(isErrorStatus(599)).toBe(true);
    expect(isErrorStatus(600)).toBe(false);
  });
  it('retries exactly 408, 409, 425, 429, 500, 502, 503 and 504', () => {
    const retryable = Array.from({ length: 200 }, (_, i) => 400 + i).filter(isRetryableStatus);
    expect(retryable).toEqual([408, 409, 425, 429, 500, 502, 503, 504]);
  });
  it('does not retry writes by default and retries other methods once', () => {
    for (const m of ['POST', 'put', 'PATCH', 'DELETE']) expect(defaultRetries(m)).toBe(0);
    for (const m of ['GET', 'HEAD', 'options']) expect(defaultRetries(m)).toBe(1);
  });
  it('waits 30 s on desktop and 60 s on mobile', () => {
    expect(requestTimeout(false)).toBe(30_000);
    expect(requestTimeout(true)).toBe(60_000);
  });
});
