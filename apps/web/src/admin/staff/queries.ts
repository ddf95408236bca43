import { queryOptions } from '@tanstack/react-query';
import { adminKeys } from '../shared/api.ts';
import { staffApi } from './api.ts';

export const staffKeys = { all: [...adminKeys.all, 'staff'] as const };

export const staffQuery = () =>
  queryOptions({ queryKey: staffKeys.all, queryFn: ({ signal }) => staffApi.list(signal) });
