import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.ts';
import { memoryRateLimiter, takeAttempt } from '../../plugins/rate-limiter.ts';
import { registerChecks } from './service.ts';

const MINUTE = 60_000;

/** One sign-up from `ip` for `email` at the clock's time: 'ok', or the refusal's message and Retry-After. */
async function signUp(limiter: ReturnType<typeof memoryRateLimiter>, ip: string, email: string) {
  try {
    await takeAttempt(limiter, registerChecks(ip, email));
    return 'ok' as const;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return {
      status: error.statusCode,
      message: error.message,
      retryAfter: Number(error.headers?.['retry-after']),
    };
  }
}

/**
 * Sign-ups behind one shared address (carrier-grade NAT on Taiwan's mobile networks, an office, a
 * school): a few hundred genuine first-timers an hour get in, and a refusal says how long to wait.
 */
describe('sign-up limits per client address', () => {
  it('lets 300 different people sign up through one address within an hour, 60 in any 10 minutes', async () => {
    let now = Date.parse('2026-11-26T01:00:00Z');
    const limiter = memoryRateLimiter(() => now);
    let accepted = 0;
    // Six waves of 50 people ten minutes apart: a promotion on LINE, a class signing up together.
    for (let wave = 0; wave < 6; wave++) {
      for (let i = 0; i < 50; i++)
        if ((await signUp(limiter, '101.12.0.1', `w${wave}-${i}@example.com`)) === 'ok') accepted++;
      now += 10 * MINUTE + 1000;
    }
    expect(accepted).toBe(300);
    await limiter.close();
  });

  it('refuses the 61st sign-up within ten minutes, saying in minutes how long to wait', async () => {
    let now = Date.parse('2026-11-26T01:00:00Z');
    const limiter = memoryRateLimiter(() => now);
    for (let i = 0; i < 60; i++)
      expect(await signUp(limiter, '101.12.0.2', `burst-${i}@example.com`)).toBe('ok');
    now += 2 * MINUTE;
    const refused = await signUp(limiter, '101.12.0.2', 'burst-61@example.com');
    expect(refused).toEqual({ status: 429, message: '嘗試次數過多，請於 8 分鐘後再試。', retryAfter: 480 });
    // The refused attempt took nothing from the hour's allowance nor from the address.
    now += 8 * MINUTE;
    expect(await signUp(limiter, '101.12.0.2', 'burst-61@example.com')).toBe('ok');
    await limiter.close();
  });

  it('refuses the 301st sign-up within the hour, saying how long to wait', async () => {
    let now = Date.parse('2026-11-26T01:00:00Z');
    const limiter = memoryRateLimiter(() => now);
    for (let wave = 0; wave < 5; wave++) {
      for (let i = 0; i < 60; i++)
        expect(await signUp(limiter, '101.12.0.3', `h${wave}-${i}@example.com`)).toBe('ok');
      now += 10 * MINUTE + 1000;
    }
    const refused = await signUp(limiter, '101.12.0.3', 'late@example.com');
    expect(refused).toMatchObject({ status: 429 });
    const { retryAfter, message } = refused as { retryAfter: number; message: string };
    expect(retryAfter).toBeGreaterThan(9 * 60);
    expect(retryAfter).toBeLessThanOrEqual(10 * 60);
    expect(message).toBe(`嘗試次數過多，請於 ${Math.ceil(retryAfter / 60)} 分鐘後再試。`);
    await limiter.close();
  });

  it('still allows one e-mail address 3 sign-ups an hour, whatever address they come from', async () => {
    const now = Date.parse('2026-11-26T01:00:00Z');
    const limiter = memoryRateLimiter(() => now);
    for (let i = 0; i < 3; i++) expect(await signUp(limiter, `101.12.1.${i}`, 'same@example.com')).toBe('ok');
    expect(await signUp(limiter, '101.12.1.9', 'same@example.com')).toEqual({
      status: 429,
      message: '嘗試次數過多，請於 60 分鐘後再試。',
      retryAfter: 3600,
    });
    // Refused for the e-mail, the attempt is not counted against the address.
    expect(await limiter.peek('register:ip:101.12.1.9')).toEqual({
      count: 0,
      resetMs: expect.any(Number) as number,
    });
    await limiter.close();
  });
});
