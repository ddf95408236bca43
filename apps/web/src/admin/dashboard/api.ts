import type { Dashboard } from '@shop/shared/admin-dashboard';
import { apiGet } from '../../lib/api-client.ts';
import { adminApiUrl } from '../shared/api.ts';

export const dashboardApi = {
  get: (signal?: AbortSignal) => apiGet<Dashboard>(adminApiUrl('/dashboard'), { signal }),
};
