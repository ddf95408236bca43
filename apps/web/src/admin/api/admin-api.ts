import { queryOptions } from '@tanstack/react-query';
import type { AdminMe, Permission } from '@shop/shared/admin';
import { apiGet } from '../../lib/api-client.ts';

/** Query keys of the console all start with 'admin', so signing out or a role change drops them together. */
export const adminKeys = {
  all: ['admin'] as const,
  me: () => ['admin', 'me'] as const,
};

export const adminMeQuery = () => queryOptions({ queryKey: adminKeys.me(), queryFn: () => apiGet<AdminMe>('/api/admin/me'), staleTime: 60_000, retry: false });

export const hasPermission = (me: AdminMe | undefined, permission: Permission) => Boolean(me?.permissions.includes(permission));

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
