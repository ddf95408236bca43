import { CommonErrorCode, DATABASE_ERROR_MESSAGES } from '@shop/shared/error-codes';

/**
 * Errors a service throws; the one error handler turns them into `{ error: { code, message, fields } }`.
 * Messages are zh-TW and safe to show to a shopper.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export class NotFoundError extends AppError {
  constructor(message = '找不到您要的資料。', code: string = CommonErrorCode.notFound) {
    super(404, code, message);
  }
}

export class BadRequestError extends AppError {
  constructor(
    message: string,
    fields?: Record<string, string>,
    code: string = CommonErrorCode.invalidArgument,
  ) {
    super(400, code, message, fields);
  }
}

export class UnauthenticatedError extends AppError {
  constructor(message = '請先登入會員。', code: string = CommonErrorCode.unauthenticated) {
    super(401, code, message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = '您沒有權限進行這項操作。', code: string = CommonErrorCode.forbidden) {
    super(403, code, message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, code: string = CommonErrorCode.conflict) {
    super(409, code, message);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(retryAfterSeconds: number, message = '嘗試次數過多，請稍後再試。') {
    super(429, CommonErrorCode.tooManyRequests, message, undefined, {
      'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
    });
  }
}

/**
 * A transaction met serialization failures or deadlocks on every one of its attempts. Nothing was
 * saved; the request was fine and may be sent again in a moment (docs/product-rules.md).
 */
export class MaxRetryError extends AppError {
  constructor(readonly attempts: number) {
    super(503, CommonErrorCode.maxRetry, DATABASE_ERROR_MESSAGES.maxretry, undefined, { 'retry-after': '1' });
  }
}

/** A row this operation read a moment ago was gone when it came to write it (deleted or changed meanwhile). */
export class NoDataError extends AppError {
  constructor(message: string = DATABASE_ERROR_MESSAGES.nodata) {
    super(409, CommonErrorCode.noData, message);
  }
}
