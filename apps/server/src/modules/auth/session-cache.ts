import type { AuthContext } from './auth-context.ts';

/**
 * Signed-in lookups kept in memory for a few seconds, so a member's requests cost no database
 * round trip on the hot path (docs/decisions/021). What can make an entry wrong is a session
 * ending (sign-out, password reset or change, a disabled account, a new role) or the account
 * changing (verified, new e-mail, new name): every such change calls `app.sessionsEnded(userId)`,
 * which empties this instance's entries for the member at once and, through Redis, every other
 * instance's. The short lifetime bounds what a lost message could leave behind; a Redis gap
 * empties the whole cache.
 */
export interface CachedSession {
  readonly auth: AuthContext;
  /** When the session was last recorded as used (the sliding expiry is moved from the database path only). */
  readonly lastSeenAt: Date;
  readonly staff: boolean;
}

export interface SessionCache {
  get(tokenHash: string): CachedSession | null;
  /** Counts forgets: a lookup notes it before reading the database and passes it to `set`. */
  readonly generation: number;
  /** Keeps an entry, unless something was forgotten since `since` (the lookup may have read a session that just ended). */
  set(tokenHash: string, entry: CachedSession, since: number): void;
  forgetUser(userId: string): void;
  clear(): void;
  readonly size: number;
}

export function createSessionCache(options: {
  ttlMs: number;
  max: number;
  now?: () => number;
}): SessionCache {
  const now = options.now ?? Date.now;
  const entries = new Map<string, CachedSession & { until: number }>();
  const byUser = new Map<string, Set<string>>();
  let generation = 0;
  const drop = (tokenHash: string) => {
    const entry = entries.get(tokenHash);
    if (!entry) return;
    entries.delete(tokenHash);
    const hashes = byUser.get(entry.auth.user.id);
    hashes?.delete(tokenHash);
    if (hashes?.size === 0) byUser.delete(entry.auth.user.id);
  };
  return {
    get(tokenHash) {
      const entry = entries.get(tokenHash);
      if (!entry) return null;
      if (entry.until <= now()) {
        drop(tokenHash);
        return null;
      }
      return entry;
    },
    get generation() {
      return generation;
    },
    set(tokenHash, entry, since) {
      drop(tokenHash);
      if (options.ttlMs <= 0 || since !== generation) return;
      entries.set(tokenHash, { ...entry, until: now() + options.ttlMs });
      const hashes = byUser.get(entry.auth.user.id) ?? new Set<string>();
      hashes.add(tokenHash);
      byUser.set(entry.auth.user.id, hashes);
      // Oldest out first (a Map keeps insertion order).
      while (entries.size > options.max) drop(entries.keys().next().value as string);
    },
    forgetUser(userId) {
      generation += 1;
      for (const tokenHash of [...(byUser.get(userId) ?? [])]) drop(tokenHash);
    },
    clear() {
      generation += 1;
      entries.clear();
      byUser.clear();
    },
    get size() {
      return entries.size;
    },
  };
}
