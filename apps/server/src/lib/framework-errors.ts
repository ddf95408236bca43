import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiErrorBody } from '@shop/shared/api-error';
import { CommonErrorCode } from '@shop/shared/error-codes';
import { STORAGE_PREFIX } from '@shop/shared/storage-paths';

/** The code for a URL that cannot be read (the storage code of docs/product-rules.md, used alike for every path). */
export const INVALID_URL = 'invalid-url';

/**
 * Errors the router raises before any route or error handler runs, answered in the one error
 * shape instead of Fastify's own: a percent-escape that does not decode (`%zz`, half a UTF-8
 * character) is 400 `invalid-url`, a path parameter over the router's length limit 414
 * `invalid-url`. Storage URLs say "檔案網址", since there the path names a file.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const what = request.url.startsWith(`${STORAGE_PREFIX}/`) ? '檔案網址' : '網址';
  let status = 500;
  let body: ApiErrorBody = {
    error: { code: CommonErrorCode.internal, message: '伺服器發生錯誤，請稍後再試。' },
  };
  if (error.code === 'FST_ERR_BAD_URL') {
    status = 400;
    body = { error: { code: INVALID_URL, message: `${what}不正確：含有無法解讀的 % 編碼。` } };
  } else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    status = 414;
    body = { error: { code: INVALID_URL, message: `${what}不正確：路徑太長。` } };
  } else {
    request.log.error({ err: error }, 'router error');
  }
  void reply.code(status).header('cache-control', 'no-store').send(body);
}
