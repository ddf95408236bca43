import { describe, expect, it, vi } from 'vitest';
import { ChunkLoadError, claimChunkReload, withChunkReload, type ChunkReloadDeps } from './reload-guard.ts';

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
  };
}

describe('chunk reload guard (once per 10 s per path, docs/product-rules.md#http-behaviour)', () => {
  it('allows one reload, refuses a second within 10 s, and allows again after', () => {
    const storage = memoryStorage();
    expect(claimChunkReload('/mall', 1_000, storage)).toBe(true);
    expect(claimChunkReload('/mall', 10_999, storage)).toBe(false);
    expect(claimChunkReload('/mall', 11_000, storage)).toBe(true);
  });

  it('counts each path separately', () => {
    const storage = memoryStorage();
    expect(claimChunkReload('/mall', 0 + 5, storage)).toBe(true);
    expect(claimChunkReload('/cart', 6, storage)).toBe(true);
    expect(claimChunkReload('/mall', 7, storage)).toBe(false);
  });

  it('refuses when storage cannot record the attempt, so it can never loop', () => {
    const storage = {
      getItem: () => null,
      setItem: () => {
        throw new Error('quota');
      },
    };
    expect(claimChunkReload('/mall', 1, storage)).toBe(false);
  });

  it('reloads on the first failure and surfaces ChunkLoadError on the second', async () => {
    let now = 50_000;
    const deps: ChunkReloadDeps = {
      path: () => '/mall',
      now: () => now,
      storage: memoryStorage(),
      reload: vi.fn(),
    };
    const failing = withChunkReload(
      () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
      deps,
    );

    const first = failing();
    const settled = await Promise.race([
      first.then(
        () => 'settled',
        () => 'settled',
      ),
      new Promise((r) => setTimeout(() => r('pending'), 20)),
    ]);
    expect(settled).toBe('pending');
    expect(deps.reload).toHaveBeenCalledTimes(1);

    now += 3_000;
    await expect(failing()).rejects.toBeInstanceOf(ChunkLoadError);
    expect(deps.reload).toHaveBeenCalledTimes(1);
  });

  it("passes an error thrown by the page's own code through as it is: a crash in the browser, not a file that failed to load", async () => {
    const deps: ChunkReloadDeps = {
      path: () => '/payment',
      now: () => 90_000,
      storage: memoryStorage(),
      reload: vi.fn(),
    };
    const crash = new TypeError('crypto.randomUUID is not a function');
    await expect(withChunkReload(() => Promise.reject(crash), deps)()).rejects.toBe(crash);
    expect(deps.reload).not.toHaveBeenCalled();
    // Each browser's words for a file that could not be fetched still count as a failed chunk.
    for (const message of [
      'Failed to fetch dynamically imported module: /assets/payment-1.js',
      'error loading dynamically imported module: /assets/payment-1.js',
      'Importing a module script failed.',
    ]) {
      const failing = withChunkReload(() => Promise.reject(new TypeError(message)), {
        ...deps,
        now: () => 0,
        reload: vi.fn(),
        storage: { getItem: () => String(1), setItem: () => {} },
      });
      await expect(failing()).rejects.toBeInstanceOf(ChunkLoadError);
    }
  });

  it('passes a successful import through untouched', async () => {
    const deps: ChunkReloadDeps = {
      path: () => '/',
      now: () => 0,
      storage: memoryStorage(),
      reload: vi.fn(),
    };
    await expect(withChunkReload(() => Promise.resolve({ default: 1 }), deps)()).resolves.toEqual({
      default: 1,
    });
    expect(deps.reload).not.toHaveBeenCalled();
  });
});
