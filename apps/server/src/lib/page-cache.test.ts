import { describe, expect, it } from 'vitest';
import { pageCache, type Loaded } from './page-cache.ts';

const page = (value: string, tags: string[] = [], ttlMs = 60_000): Loaded<string> => ({
  value,
  tags,
  ttlMs,
  bytes: value.length,
});

describe('the kept pages', () => {
  it('keeps a page until its time is up, and renders it once for requests that arrive together', async () => {
    let clock = 0;
    const cache = pageCache<string>({ maxBytes: 1_000, now: () => clock });
    let renders = 0;
    const render = async () => {
      renders += 1;
      await new Promise((r) => setTimeout(r, 5));
      return page(`v${renders}`, [], 1_000);
    };
    const together = await Promise.all([cache.get('/faq', render), cache.get('/faq', render)]);
    expect(together).toEqual(['v1', 'v1']);
    clock = 999;
    expect(await cache.get('/faq', render)).toBe('v1');
    clock = 1_000;
    expect(await cache.get('/faq', render)).toBe('v2');
    expect(renders).toBe(2);
  });

  it('drops exactly the pages tagged with what changed', async () => {
    const cache = pageCache<string>({ maxBytes: 1_000 });
    await cache.get('/mall/a', async () => page('a', ['product:a', 'catalog']));
    await cache.get('/mall/b', async () => page('b', ['product:b', 'catalog']));
    await cache.get('/faq', async () => page('faq', ['content']));
    cache.drop('product:a');
    expect(await cache.get('/mall/a', async () => page('a2'))).toBe('a2');
    expect(await cache.get('/mall/b', async () => page('b2'))).toBe('b');
    cache.drop('catalog');
    expect(await cache.get('/mall/b', async () => page('b3'))).toBe('b3');
    expect(await cache.get('/faq', async () => page('faq2'))).toBe('faq');
  });

  it('drops the pages with a tag a test picks, and does not keep a render such a drop overtook', async () => {
    const cache = pageCache<string>({ maxBytes: 1_000 });
    await cache.get('/mall?c=ware', async () => page('ware', ['list /api?c=ware']));
    await cache.get('/mall?c=tea', async () => page('tea', ['list /api?c=tea']));
    let release!: () => void;
    const slow = cache.get('/mall?c=ware&p=2', async () => {
      await new Promise<void>((r) => (release = r));
      return page('ware2', ['list /api?c=ware&p=2']);
    });
    await Promise.resolve();
    cache.dropWhere((tag) => tag.includes('c=ware'));
    release();
    expect(await slow).toBe('ware2');
    expect(await cache.get('/mall?c=ware&p=2', async () => page('ware2 again'))).toBe('ware2 again');
    expect(await cache.get('/mall?c=ware', async () => page('ware again'))).toBe('ware again');
    expect(await cache.get('/mall?c=tea', async () => page('tea again'))).toBe('tea');
  });

  it('answers a render that a drop of its tags overtook, but does not keep it', async () => {
    const cache = pageCache<string>({ maxBytes: 1_000 });
    let release!: () => void;
    const slow = cache.get('/mall/a', async () => {
      await new Promise<void>((r) => (release = r));
      return page('old', ['product:a']);
    });
    await Promise.resolve();
    cache.drop('product:a');
    release();
    expect(await slow).toBe('old');
    expect(await cache.get('/mall/a', async () => page('new', ['product:a']))).toBe('new');
    // A drop of another tag meanwhile does not stop a page from being kept.
    const other = cache.get('/mall/b', async () => page('b', ['product:b']));
    cache.drop('product:a');
    await other;
    expect(await cache.get('/mall/b', async () => page('b2', ['product:b']))).toBe('b');
  });

  it('holds at most its bytes, the least recently asked for going first', async () => {
    const cache = pageCache<string>({ maxBytes: 10 });
    await cache.get('a', async () => page('aaaa'));
    await cache.get('b', async () => page('bbbb'));
    await cache.get('a', async () => page('never'));
    await cache.get('c', async () => page('cccc'));
    expect(cache.bytes).toBe(8);
    expect(await cache.get('a', async () => page('a2'))).toBe('aaaa');
    expect(await cache.get('b', async () => page('b2'))).toBe('b2');
  });

  it('keeps nothing that may not be kept (no time) or could never fit', async () => {
    const cache = pageCache<string>({ maxBytes: 10 });
    await cache.get('a', async () => page('aaaa', [], 0));
    await cache.get('b', async () => page('b'.repeat(11)));
    expect(cache.size).toBe(0);
  });
});
