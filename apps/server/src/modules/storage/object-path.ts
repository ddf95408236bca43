import { storageError } from './errors.ts';

/** Key paths at most 768 bytes and 32 levels (docs/product-rules.md#limits-and-timings). */
export const MAX_PATH_BYTES = 768;
export const MAX_PATH_LEVELS = 32;

/** Why a name is not a valid object path, in zh-TW, or null when it is one. */
function objectNameProblem(name: string): string | null {
  if (name.length === 0) return '不能是空的';
  if (Buffer.byteLength(name, 'utf8') > MAX_PATH_BYTES) return `不能超過 ${MAX_PATH_BYTES} 位元組`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(name)) return '含有不允許的字元';
  if (name.startsWith('/')) return '不能以 / 開頭';
  const segments = name.split('/');
  if (segments.length > MAX_PATH_LEVELS) return `不能超過 ${MAX_PATH_LEVELS} 層`;
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return '不能含有空白、. 或 .. 的層級';
  return null;
}

/**
 * Checks an object name given as an argument (an upload's `name`): no `..` or `.` segments, no
 * absolute path, no backslash, no control characters, no empty segments; at most 768 bytes
 * (UTF-8) and 32 levels. A bad one is `invalid-argument`.
 */
export function validateObjectName(name: string): string {
  const problem = objectNameProblem(name);
  if (problem) throw storageError('invalid-argument', `檔案路徑不正確：${problem}`);
  return name;
}

/**
 * Checks the object path of a read or delete URL (`/b/{bucket}/o/{path}`), already
 * percent-decoded by the router, by the same rules. A bad one means the URL itself is malformed,
 * so it is `invalid-url`, refused before the bucket or the caller is looked at. (Escapes that do
 * not decode never reach a route: lib/framework-errors.ts answers them.)
 */
export function objectNameFromUrl(decodedPath: string): string {
  const problem = objectNameProblem(decodedPath);
  if (problem) throw storageError('invalid-url', `檔案網址不正確：路徑${problem}。`);
  return decodedPath;
}
