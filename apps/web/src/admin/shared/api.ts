import type { AdminMe, Permission } from '@shop/shared/admin';
import { apiGet } from '../../lib/api-client.ts';

/** Query keys of the console all start with 'admin', so signing out or a role change drops them together. */
export const adminKeys = {
  all: ['admin'] as const,
  me: () => ['admin', 'me'] as const,
};

/** `?a=1&b=x` from an object, leaving out empty values (for list queries). */
export function toQueryString(params: Record<string, string | number | boolean | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '' || value === false) continue;
    search.set(key, String(value));
  }
  const s = search.toString();
  return s ? `?${s}` : '';
}

/** The console's API lives under /api/admin; each domain's api.ts builds its URLs from here. */
export const adminApiUrl = (
  path: string,
  params?: Record<string, string | number | boolean | null | undefined>,
) => `/api/admin${path}${params ? toQueryString(params) : ''}`;

/** A path segment from a value (an order number, an id, a slug). */
export const seg = (value: string) => encodeURIComponent(value);

export const fetchAdminMe = () => apiGet<AdminMe>(adminApiUrl('/me'));

export const hasPermission = (me: AdminMe | undefined, permission: Permission) =>
  Boolean(me?.permissions.includes(permission));
