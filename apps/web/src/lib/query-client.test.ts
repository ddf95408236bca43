import { afterEach, describe, expect, it } from 'vitest';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { QUERY_CACHE_BYTES } from '@shop/shared/limits';
import { boundQueryCache, queryClient } from './query-client.ts';

const MiB = 1024 * 1024;
/** An answer of about `mib` MiB once written as JSON. */
const answer = (mib: number) => ({ text: 'x'.repeat(mib * MiB - 12) });
const cachedBytes = (client: QueryClient) =>
  client
    .getQueryCache()
    .getAll()
    .reduce((sum, q) => sum + (q.state.data === undefined ? 0 : JSON.stringify(q.state.data).length), 0);

describe('the client data cache is bounded', () => {
  afterEach(() => queryClient.clear());

  it('keeps the app’s cache under 40 MiB by dropping the least recently used answers nobody shows', () => {
    for (let i = 0; i < 45; i++) queryClient.setQueryData(['page', i], answer(1));
    expect(cachedBytes(queryClient)).toBeLessThanOrEqual(QUERY_CACHE_BYTES.default);
    // The oldest went first; the latest are all still there.
    expect(queryClient.getQueryData(['page', 0])).toBeUndefined();
    for (let i = 40; i < 45; i++) expect(queryClient.getQueryData(['page', i])).toBeDefined();
  });

  it('never drops an answer a page is showing, however old', () => {
    const client = new QueryClient();
    boundQueryCache(client.getQueryCache(), 4 * MiB);
    client.setQueryData(['shown'], answer(1));
    const observer = new QueryObserver(client, {
      queryKey: ['shown'],
      queryFn: () => answer(1),
      staleTime: Infinity,
    });
    const unsubscribe = observer.subscribe(() => {});
    for (let i = 0; i < 8; i++) client.setQueryData(['other', i], answer(1));
    expect(client.getQueryData(['shown'])).toBeDefined();
    expect(cachedBytes(client)).toBeLessThanOrEqual(4 * MiB);
    unsubscribe();
    client.clear();
  });

  it('counts an answer used again as recent', () => {
    const client = new QueryClient();
    boundQueryCache(client.getQueryCache(), 3 * MiB);
    client.setQueryData(['a'], answer(1));
    client.setQueryData(['b'], answer(1));
    // ['a'] is shown again (and left again), so ['b'] is now the least recently used.
    new QueryObserver(client, { queryKey: ['a'], staleTime: Infinity }).subscribe(() => {})();
    client.setQueryData(['c'], answer(1));
    client.setQueryData(['d'], answer(1));
    expect(client.getQueryData(['a'])).toBeDefined();
    expect(client.getQueryData(['b'])).toBeUndefined();
    client.clear();
  });
});
