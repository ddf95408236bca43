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
  };
}
