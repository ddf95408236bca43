import { queryOptions } from '@tanstack/react-query';
import type { Dashboard } from '@shop/shared/admin-dashboard';
import { apiGet } from '../../lib/api-client.ts';

export const dashboardQuery = () => queryOptions({ queryKey: ['admin', 'dashboard'], queryFn: () => apiGet<Dashboard>('/api/admin/dashboard'), refetchInterval: 60_000 });
