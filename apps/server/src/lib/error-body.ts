import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ApiErrorBody } from '@shop/shared/api-error';
import { CommonErrorCode, DATABASE_ERROR_MESSAGES } from '@shop/shared/error-codes';
import { isConstraintViolation, isDatabaseUnavailable } from '../db/errors.ts';
import { AppError } from './errors.ts';

const STATUS_CODES: Record<number, { code: string; message: string }> = {
  400: { code: CommonErrorCode.invalidArgument, message: '送出的資料格式不正確。' },
  401: { code: CommonErrorCode.unauthenticated, message: '請先登入會員。' },
  403: { code: CommonErrorCode.forbidden, message: '您沒有權限進行這項操作。' },
  404: { code: CommonErrorCode.notFound, message: '找不到您要的資料。' },
  405: { code: 'method-not-allowed', message: '不支援這個請求方式。' },
  406: { code: 'not-acceptable', message: '無法提供這種格式的內容。' },
  413: { code: 'payload-too-large', message: '送出的資料太大。' },
  415: { code: 'unsupported-media-type', message: '不支援這種資料格式。' },
  429: { code: CommonErrorCode.tooManyRequests, message: '嘗試次數過多，請稍後再試。' },
};

/** A database error this long after the last one begins a new outage (its stack is logged again). */
export const OUTAGE_GAP_MS = 60_000;
/** When each app (by its config object, shared by every scope) last logged the database away. */
const lastDatabaseAway = new WeakMap<object, number>();

/**
 * While the database is away every request fails alike: each gets one short line (what, where, the
 * driver's words), and only the first of an outage (no such error for OUTAGE_GAP_MS) its stack. A
 * stack for each, hundreds of lines a second per instance, buried everything else in the log.
 */
function logDatabaseAway(error: unknown, request: FastifyRequest): void {
  const key = request.server.config as object;
  const now = Date.now();
  const last = lastDatabaseAway.get(key);
  lastDatabaseAway.set(key, now);
  const where = { url: request.url, method: request.method };
  if (last === undefined || now - last > OUTAGE_GAP_MS) {
    request.log.error(
      { err: error, ...where },
      'request failed: the database is away (its stack once; until it is back, one line per request)',
    );
  } else {
    request.log.error({ ...where, cause: databaseWords(error) }, 'request failed: the database is away');
  }
}

/** The innermost message of an error's cause chain, on one line, cut short. */
function databaseWords(error: unknown): string {
  let current: unknown = error;
  let words = '';
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    words = current.message;
    current = current.cause;
  }
  return words.replace(/\s+/g, ' ').slice(0, 200);
}

/** How long a client should wait before trying again while the database is away. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Maps any thrown error to the one error shape; internals never leak on 5xx. */
export function toErrorBody(error: FastifyError): {
  status: number;
  payload: ApiErrorBody;
  headers?: Record<string, string>;
} {
  if (error instanceof AppError) {
    return {
      status: error.statusCode,
      payload: {
        error: {
          code: error.code,
          message: error.message,
          ...(error.fields ? { fields: error.fields } : {}),
        },
      },
      ...(error.headers ? { headers: error.headers } : {}),
    };
  }
  // Database failures no domain rule turned into its own error (docs/decisions/007-reliability.md).
  if (isDatabaseUnavailable(error)) {
    return {
      status: 503,
      payload: { error: { code: CommonErrorCode.unavailable, message: DATABASE_ERROR_MESSAGES.unavailable } },
      headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
    };
  }
  if (isConstraintViolation(error)) {
    return {
      status: 409,
      payload: { error: { code: CommonErrorCode.set, message: DATABASE_ERROR_MESSAGES.set } },
    };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields: Record<string, string> = {};
    let unknownKeys = false;
    for (const issue of error.validation) {
      const key = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.') || '_';
      if (issue.keyword === 'unrecognized_keys') unknownKeys = true;
      fields[key] ??= issue.message ?? '格式不正確';
    }
    return {
      status: 400,
      payload: {
        error: {
          code: CommonErrorCode.invalidArgument,
          message: validationMessage(error.validationContext, fields, unknownKeys),
          fields,
        },
      },
    };
  }
  if (isResponseSerializationError(error)) {
    return {
      status: 500,
      payload: { error: { code: CommonErrorCode.internal, message: '伺服器發生錯誤，請稍後再試。' } },
    };
  }
  const status =
    typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500
      ? error.statusCode
      : 500;
  const known = STATUS_CODES[status];
  if (status < 500 && known)
    return { status, payload: { error: { code: known.code, message: known.message } } };
  if (status < 500)
    return {
      status,
      payload: { error: { code: CommonErrorCode.invalidArgument, message: '請求無法處理。' } },
    };
  return {
    status: 500,
    payload: { error: { code: CommonErrorCode.internal, message: '伺服器發生錯誤，請稍後再試。' } },
  };
}

/** Ends a sentence with 。 unless it already ends with punctuation. */
const sentence = (text: string) => (/[。！？.!?]$/.test(text) ? text : `${text}。`);

/**
 * The message of a refused request in the shopper's words
 * (docs/decisions/008-shopper-words-stores-tracking.md): the first field's own message, never the
 * field's key. A bad address (query or path) says so and what to do; keys nobody offers (a
 * hand-edited address) get no field message worth reading.
 */
function validationMessage(
  context: string | undefined,
  fields: Record<string, string>,
  unknownKeys: boolean,
): string {
  const messages = Object.values(fields);
  if (context === 'querystring' || context === 'params') {
    if (unknownKeys || !messages[0]) return '網址中的條件有誤，請回到上一頁重新選擇。';
    return `網址中的條件有誤：${sentence(messages[0])}`;
  }
  if (unknownKeys || !messages[0]) return STATUS_CODES[400]!.message;
  if (messages.length === 1) return sentence(messages[0]);
  return `${messages[0].replace(/[。.]$/, '')}；另有 ${messages.length - 1} 個欄位需要修正。`;
}

export type ErrorTransform = (body: ApiErrorBody) => ApiErrorBody;

/**
 * The one error handler: logs 5xx with the request context, sends the error shape with no-store.
 * A scope may pass a transform to name its own codes (the identity API's `invalid-email`).
 */
export function errorHandler(transform: ErrorTransform = (b) => b) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const body = toErrorBody(error);
    if (body.status === 503 && isDatabaseUnavailable(error)) logDatabaseAway(error, request);
    else if (body.status >= 500)
      request.log.error({ err: error, url: request.url, method: request.method }, 'request failed');
    // A constraint no domain check caught first may be a missing check: worth a look.
    else if (body.payload.error.code === CommonErrorCode.set)
      request.log.warn(
        { err: error, url: request.url, method: request.method },
        'write refused by a database constraint',
      );
    else request.log.info({ code: body.payload.error.code, url: request.url }, 'request refused');
    if (body.headers) reply.headers(body.headers);
    return reply.code(body.status).header('cache-control', 'no-store').send(transform(body.payload));
  };
}
