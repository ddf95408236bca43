import { afterEach, describe, expect, it, vi } from 'vitest';

// The first Intl formatter a page makes loads the browser's ICU data: about 50 ms of one task on
// this project's machine, 200 ms with Lighthouse's phone slowdown, all of it blocking the page
// (docs/decisions/026). Money and the shop's dates are written without it.
describe('money and Taipei dates need no Intl formatter', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.resetModules();
  });

  it('neither loading the helpers nor formatting a price or a date since 1980 makes one', async () => {
    vi.resetModules();
    const made: string[] = [];
    const { NumberFormat, DateTimeFormat } = Intl;
    vi.spyOn(Intl, 'NumberFormat').mockImplementation(function (
      ...args: ConstructorParameters<typeof Intl.NumberFormat>
    ) {
      made.push(`NumberFormat ${String(args[0])}`);
      return new NumberFormat(...args);
    } as unknown as typeof Intl.NumberFormat);
    vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function (
      ...args: ConstructorParameters<typeof Intl.DateTimeFormat>
    ) {
      made.push(`DateTimeFormat ${String(args[0])}`);
      return new DateTimeFormat(...args);
    } as unknown as typeof Intl.DateTimeFormat);
    const money = await import('./money.ts');
    const time = await import('./taipei-time.ts');
    money.formatTwd(1280);
    money.formatTwdRange(450, 1680);
    time.formatTaipeiDateTime('2026-03-01T17:30:00Z');
    time.formatTaipeiLongDate('2026-11-21T16:05:00Z');
    time.taipeiDay(Date.now());
    time.toTaipeiInput('1980-01-01T00:00:00+08:00');
    expect(made).toEqual([]);
  });
});

describe('Taipei time without Intl agrees with Intl', () => {
  // The reference: Intl with the zone's full history (daylight saving included).
  const reference = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Asia/Taipei',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  // The long date is 2026/11/22（週日）: the one date format, with the weekday Intl names.
  const weekday = new Intl.DateTimeFormat('zh-TW', { timeZone: 'Asia/Taipei', weekday: 'short' });
  const longReference = {
    format: (t: number) => `${expected(t).slice(0, 10)}（${weekday.format(t)}）`,
  };
  const expected = (t: number) => {
    const p: Record<string, string> = {};
    for (const x of reference.formatToParts(t)) p[x.type] = x.value;
    return `${p.year}/${p.month}/${p.day} ${p.hour}:${p.minute}:${p.second}`;
  };

  // Some 190,000 instants: seconds of work on a machine busy with other tests; the time-out only
  // guards against a hang.
  it('on every instant of a sweep from 1946 to 2100, and around midnights and new years', async () => {
    const { formatTaipeiDateTime, formatTaipeiLongDate } = await import('./taipei-time.ts');
    const instants: number[] = [];
    // Every 7 hours 13 minutes 17 seconds from 1946 (summer times of 1946–1979 included) to 2100.
    for (let t = Date.UTC(1946, 0, 1); t < Date.UTC(2100, 0, 1); t += (7 * 3600 + 13 * 60 + 17) * 1000 + 123)
      instants.push(t);
    for (let y = 1975; y <= 2040; y++)
      for (const h of [15, 16])
        for (const s of [-1, 0, 1]) instants.push(Date.UTC(y - 1, 11, 31, h, 59, 59) + s * 1000);
    // The change from the last summer time (1979-09-30) and to the fixed offset (1980-01-01).
    for (let t = Date.UTC(1979, 8, 29); t < Date.UTC(1980, 0, 2); t += 1_800_000) instants.push(t);
    const wrong = instants.filter(
      (t) =>
        formatTaipeiDateTime(t, { seconds: true }) !== expected(t) ||
        formatTaipeiLongDate(t) !== longReference.format(t),
    );
    expect(instants.length).toBeGreaterThan(180_000);
    expect(wrong.map((t) => new Date(t).toISOString()).slice(0, 5)).toEqual([]);
  }, 60_000);

  it('refuses what is not a time, as Intl did', async () => {
    const { formatTaipeiDate, formatTaipeiLongDate } = await import('./taipei-time.ts');
    expect(() => formatTaipeiDate('not a date')).toThrow(RangeError);
    expect(() => formatTaipeiLongDate(Number.NaN)).toThrow(RangeError);
  });
});
