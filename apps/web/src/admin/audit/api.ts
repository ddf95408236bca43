import type { AuditEntry, PageOf } from '@shop/shared/admin';
import { apiGet } from '../../lib/api-client.ts';
import { adminApiUrl } from '../shared/api.ts';

export interface AuditFilters {
  entity: string;
  actor: string;
  from: string;
  to: string;
}

export const auditApi = {
  list: (filters: AuditFilters & { page: number }, signal?: AbortSignal) =>
    apiGet<PageOf<AuditEntry>>(adminApiUrl('/audit', { ...filters }), { signal }),
};
