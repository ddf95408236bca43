import { useQuery } from '@tanstack/react-query';
import type { Permission } from '@shop/shared/admin';
import { hasPermission } from './api.ts';
import { adminMeQuery } from './queries.ts';

/** The signed-in staff member (the console only renders pages once this is known). */
export function useAdminMe() {
  return useQuery(adminMeQuery());
}

/** Whether the signed-in staff member's role allows this (the server checks again, always). */
export function useCan(permission: Permission): boolean {
  const me = useAdminMe();
  return hasPermission(me.data, permission);
}
