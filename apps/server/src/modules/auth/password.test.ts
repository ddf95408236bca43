import { afterAll, describe, expect, it, vi } from 'vitest';

// Each argon2 hash holds 19 MiB while it runs. Run on every thread of libuv's pool at once (four),
// a burst of sign-ins added 77 MB to the shop's RSS; the checks take turns two at a time instead.
describe('password hashing under a burst of sign-ins', () => {
  afterAll(() => {
    vi.doUnmock('@node-rs/argon2');
    vi.resetModules();
  });

  it('runs at most two argon2 computations at once, and answers every caller', async () => {
    let running = 0;
    let most = 0;
    const work = async <T>(result: T): Promise<T> => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      return result;
    };
    vi.resetModules();
    vi.doMock('@node-rs/argon2', () => ({
      hash: (password: string) => work(`hash:${password}`),
      verify: (stored: string, password: string) => work(stored === `hash:${password}`),
    }));
    const { hashPassword, verifyPassword } = await import('./password.ts');
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => verifyPassword(`hash:secret-${i}`, `secret-${i}`)),
      verifyPassword('hash:right', 'wrong'),
      verifyPassword(null, 'anything'),
      hashPassword('new-password'),
    ]);
    expect(answers).toEqual([true, true, true, true, true, true, false, false, 'hash:new-password']);
    expect(most).toBe(2);
  });
});
