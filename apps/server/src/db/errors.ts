/**
 * What a database error means, whichever engine raised it and however deep drizzle wrapped it
 * (a `DrizzleQueryError` keeps the driver's error as its `cause`). The rules and why:
 * docs/decisions/007-reliability.md and docs/product-rules.md ("Transactions under contention").
 */

interface DriverError {
  readonly code?: unknown;
  readonly severity?: unknown;
  readonly message?: unknown;
}

/** The driver errors in `error`'s cause chain, outermost first. */
function* chain(error: unknown): Generator<DriverError> {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== null && typeof current === 'object'; depth++) {
    yield current as DriverError;
    current = (current as { cause?: unknown }).cause;
  }
}

/** PostgreSQL's five-character SQLSTATE, from an error the server sent (it carries a severity). */
export function sqlState(error: unknown): string | undefined {
  for (const e of chain(error)) {
    if (typeof e.code === 'string' && typeof e.severity === 'string' && /^[0-9A-Z]{5}$/.test(e.code))
      return e.code;
  }
  return undefined;
}

/**
 * A serialization failure (40001) or a deadlock (40P01): PostgreSQL rolled the whole transaction
 * back, so running it again from the start is safe and usually succeeds.
 */
export function isRetryableConflict(error: unknown): boolean {
  const state = sqlState(error);
  return state === '40001' || state === '40P01';
}

/** A write the database refused by a constraint (class 23: unique, foreign key, check, not null, exclusion). */
export function isConstraintViolation(error: unknown): boolean {
  return sqlState(error)?.startsWith('23') ?? false;
}

/** Node's socket errors that mean the database could not be reached. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

/** node-postgres's own words for a connection it lost, could not make, or gave up waiting on. */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'is not queryable',
  'Cannot use a pool after calling end on the pool',
];

/**
 * The database is away or did not answer in time, not wrong about this request: a lost or refused
 * connection, a session the server ended (FATAL), a statement over the statement time-out, or a
 * connection or answer the client stopped waiting for. Answered 503, so the person tries again.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const e of chain(error)) {
    if (typeof e.severity === 'string' && typeof e.code === 'string') {
      // FATAL and PANIC end the session (terminated, shutting down, not accepting connections).
      if (e.severity === 'FATAL' || e.severity === 'PANIC') return true;
      // Class 08: connection exception; 57P01–57P03: shutdown, crash, cannot connect now;
      // 57014: cancelled by the statement time-out; 53300: too many connections.
      if (e.code.startsWith('08') || /^57P0[1-3]$/.test(e.code) || e.code === '57014' || e.code === '53300')
        return true;
      continue;
    }
    if (typeof e.code === 'string' && SOCKET_CODES.has(e.code)) return true;
    if (typeof e.message === 'string' && DRIVER_MESSAGES.some((m) => (e.message as string).includes(m)))
      return true;
  }
  return false;
}
