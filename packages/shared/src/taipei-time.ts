/**
 * Dates and times as the shop reads them: Taiwan time (Asia/Taipei, UTC+8, no daylight saving),
 * whatever the zone of the browser or the server. This is the one place an
 * `Intl.DateTimeFormat` is set up with that zone; every date shown, every day or month a rule
 * counts (order numbers, birthdays, the dashboard's days) goes through these helpers.
 *
 * Shown dates are built from parts so the separators are always ours (2026/11/22 14:05), not
 * whatever a locale's data says this year.
 */

export const TAIPEI_TIME_ZONE = 'Asia/Taipei';

/** An instant: a Date, an ISO string, or milliseconds since the epoch. */
export type Instant = Date | string | number;

/** The Taipei wall-clock fields of an instant, zero-padded (month '01'–'12', hour '00'–'23'). */
export interface TaipeiParts {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

const numeric = new Intl.DateTimeFormat('en-CA', {
  timeZone: TAIPEI_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
const longDate = new Intl.DateTimeFormat('zh-TW', { timeZone: TAIPEI_TIME_ZONE, year: 'numeric', month: 'long', day: 'numeric', weekday: 'short' });

const toDate = (when: Instant): Date => (when instanceof Date ? when : new Date(when));

export function taipeiParts(when: Instant): TaipeiParts {
  const p: Record<string, string> = {};
  for (const x of numeric.formatToParts(toDate(when))) p[x.type] = x.value;
  return { year: p.year ?? '', month: p.month ?? '', day: p.day ?? '', hour: p.hour ?? '', minute: p.minute ?? '', second: p.second ?? '' };
}

/** 2026/11/22 */
export function formatTaipeiDate(when: Instant): string {
  const p = taipeiParts(when);
  return `${p.year}/${p.month}/${p.day}`;
}

/** 2026/11/22 14:05, or 2026/11/22 14:05:09 with `seconds`. */
export function formatTaipeiDateTime(when: Instant, options: { seconds?: boolean } = {}): string {
  const p = taipeiParts(when);
  return `${p.year}/${p.month}/${p.day} ${p.hour}:${p.minute}${options.seconds ? `:${p.second}` : ''}`;
}

/** 2026/11 */
export function formatTaipeiMonth(when: Instant): string {
  const p = taipeiParts(when);
  return `${p.year}/${p.month}`;
}

/** 11/22, for chart axes. */
export function formatTaipeiMonthDay(when: Instant): string {
  const p = taipeiParts(when);
  return `${Number(p.month)}/${Number(p.day)}`;
}

/** 2026年11月22日週日, a heading's date. */
export function formatTaipeiLongDate(when: Instant): string {
  return longDate.format(toDate(when));
}

/** The Taipei day as a key: 2026-11-22 (or 20261122 with `separator: ''`, as order numbers use). */
export function taipeiDay(when: Instant, separator = '-'): string {
  const p = taipeiParts(when);
  return [p.year, p.month, p.day].join(separator);
}

/** The Taipei month as a key: 2026-11. */
export function taipeiMonth(when: Instant, separator = '-'): string {
  const p = taipeiParts(when);
  return [p.year, p.month].join(separator);
}

/** The Taipei hour, 0–23. */
export function taipeiHour(when: Instant): number {
  return Number(taipeiParts(when).hour);
}

/** An instant as a `datetime-local` value in Taipei time: 2026-11-22T14:05 ('' for none). */
export function toTaipeiInput(when: Instant | null): string {
  if (when === null || when === '') return '';
  const p = taipeiParts(when);
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

/** A `datetime-local` value read as Taipei time, as an ISO time (null when empty or not a time). */
export function fromTaipeiInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return null;
  const date = new Date(`${value}:00+08:00`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
