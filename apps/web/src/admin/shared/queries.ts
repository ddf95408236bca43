import { queryOptions } from '@tanstack/react-query';
import { adminKeys, fetchAdminMe } from './api.ts';

/** The signed-in staff member. */
export const adminMeQuery = () =>
  queryOptions({ queryKey: adminKeys.me(), queryFn: fetchAdminMe, staleTime: 60_000, retry: false });
