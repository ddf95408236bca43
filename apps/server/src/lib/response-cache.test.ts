import { describe, expect, it, vi } from 'vitest';
import { responseCache } from './response-cache.ts';

describe('response cache', () => {
  it('serves a second request from memory until it expires', async () => {
    let t = 0;
    const cache = responseCache({ max: 10, ttlMs: 1000, now: () => t });
    const load = vi.fn(async () => ({ n: 1 }));
    const first = await cache.get('a', load);
    expect(await cache.get('a', load)).toBe(first);
    expect(load).toHaveBeenCalledTimes(1);
    t = 1001;
    await cache.get('a', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('drops everything on invalidate, and never stores an answer loaded across a write', async () => {
    const cache = responseCache({ max: 10, ttlMs: 60_000 });
    await cache.get('a', async () => 1);
    cache.invalidate();
    expect(cache.size).toBe(0);
    let release!: () => void;
    const slow = cache.get('b', () => new Promise((r) => (release = () => r(2))));
    cache.invalidate();
    release();
    await slow;
    expect(cache.size).toBe(0);
  });

  it('drops only the entries asked for, and never stores an answer loaded across a drop', async () => {
    const cache = responseCache({ max: 10, ttlMs: 60_000 });
    const load = vi.fn(async () => 1);
    await cache.get('/p/a', load);
    await cache.get('/p/b', load);
    cache.drop((key) => key === '/p/a');
    expect(cache.size).toBe(1);
    await cache.get('/p/b', load);
    expect(load).toHaveBeenCalledTimes(2);
    let release!: () => void;
    const slow = cache.get('/p/a', () => new Promise((r) => (release = () => r(2))));
    cache.drop((key) => key === '/p/a');
    release();
    await slow;
    expect(cache.size).toBe(1);
  });

  it('keeps at most max entries: a new one takes the place of the least recently used once asked for more often', async () => {
    const cache = responseCache({ max: 2, ttlMs: 60_000 });
    const load = vi.fn(async () => 1);
    await cache.get('a', load);
    await cache.get('b', load);
    await cache.get('a', load);
    // Asked for once, as often as b: not kept.
    await cache.get('c', load);
    expect(cache.size).toBe(2);
    expect(load).toHaveBeenCalledTimes(3);
    await cache.get('b', load);
    expect(load).toHaveBeenCalledTimes(3);
    // Asked for a third time, more often than a and b: kept in place of the least recently used (a).
    await cache.get('c', load);
    await cache.get('c', load);
    expect(load).toHaveBeenCalledTimes(5);
    await cache.get('c', load);
    await cache.get('b', load);
    expect(load).toHaveBeenCalledTimes(5);
    await cache.get('a', load);
    expect(load).toHaveBeenCalledTimes(6);
  });

  it('keeps what it holds when more distinct queries come in turn than it can hold', async () => {
    const cache = responseCache({ max: 100, ttlMs: 60_000 });
    const load = vi.fn(async () => 1);
    const keys = Array.from({ length: 260 }, (_, i) => `/list?page=${i}`);
    for (let round = 0; round < 5; round++) for (const key of keys) await cache.get(key, load);
    // Plain LRU would load all 1,300; the first 100 stay and are served from memory after round one.
    expect(cache.size).toBe(100);
    expect(load).toHaveBeenCalledTimes(260 + 4 * 160);
  });

  it('replaces an expired entry when full, however often it was asked for', async () => {
    let t = 0;
    const cache = responseCache({ max: 1, ttlMs: 1000, now: () => t });
    const load = vi.fn(async () => 1);
    for (let i = 0; i < 5; i++) await cache.get('a', load);
    t = 1001;
    await cache.get('b', load);
    await cache.get('b', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('loads a key once for requests that come while it loads, but afresh after a write', async () => {
    const cache = responseCache({ max: 10, ttlMs: 60_000 });
    const releases: Array<() => void> = [];
    const load = vi.fn(() => new Promise<number>((r) => releases.push(() => r(releases.length))));
    const first = cache.get('/p/a', load);
    const second = cache.get('/p/a', load);
    expect(load).toHaveBeenCalledTimes(1);
    cache.drop((key) => key === '/p/b');
    const third = cache.get('/p/a', load);
    expect(load).toHaveBeenCalledTimes(2);
    for (const release of releases) release();
    expect(await second).toBe(await first);
    expect((await third).json).toBe('2');
    // A failed load fails the requests that waited for it, and the next request tries again.
    const failing = vi.fn(async () => {
      throw new Error('database away');
    });
    await expect(Promise.all([cache.get('/p/c', failing), cache.get('/p/c', failing)])).rejects.toThrow(
      'database away',
    );
    expect(failing).toHaveBeenCalledTimes(1);
    await expect(cache.get('/p/c', failing)).rejects.toThrow('database away');
    expect(failing).toHaveBeenCalledTimes(2);
  });

  it('keeps answers loaded together between 60 % and all of the time allowed, so they do not all expire at once', async () => {
    let t = 0;
    const cache = responseCache({ max: 500, ttlMs: 1000, now: () => t });
    const load = vi.fn(async () => 1);
    for (let i = 0; i < 400; i++) await cache.get(`k${i}`, load);
    const stillCached = async (at: number) => {
      t = at;
      const before = load.mock.calls.length;
      for (let i = 0; i < 400; i++) await cache.get(`k${i}`, load);
      const loaded = load.mock.calls.length - before;
      t = 0;
      return 400 - loaded;
    };
    expect(await stillCached(599)).toBe(400);
    const halfWay = await stillCached(800);
    expect(halfWay).toBeGreaterThan(100);
    expect(halfWay).toBeLessThan(300);
  });

  it('counts and keeps a bounded number of keys, whatever the requests make up', async () => {
    const cache = responseCache({ max: 10, ttlMs: 60_000 });
    const load = vi.fn(async () => 1);
    const long = `/p?${'x'.repeat(2000)}`;
    await cache.get(long, load);
    await cache.get(long, load);
    expect(load).toHaveBeenCalledTimes(2);
    expect(cache.size).toBe(0);
    for (let i = 0; i < 5_000; i++) await cache.get(`/p?junk=${i}`, load);
    expect(cache.size).toBe(10);
    expect(cache.counted).toBeLessThanOrEqual(40);
  });

  it('gives equal bodies equal ETags', async () => {
    const cache = responseCache({ max: 5, ttlMs: 60_000 });
    const a = await cache.get('x', async () => ({ v: [1, 2] }));
    const b = await cache.get('y', async () => ({ v: [1, 2] }));
    expect(a.etag).toBe(b.etag);
  });
});
