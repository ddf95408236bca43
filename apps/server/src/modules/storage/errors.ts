import { AppError } from '../../lib/errors.ts';

/** Storage error codes (docs/product-rules.md#error-codes), with their HTTP statuses and zh-TW messages. */
export const STORAGE_ERRORS = {
  'object-not-found': [404, '找不到這個檔案。'],
  'bucket-not-found': [404, '找不到這個檔案空間。'],
  unauthenticated: [401, '請先登入會員。'],
  unauthorized: [403, '您沒有權限存取這個檔案。'],
  'quota-exceeded': [413, '檔案超過大小上限。'],
  'invalid-argument': [400, '檔案名稱或內容不正確。'],
  'invalid-checksum': [400, '檔案在傳送途中損毀，請重新上傳。'],
  'invalid-url': [400, '檔案網址不正確。'],
  'internal-error': [500, '檔案服務發生錯誤，請稍後再試。'],
} as const satisfies Record<string, readonly [number, string]>;

export type StorageErrorCode = keyof typeof STORAGE_ERRORS;

export function storageError(code: StorageErrorCode, message?: string): AppError {
  const [status, fallback] = STORAGE_ERRORS[code];
  return new AppError(status, code, message ?? fallback);
}
