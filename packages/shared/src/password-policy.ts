import { COMMON_PASSWORDS } from './data/common-passwords.ts';
import { validateValue } from './validation/rules.ts';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const PASSWORD_LABEL = '密碼';

let common: ReadonlySet<string> | null = null;

export function isCommonPassword(password: string): boolean {
  common ??= new Set(COMMON_PASSWORDS);
  return common.has(password.toLowerCase());
}

/**
 * The password rules (accounts issue): 8–128 characters of any kind, no composition rules, not the
 * e-mail address itself and not one of the most common passwords. Returns a zh-TW message or null.
 */
export function passwordProblem(password: string, email?: string): string | null {
  const basic = validateValue(password, `required|min:${PASSWORD_MIN}|max:${PASSWORD_MAX}`, PASSWORD_LABEL);
  if (basic) return basic;
  if (email && password.trim().toLowerCase() === email.trim().toLowerCase())
    return '密碼不能與電子郵件相同。';
  if (isCommonPassword(password)) return '這個密碼太常見，很容易被猜到，請換一個。';
  return null;
}
