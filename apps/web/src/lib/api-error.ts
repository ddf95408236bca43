import { CommonErrorCode } from '@shop/shared/error-codes';

/** What every failed API call throws: the server's code and zh-TW message, and per-field errors. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const NETWORK_ERROR_MESSAGE = '網路連線異常，請確認網路後再試一次。';

export function networkError(): ApiError {
  return new ApiError(0, CommonErrorCode.networkRequestFailed, NETWORK_ERROR_MESSAGE);
}

interface ErrorPayload {
  error?: { code?: unknown; message?: unknown; fields?: unknown };
}

/** Turns any error body into an ApiError; unknown shapes get a generic zh-TW message. */
export function toApiError(status: number, body: unknown): ApiError {
  const error = (body as ErrorPayload | null)?.error;
  const code =
    typeof error?.code === 'string' ? error.code : status >= 500 ? CommonErrorCode.internal : 'unknown';
  const message =
    typeof error?.message === 'string'
      ? error.message
      : status >= 500
        ? '伺服器暫時無法回應，請稍後再試。'
        : '請求無法完成，請稍後再試。';
  const fields =
    error?.fields && typeof error.fields === 'object' ? (error.fields as Record<string, string>) : undefined;
  return new ApiError(status, code, message, fields);
}
