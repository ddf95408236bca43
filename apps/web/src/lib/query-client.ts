import { QueryClient } from '@tanstack/react-query';

/** Retries are the HTTP client's job (spec §7), so queries do not retry on top of it. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, staleTime: 30_000, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
