import { queryOptions } from '@tanstack/react-query';
import { adminKeys } from '../shared/api.ts';
import { dashboardApi } from './api.ts';

export const dashboardQuery = () =>
  queryOptions({
    queryKey: [...adminKeys.all, 'dashboard'] as const,
    queryFn: ({ signal }) => dashboardApi.get(signal),
    refetchInterval: 60_000,
  });
