/**
 * Dates and times as the shop reads them: Taiwan time (Asia/Taipei, UTC+8, no daylight saving),
 * whatever the zone of the browser or the server. This is the one place Taipei time is worked out;
 * every date shown, every day or month a rule counts (order numbers, birthdays, the dashboard's
 * days) goes through these helpers.
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

/**
 * Taiwan has kept UTC+8 without daylight saving since 1980 (the last summer time ended on 30
 * September 1979), so an instant from then on is Taipei time by adding eight hours: no Intl
 * formatter, whose first use on a page loads the browser's ICU data, a long task on a phone
 * (docs/decisions/026). Older instants (a few summers between 1945 and 1979 had UTC+9) go through
 * an Intl formatter with the zone's full history, made on first need.
 */
const FIXED_OFFSET_SINCE = Date.UTC(1979, 11, 31, 16); // 1980-01-01 00:00 in Taipei
const OFFSET_MS = 8 * 3_600_000;
let historic: Intl.DateTimeFormat | undefined;
const WEEKDAYS = ['週日', '週一', '週二', '週三', '週四', '週五', '週六'] as const;

const toDate = (when: Instant): Date => (when instanceof Date ? when : new Date(when));
const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** The Taipei wall clock of an instant as a UTC date's fields (getUTCFullYear() is the Taipei year). */
function taipeiClock(when: Instant): Date {
  const time = toDate(when).getTime();
  if (Number.isNaN(time)) throw new RangeError('Invalid time value');
  if (time >= FIXED_OFFSET_SINCE) return new Date(time + OFFSET_MS);
  historic ??= new Intl.DateTimeFormat('en-CA', {
    timeZone: TAIPEI_TIME_ZONE,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    hourCycle: 'h23',
  });
  const p: Record<string, number> = {};
  for (const x of historic.formatToParts(time)) p[x.type] = Number(x.value);
  const clock = new Date(0);
  clock.setUTCFullYear(p.year ?? 0, (p.month ?? 1) - 1, p.day ?? 1);
  clock.setUTCHours(p.hour ?? 0, p.minute ?? 0, p.second ?? 0, new Date(time).getUTCMilliseconds());
  return clock;
}

export function taipeiParts(when: Instant): TaipeiParts {
  const c = taipeiClock(when);
  return {
    year: pad(c.getUTCFullYear(), 4),
    month: pad(c.getUTCMonth() + 1),
    day: pad(c.getUTCDate()),
    hour: pad(c.getUTCHours()),
    minute: pad(c.getUTCMinutes()),
    second: pad(c.getUTCSeconds()),
  };
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

/**
 * 2026/11/22（週日）: a date with its weekday (a heading, a pickup deadline), in the one date format
 * the shop uses everywhere.
 */
export function formatTaipeiLongDate(when: Instant): string {
  const c = taipeiClock(when);
  return `${formatTaipeiDate(when)}（${WEEKDAYS[c.getUTCDay()]}）`;
}

/** A day ECPay writes as 2026-11-22 (an invoice's date, Taipei time, perhaps with its time) as 2026/11/22. */
export function formatEcpayDate(value: string): string {
  return value.slice(0, 10).replaceAll('-', '/');
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

/**
 * The last instant of the `days`-th Taipei calendar day after `when`'s own day (23:59:59.999):
 * a period "of N days from" an event, counted as Taiwan's Civil Code counts days (the day of the
 * event itself not counted, the period ending when its last day ends).
 */
export function endOfTaipeiDaysAfter(when: Instant, days: number): Date {
  const c = taipeiClock(when);
  const lastDayStartsAt = Date.UTC(c.getUTCFullYear(), c.getUTCMonth(), c.getUTCDate() + days) - OFFSET_MS;
  return new Date(lastDayStartsAt + 86_400_000 - 1);
}
