import { hash, verify } from '@node-rs/argon2';
import pLimit from 'p-limit';

/** OWASP's argon2id baseline: 19 MiB memory, 2 iterations, 1 lane. */
// algorithm 2 is Argon2id (the package exports it as an ambient const enum).
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Hashes take turns, two at a time: each holds 19 MiB while it runs, and libuv's pool would
 * otherwise run four at once (a burst of sign-ins added 77 MB to the shop's RSS, and left no pool
 * thread for compression and file work). Two keep both cores busy, so a burst takes no longer.
 * docs/decisions/023-compiled-server-and-memory.md.
 */
const argon2 = pLimit(2);

export function hashPassword(password: string): Promise<string> {
  return argon2(() => hash(password, OPTIONS));
}

// Verified against when the account does not exist, so both paths take the same time.
let dummyHash: Promise<string> | null = null;

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummyHash ??= hashPassword('a placeholder nobody will ever type: 山嵐');
    const placeholder = await dummyHash;
    await argon2(() => verify(placeholder, password)).catch(() => false);
    return false;
  }
  try {
    return await argon2(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}
