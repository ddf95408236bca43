/**
 * Times in the console are Taiwan time, whatever the browser's zone: 2026/11/22 14:05, and
 * `datetime-local` inputs read and write Taipei wall-clock time.
 */
const TAIPEI = 'Asia/Taipei';

const parts = new Intl.DateTimeFormat('en-CA', { timeZone: TAIPEI, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

const taipeiParts = (iso: string) => Object.fromEntries(parts.formatToParts(new Date(iso)).map((x) => [x.type, x.value]));

/** 2026/11/22 14:05 (Taipei), built from parts so the separators are always these. */
export function formatTaipei(iso: string): string {
  const p = taipeiParts(iso);
  return `${p.year}/${p.month}/${p.day} ${p.hour}:${p.minute}`;
}

/** An ISO time as a `datetime-local` value in Taipei time: 2026-11-22T14:05. */
export function toTaipeiInput(iso: string | null): string {
  if (!iso) return '';
  const p = taipeiParts(iso);
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

/** A `datetime-local` value read as Taipei time, as an ISO time (null when empty or not a time). */
export function fromTaipeiInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return null;
  const date = new Date(`${value}:00+08:00`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
