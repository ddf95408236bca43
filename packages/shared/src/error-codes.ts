/** Error codes used across modules (no dependencies, so the client can import it cheaply). */
export const CommonErrorCode = {
  notFound: 'not-found',
  invalidArgument: 'invalid-argument',
  unauthenticated: 'unauthenticated',
  forbidden: 'forbidden',
  conflict: 'conflict',
  tooManyRequests: 'too-many-requests',
  internal: 'internal-error',
  maintenance: 'maintenance',
  networkRequestFailed: 'network-request-failed',
} as const;
