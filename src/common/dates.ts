/**
 * Dates and instants as the API and the CLI take them: RFC 3339 date-times with a zone, calendar
 * days, and inclusive query bounds. No dependency, so the CLI checks its arguments without loading
 * the service.
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;
/** 0001-01-01T00:00:00Z .. 9999-12-31T23:59:59.999Z: instants JavaScript and PostgreSQL both write as ISO 8601. */
const EARLIEST = -62135596800000;
const LATEST = 253402300799999;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const isLeapYear = (y: number): boolean => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
const isCalendarDate = (y: number, m: number, d: number): boolean =>
  m >= 1 && m <= 12 && d >= 1 && d <= (m === 2 && isLeapYear(y) ? 29 : DAYS_IN_MONTH[m - 1]!);
const inRange = (ms: number): boolean => !Number.isNaN(ms) && ms >= EARLIEST && ms <= LATEST;

/**
 * An RFC 3339 date-time with a zone, on a real calendar day, without a leap second (JavaScript
 * cannot hold one), between the years 1 and 9999 in UTC. `Date.parse` alone takes "2024-02-30".
 *
 * @example
 * isDateTime('2024-05-01T12:00:00+02:00') // true
 * isDateTime('2016-12-31T23:59:60Z')      // false
 */
export function isDateTime(s: string): boolean {
  const m = DATE_TIME.exec(s);
  if (!m) return false;
  const [y, mo, d, h, mi, sec] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (!isCalendarDate(y, mo, d) || h > 23 || mi > 59 || sec > 59) return false;
  if (m[7] !== undefined && (Number(m[7]) > 23 || Number(m[8]) > 59)) return false;
  return inRange(Date.parse(s.toUpperCase()));
}

/** A calendar day, `YYYY-MM-DD`, from 0001-01-01 to 9999-12-31. */
const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const LATEST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

// A `date-or-date-time` is a date or a date-time with a zone, never local time. Date.parse keeps
// milliseconds and drops finer digits.
const instant = (s: string): number => Date.parse(DATE_ONLY.test(s) ? `${s}T00:00:00Z` : s);
/** Records are stamped to the millisecond: a start between two milliseconds begins at the later one. */
const startInstant = (s: string): number => Math.min(LATEST_INSTANT, instant(s) + (/\.\d{3}\d*[1-9]/.test(s) ? 1 : 0));

/**
 * Inclusive query bounds (`date-or-date-time`) as a half-open range [from, before): a date-only
 * bound covers its whole UTC day, a date-time one its millisecond (what the ledger stamps).
 *
 * @example
 * inclusiveBounds('2026-01-01', '2026-01-31') // { from: 2026-01-01T00:00Z, before: 2026-02-01T00:00Z }
 */
export function inclusiveBounds(start: string | undefined, end: string | undefined): { from: Date | undefined; before: Date | undefined } {
  const from = start === undefined ? undefined : new Date(startInstant(start));
  let before: Date | undefined;
  if (end !== undefined) before = new Date(instant(end) + (DATE_ONLY.test(end) ? DAY_MS : 1));
  // An end of 9999-12-31 reaches past the last instant ISO 8601 writes with four digits, which no
  // record can have: it bounds nothing (and year 10000 is not text every engine reads).
  if (before !== undefined && before.getTime() > LATEST_INSTANT) before = undefined;
  return { from, before };
}

/**
 * Whether an inclusive range starts after it ends, to the millisecond: a date-only end covers its
 * whole UTC day. Bounds within one millisecond are not reversed (they may only match nothing).
 *
 * @example
 * startsAfterEnd('2026-12-01', '2026-11-30T23:59:59Z') // true
 */
export function startsAfterEnd(start: string, end: string): boolean {
  return instant(start) > instant(end) + (DATE_ONLY.test(end) ? DAY_MS - 1 : 0);
}

export function isDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const [y, mo, d] = m.slice(1, 4).map(Number) as [number, number, number];
  return y >= 1 && isCalendarDate(y, mo, d);
}
