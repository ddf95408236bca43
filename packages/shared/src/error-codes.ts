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
  /** A transaction kept meeting concurrent changes and gave up after its attempts. */
  maxRetry: 'maxretry',
  /** A row read a moment ago was gone when the same operation wrote it. */
  noData: 'nodata',
  /** The database refused a write by one of its constraints. */
  set: 'set',
  /** The database is away or did not answer in time; try again shortly. */
  unavailable: 'unavailable',
} as const;

/** zh-TW messages of the database codes, shown as they are. */
export const DATABASE_ERROR_MESSAGES = {
  maxretry: '目前有許多人同時處理同一筆資料，系統重試多次仍未完成，請稍候幾秒再試一次。',
  nodata: '這筆資料在處理途中已被刪除或變更，請重新整理頁面後再試。',
  set: '這筆資料與現有的資料衝突，未能儲存；請重新整理頁面後再試。',
  unavailable: '系統暫時無法處理您的請求，請稍候幾秒再試一次。',
} as const;
