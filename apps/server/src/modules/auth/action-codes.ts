import { createHash, randomBytes } from 'node:crypto';
import type { StaffRole } from '@shop/shared/admin';
import type { DbOrTx } from '../../db/client.ts';
import * as repo from './repo.ts';

/** Only the SHA-256 of a mailed code is stored, so a database copy holds no working link. */
export const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

/**
 * Issues a single-use code (256 bits) for a link mailed to `to` (the account's address unless the
 * link confirms a new one). Earlier unused codes of the same kind stop working, so only the newest
 * link works.
 */
export async function issueActionCode(
  db: DbOrTx,
  user: { id: string; email: string },
  kind: repo.ActionKind,
  ttlMs: number,
  now: Date,
  extra: { to?: string; role?: StaffRole } = {},
): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  await repo.supersedeActionCodes(db, user.id, kind, now);
  await repo.insertActionCode(db, {
    userId: user.id,
    kind,
    codeHash: hashCode(code),
    email: extra.to ?? user.email,
    role: extra.role ?? null,
    expiresAt: new Date(now.getTime() + ttlMs),
  });
  return code;
}
