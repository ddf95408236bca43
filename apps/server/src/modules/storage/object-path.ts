import { storageError } from './errors.ts';

/** Spec §9: key paths at most 768 bytes and 32 levels. */
export const MAX_PATH_BYTES = 768;
export const MAX_PATH_LEVELS = 32;

/**
 * Checks an object name: no `..` or `.` segments, no absolute path, no backslash, no control
 * characters, no empty segments; at most 768 bytes (UTF-8) and 32 levels.
 */
export function validateObjectName(name: string): string {
  const fail = (why: string) => storageError('invalid-argument', `檔案路徑不正確：${why}`);
  if (name.length === 0) throw fail('不能是空的');
  if (Buffer.byteLength(name, 'utf8') > MAX_PATH_BYTES) throw fail(`不能超過 ${MAX_PATH_BYTES} 位元組`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(name)) throw fail('含有不允許的字元');
  if (name.startsWith('/')) throw fail('不能以 / 開頭');
  const segments = name.split('/');
  if (segments.length > MAX_PATH_LEVELS) throw fail(`不能超過 ${MAX_PATH_LEVELS} 層`);
  if (segments.some((s) => s === '' || s === '.' || s === '..')) throw fail('不能含有空白、. 或 .. 的層級');
  return name;
}
