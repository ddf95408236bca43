/**
 * Who a signed-in request belongs to: the session and its account. Read by session-service.ts and
 * kept by session-cache.ts, so neither imports the other.
 */
export interface AuthUser {
  readonly id: string;
  readonly email: string;
  readonly displayName: string;
  readonly emailVerified: boolean;
  /** `customer` for shoppers; owner, staff or viewer for the operations console. */
  readonly role?: string;
}

export interface AuthContext {
  readonly sessionId: string;
  readonly user: AuthUser;
  readonly expiresAt: Date;
}
