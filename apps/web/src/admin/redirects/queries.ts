import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { adminKeys } from '../shared/api.ts';
import { redirectsApi } from './api.ts';

export const redirectKeys = { all: [...adminKeys.all, 'redirects'] as const };

export const redirectsQuery = (filters: { q: string }, page: number) =>
  queryOptions({
    queryKey: [...redirectKeys.all, filters, page] as const,
    queryFn: ({ signal }) => redirectsApi.list({ q: filters.q.trim(), page }, signal),
    placeholderData: keepPreviousData,
  });
