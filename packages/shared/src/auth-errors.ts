/**
 * Identity error codes (docs/product-rules.md#error-codes) and their zh-TW messages. The server answers these codes; the
 * client shows the message (the client adds `network-request-failed` itself).
 */
export const AuthErrorCode = {
  wrongPassword: 'wrong-password',
  invalidEmail: 'invalid-email',
  emailAlreadyInUse: 'email-already-in-use',
  userNotFound: 'user-not-found',
  tooManyRequests: 'too-many-requests',
  expiredActionCode: 'expired-action-code',
  invalidActionCode: 'invalid-action-code',
  userDisabled: 'user-disabled',
  networkRequestFailed: 'network-request-failed',
  requiresRecentLogin: 'requires-recent-login',
} as const;
export type AuthErrorCode = (typeof AuthErrorCode)[keyof typeof AuthErrorCode];

export const AUTH_ERROR_MESSAGES: Readonly<Record<AuthErrorCode, string>> = {
  // One message for an unknown address and a wrong password so nobody can probe which addresses have accounts (docs/product-rules.md#error-codes).
  'wrong-password': '電子郵件或密碼不正確，請再試一次。',
  'invalid-email': '電子郵件格式不正確。',
  'email-already-in-use': '這個電子郵件已經註冊過了，請直接登入，或使用忘記密碼。',
  'user-not-found': '找不到這個帳號，可能已被刪除。',
  'too-many-requests': '嘗試次數過多，為了保護您的帳號，請稍後再試。',
  'expired-action-code': '這個連結已經過期，請重新申請一次。',
  'invalid-action-code': '這個連結無效或已經使用過，請重新申請一次。',
  'user-disabled': '這個帳號已停用，如有疑問請與客服聯絡。',
  'network-request-failed': '網路連線異常，請確認網路後再試一次。',
  'requires-recent-login': '為了保護您的帳號，請重新輸入目前的密碼後再修改。',
};

export function authErrorMessage(code: string): string | undefined {
  return (AUTH_ERROR_MESSAGES as Record<string, string>)[code];
}

/** How long to wait, rounded up, in words: "45 秒", "12 分鐘", "2 小時". */
export function waitText(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return `${s} 秒`;
  const minutes = Math.ceil(s / 60);
  return minutes <= 90 ? `${minutes} 分鐘` : `${Math.ceil(minutes / 60)} 小時`;
}

/** A refused attempt's message: always says how long to wait (the 429 carries the same as Retry-After). */
export const tooManyRequestsMessage = (seconds: number): string =>
  `嘗試次數過多，請於 ${waitText(seconds)}後再試。`;

/**
 * A refused password check (sign-in, re-authentication, e-mail change): how long the lock lasts, and
 * that a completed password reset lifts it at once (docs/decisions/006-security-hardening.md).
 */
export const signInLockedMessage = (seconds: number): string =>
  `嘗試次數過多，為了保護您的帳號，請於 ${waitText(seconds)}後再試；或使用「忘記密碼」重設密碼，完成後即可登入。`;

/**
 * The same lock met while signed in (confirming the current password before a change): the way out
 * is the same reset, reached after signing out (the reset pages are for signed-out visitors).
 */
export const reauthLockedMessage = (seconds: number): string =>
  `嘗試次數過多，為了保護您的帳號，請於 ${waitText(seconds)}後再試。若忘記目前的密碼，可以登出後使用「忘記密碼」重設，完成後即解除鎖定。`;
