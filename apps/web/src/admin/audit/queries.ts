import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { adminKeys } from '../shared/api.ts';
import { auditApi, type AuditFilters } from './api.ts';

export const auditQuery = (filters: AuditFilters, page: number) =>
  queryOptions({
    queryKey: [...adminKeys.all, 'audit', filters, page] as const,
    queryFn: ({ signal }) => auditApi.list({ ...filters, page }, signal),
    placeholderData: keepPreviousData,
  });
