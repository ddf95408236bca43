import { describe, expect, it } from 'vitest';
import { signInLockedMessage, tooManyRequestsMessage, waitText } from './auth-errors.ts';

describe('how long to wait, in words', () => {
  it('rounds up to seconds, minutes or hours', () => {
    expect(waitText(0.2)).toBe('1 秒');
    expect(waitText(45)).toBe('45 秒');
    expect(waitText(60)).toBe('1 分鐘');
    expect(waitText(61)).toBe('2 分鐘');
    expect(waitText(719.1)).toBe('12 分鐘');
    expect(waitText(3600)).toBe('60 分鐘');
    expect(waitText(90 * 60 + 1)).toBe('2 小時');
  });

  it('reads naturally in the refusal messages', () => {
    expect(tooManyRequestsMessage(720)).toBe('嘗試次數過多，請於 12 分鐘後再試。');
    expect(signInLockedMessage(900)).toBe(
      '嘗試次數過多，為了保護您的帳號，請於 15 分鐘後再試；或使用「忘記密碼」重設密碼，完成後即可登入。',
    );
  });
});
