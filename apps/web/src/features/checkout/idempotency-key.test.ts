import { afterEach, describe, expect, it, vi } from 'vitest';
import { newIdempotencyKey } from './idempotency-key.ts';

describe('the checkout idempotency key', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is made without crypto.randomUUID (missing on plain http and before Safari 15.4), as a v4 UUID the server takes', () => {
    const real = globalThis.crypto;
    const getRandomValues = <T extends ArrayBufferView>(array: T) =>
      real.getRandomValues(array as never) as T;
    vi.stubGlobal('crypto', { getRandomValues });
    expect((globalThis.crypto as { randomUUID?: unknown }).randomUUID).toBeUndefined();
    const key = newIdempotencyKey();
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The server's rule for the key (PlaceOrderBody).
    expect(key).toMatch(/^[A-Za-z0-9-]{16,64}$/);
    expect(newIdempotencyKey()).not.toBe(key);
  });
});
