import type { DbOrTx } from '../../db/client.ts';
import * as repo from './repo.ts';

/** Of the given sessions, those still live: not revoked, not expired, their account not disabled. */
export function liveSessionIds(db: DbOrTx, ids: readonly string[], now: Date): Promise<Set<string>> {
  return repo.liveSessionIds(db, ids, now);
}
