import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { OutboxListQuery } from '@shop/shared/admin-outbox';
import { adminKeys } from '../shared/api.ts';
import { outboxApi } from './api.ts';

export const outboxKeys = {
  all: [...adminKeys.all, 'outbox'] as const,
  list: (q: OutboxListQuery) => [...adminKeys.all, 'outbox', 'list', q] as const,
  hold: () => [...adminKeys.all, 'outbox', 'hold'] as const,
};

export const outboxHoldQuery = () =>
  queryOptions({ queryKey: outboxKeys.hold(), queryFn: ({ signal }) => outboxApi.hold(signal) });

/** Refetched every 5 s while open: a waiting message changes on its own as the worker retries it. */
export const outboxQuery = (q: OutboxListQuery) =>
  queryOptions({
    queryKey: outboxKeys.list(q),
    queryFn: ({ signal }) => outboxApi.list(q, signal),
    placeholderData: keepPreviousData,
    refetchInterval: 5_000,
  });
