import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { adminKeys } from '../shared/api.ts';
import { returnsApi, type ReturnsFilter } from './api.ts';

/** Query keys of the returns page (under 'admin', like every console key). */
export const returnsKeys = {
  all: [...adminKeys.all, 'returns'] as const,
  lists: () => [...adminKeys.all, 'returns', 'list'] as const,
  list: (q: { status: ReturnsFilter; page: number }) => [...adminKeys.all, 'returns', 'list', q] as const,
  transfers: () => [...adminKeys.all, 'returns', 'transfers'] as const,
};

export const returnsQuery = (q: { status: ReturnsFilter; page: number }) =>
  queryOptions({
    queryKey: returnsKeys.list(q),
    queryFn: ({ signal }) => returnsApi.list(q, signal),
    placeholderData: keepPreviousData,
  });

export const transfersQuery = () =>
  queryOptions({ queryKey: returnsKeys.transfers(), queryFn: ({ signal }) => returnsApi.transfers(signal) });
