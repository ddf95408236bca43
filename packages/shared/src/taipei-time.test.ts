import { describe, expect, it } from 'vitest';
import {
  endOfTaipeiDaysAfter,
  formatTaipeiDate,
  formatTaipeiDateTime,
  formatTaipeiLongDate,
  formatTaipeiMonth,
  formatTaipeiMonthDay,
  fromTaipeiInput,
  taipeiDay,
  taipeiHour,
  taipeiMonth,
  toTaipeiInput,
} from './taipei-time.ts';

describe('times are Taiwan time', () => {
  it('shows an instant as Taipei wall-clock time, 24-hour', () => {
    // 17:30 UTC on 1 March is 01:30 on 2 March in Taipei.
    expect(formatTaipeiDateTime('2026-03-01T17:30:00Z')).toBe('2026/03/02 01:30');
    expect(formatTaipeiDateTime(new Date('2026-03-01T17:30:09Z'), { seconds: true })).toBe(
      '2026/03/02 01:30:09',
    );
    expect(formatTaipeiDate(Date.parse('2026-03-01T17:30:00Z'))).toBe('2026/03/02');
  });

  it('writes midnight as 00, never 24', () => {
    expect(formatTaipeiDateTime('2026-03-01T16:00:00Z')).toBe('2026/03/02 00:00');
    expect(taipeiHour('2026-03-01T16:00:00Z')).toBe(0);
    expect(taipeiHour('2026-03-01T15:59:00Z')).toBe(23);
  });

  it('counts days and months by the Taipei calendar', () => {
    // New Year's Eve 16:30 UTC is already 1 January in Taipei.
    expect(taipeiDay('2026-12-31T16:30:00Z')).toBe('2027-01-01');
    expect(taipeiDay('2026-12-31T16:30:00Z', '')).toBe('20270101');
    expect(taipeiMonth('2026-12-31T16:30:00Z')).toBe('2027-01');
    expect(formatTaipeiMonth('2026-12-31T15:30:00Z')).toBe('2026/12');
    expect(formatTaipeiMonthDay('2026-11-21T16:05:00Z')).toBe('11/22');
    expect(formatTaipeiLongDate('2026-11-21T16:05:00Z')).toBe('2026/11/22（週日）');
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

describe('periods counted in Taipei calendar days', () => {
  it('leaves out the day of the event and ends with the last day, whatever the hour', () => {
    // Delivered late on Sunday 1 November or just after midnight: the seven days end with Sunday 8 November.
    expect(endOfTaipeiDaysAfter('2026-11-01T22:00:00+08:00', 7).toISOString()).toBe(
      '2026-11-08T15:59:59.999Z',
    );
    expect(endOfTaipeiDaysAfter('2026-11-01T00:05:00+08:00', 7).toISOString()).toBe(
      '2026-11-08T15:59:59.999Z',
    );
    // 16:30 UTC on 31 October is already 1 November in Taipei.
    expect(endOfTaipeiDaysAfter('2026-10-31T16:30:00Z', 7).toISOString()).toBe('2026-11-08T15:59:59.999Z');
    // Across a month and a year.
    expect(endOfTaipeiDaysAfter('2026-12-28T10:00:00+08:00', 7).toISOString()).toBe(
      '2027-01-04T15:59:59.999Z',
    );
  });
});
