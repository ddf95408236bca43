import { QueryClient, type Query, type QueryCache } from '@tanstack/react-query';
import { queryCacheBytes } from '@shop/shared/limits';

/** A rough size of a cached answer: the length of its JSON (what it weighed on the wire). */
function sizeOf(data: unknown): number {
  if (data === undefined) return 0;
  try {
    return JSON.stringify(data)?.length ?? 0;
  } catch {
    // Not JSON (never the case for API answers): counted as nothing rather than failing the query.
    return 0;
  }
}

/**
 * Keeps the answers in `cache` under about `maxBytes` (the local cache limit of docs/product-rules.md): after each
 * answer arrives, the least recently used answers no page is showing are dropped until the total
 * fits. An answer on screen is never dropped, so a page never loses what it shows; the total can
 * then stay above the bound until those pages close. Returns the unsubscribe function.
 */
export function boundQueryCache(cache: QueryCache, maxBytes: number): () => void {
  const sizes = new Map<string, number>();
  const lastUsed = new Map<string, number>();
  let total = 0;
  let clock = 0;
  const touch = (query: Query) => lastUsed.set(query.queryHash, ++clock);

  const shrink = () => {
    if (total <= maxBytes) return;
    const idle = cache
      .getAll()
      .filter((q) => q.getObserversCount() === 0 && (sizes.get(q.queryHash) ?? 0) > 0)
      .sort((a, b) => (lastUsed.get(a.queryHash) ?? 0) - (lastUsed.get(b.queryHash) ?? 0));
    for (const query of idle) {
      if (total <= maxBytes) break;
      cache.remove(query);
    }
  };

  return cache.subscribe((event) => {
    const { query } = event;
    switch (event.type) {
      case 'added':
      case 'observerAdded':
      case 'observerRemoved':
        touch(query);
        break;
      case 'removed':
        total -= sizes.get(query.queryHash) ?? 0;
        sizes.delete(query.queryHash);
        lastUsed.delete(query.queryHash);
        break;
      case 'updated':
        if (event.action.type === 'success' || event.action.type === 'setState') {
          const size = sizeOf(query.state.data);
          total += size - (sizes.get(query.queryHash) ?? 0);
          sizes.set(query.queryHash, size);
          touch(query);
          shrink();
        }
        break;
      default:
        break;
    }
  });
}

/**
 * The data cache's bound: `VITE_QUERY_CACHE_BYTES` at build time, 40 MiB (41943040) without it,
 * never below 1 MiB.
 */
export const QUERY_CACHE_MAX_BYTES = queryCacheBytes(import.meta.env.VITE_QUERY_CACHE_BYTES);

/** Retries are the HTTP client's job (docs/product-rules.md#http-behaviour), so queries do not retry on top of it. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, staleTime: 30_000, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
boundQueryCache(queryClient.getQueryCache(), QUERY_CACHE_MAX_BYTES);
