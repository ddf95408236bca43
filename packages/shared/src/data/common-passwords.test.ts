import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORDS } from './common-passwords.ts';

describe('COMMON_PASSWORDS', () => {
  it('holds at least 1,000 entries', () => {
    expect(COMMON_PASSWORDS.length).toBeGreaterThanOrEqual(1000);
  });

  it('has no duplicates', () => {
    const seen = new Set<string>();
    const duplicates = COMMON_PASSWORDS.filter((p) => (seen.has(p) ? true : (seen.add(p), false)));
    expect(duplicates).toEqual([]);
  });

  it('holds only lower-case, trimmed, non-empty entries', () => {
    const bad = COMMON_PASSWORDS.filter((p) => p !== p.toLowerCase() || p !== p.trim() || p.length === 0);
    expect(bad).toEqual([]);
  });

  it('holds at least 900 entries of 8 or more characters, the minimum password length', () => {
    expect(COMMON_PASSWORDS.filter((p) => p.length >= 8).length).toBeGreaterThanOrEqual(900);
  });

  it('includes the best-known common passwords of every region', () => {
    for (const p of [
      '123456',
      'password',
      '12345678',
      'qwerty',
      'iloveyou',
      '1qaz2wsx',
      '5201314',
      'woaini1314',
      'a123456',
      'qq123456',
      'zxcvbnm',
      '88888888',
      '147258369',
      'taiwan123',
    ]) {
      expect(COMMON_PASSWORDS, p).toContain(p);
    }
  });
});
