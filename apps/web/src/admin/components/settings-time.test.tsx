import { describe, expect, it } from 'vitest';
import { formatTaipei, fromTaipeiInput, toTaipeiInput } from './settings-time.tsx';

describe('console times are Taiwan time', () => {
  it('shows an instant as Taipei wall-clock time, 24-hour', () => {
    // 17:30 UTC on 1 March is 01:30 on 2 March in Taipei.
    expect(formatTaipei('2026-03-01T17:30:00Z')).toBe('2026/03/02 01:30');
  });

  it('reads and writes datetime-local values as Taipei time, whatever the browser zone', () => {
    expect(toTaipeiInput('2026-03-01T17:30:00Z')).toBe('2026-03-02T01:30');
    expect(fromTaipeiInput('2026-03-02T01:30')).toBe('2026-03-01T17:30:00.000Z');
    expect(fromTaipeiInput(toTaipeiInput('2026-11-22T02:05:00.000Z'))).toBe('2026-11-22T02:05:00.000Z');
  });

  it('treats empty and malformed values as no time', () => {
    expect(toTaipeiInput(null)).toBe('');
    expect(fromTaipeiInput('')).toBeNull();
    expect(fromTaipeiInput('2026-13-45T99:99')).toBeNull();
    expect(fromTaipeiInput('tomorrow')).toBeNull();
  });
});
