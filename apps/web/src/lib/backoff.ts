/** Spec §9 retry backoff: starts at 1 s, ×1.5 each time, at most 60 s. */
export const BACKOFF = { initialMs: 1000, multiplier: 1.5, maxMs: 60_000 } as const;

export function backoffDelay(attempt: number): number {
  return Math.min(BACKOFF.maxMs, BACKOFF.initialMs * BACKOFF.multiplier ** attempt);
}
