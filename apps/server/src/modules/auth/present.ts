import { isStaffRole } from '@shop/shared/admin';
import { PASSWORD_PROVIDER } from '@shop/shared/session';
import type { CurrentUser } from '@shop/shared/auth';
import type { AuthUser } from './session-service.ts';

export function toCurrentUser(user: AuthUser): CurrentUser {
  return {
    uid: user.id,
    email: user.email,
    displayName: user.displayName,
    emailVerified: user.emailVerified,
    providers: [PASSWORD_PROVIDER],
    // Staff (owner, staff, viewer) find the console from the member area.
    ...(isStaffRole(user.role) ? { console: true as const } : {}),
  };
}
