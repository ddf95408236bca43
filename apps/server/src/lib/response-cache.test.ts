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

  it('keeps at most max entries, forgetting the least recently used', async () => {
    const cache = responseCache({ max: 2, ttlMs: 60_000 });
    const load = vi.fn(async () => 1);
    await cache.get('a', load);
    await cache.get('b', load);
    await cache.get('a', load);
    await cache.get('c', load);
    expect(cache.size).toBe(2);
    await cache.get('a', load);
    expect(load).toHaveBeenCalledTimes(3);
    await cache.get('b', load);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it('gives equal bodies equal ETags', async () => {
    const cache = responseCache({ max: 5, ttlMs: 60_000 });
    const a = await cache.get('x', async () => ({ v: [1, 2] }));
    const b = await cache.get('y', async () => ({ v: [1, 2] }));
    expect(a.etag).toBe(b.etag);
  });
});
