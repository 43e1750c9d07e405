/**
 * `import --time-zone ZONE`: the zone a file's times without one are read in (docs/purposes.md,
 * Moving in). An IANA name (`Europe/Paris`), `UTC`, or a fixed offset (`+01:00`).
 */

/** A local date-time: a date, `T` or a space, hours and minutes, optional seconds and fraction. */
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?$/;
const OFFSET = /^([+-])(\d{2}):(\d{2})$/;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export interface TimeZone {
  name: string;
  /** The offset from UTC in force at an instant, in ms (east positive). */
  offsetAt(ms: number): number;
}

/** A zone by name, or null when there is none such. */
export function timeZone(name: string): TimeZone | null {
  const fixed = OFFSET.exec(name);
  if (fixed) {
    const [, sign, h, m] = fixed as unknown as [string, string, string, string];
    if (Number(h) > 23 || Number(m) > 59) return null;
    const offset = (sign === '-' ? -1 : 1) * (Number(h) * HOUR_MS + Number(m) * 60_000);
    return { name, offsetAt: () => offset };
  }
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    return null;
  }
  return {
    name: format.resolvedOptions().timeZone,
    offsetAt(ms) {
      const at = Math.floor(ms / 1000) * 1000;
      const part: Record<string, number> = {};
      for (const p of format.formatToParts(at)) if (p.type !== 'literal') part[p.type] = Number(p.value);
      return Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!) - at;
    },
  };
}

/** Whether a text is a date-time without a zone (which --time-zone reads). */
export const isLocalDateTime = (text: string): boolean => LOCAL.test(text);

/**
 * The instant (RFC 3339, UTC, milliseconds) of a local date-time in a zone, or why there is none:
 * not such a time, or a time the zone skips (a daylight-saving change). A time the zone passes
 * twice is the first of the two.
 *
 * @example
 * localInstant('2024-07-01 10:00', timeZone('Europe/Paris')!) // '2024-07-01T08:00:00.000Z'
 */
export function localInstant(text: string, zone: TimeZone): string | { error: string } {
  const m = LOCAL.exec(text);
  if (!m) return { error: 'is not a date-time' };
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as [number, number, number, number, number, number];
  const wall = Date.UTC(y, mo - 1, d, h, mi, s, m[7] ? Math.floor(Number(m[7]) * 1000) : 0);
  const back = new Date(wall);
  // Date.UTC rolls 2024-02-30 over into March: a day or time out of range is no time at all.
  if (y < 1 || back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) {
    return { error: 'is not a date-time' };
  }
  // The offsets on either side of any change near this time; a candidate holds when its own offset is the one assumed.
  const candidates = [...new Set([zone.offsetAt(wall - DAY_MS), zone.offsetAt(wall + DAY_MS), zone.offsetAt(wall)])]
    .map((offset) => wall - offset)
    .filter((ms) => wall - zone.offsetAt(ms) === ms)
    .sort((a, b) => a - b);
  if (candidates.length === 0) return { error: `does not exist in ${zone.name} (a daylight-saving change skips it)` };
  return new Date(candidates[0]!).toISOString();
}

/** `import --date-format PATTERN`: how a file writes its times, when not as RFC 3339. */
export interface DateFormat {
  pattern: string;
  /** The text as a local date-time `localInstant` reads (`2024-03-15T10:30:00`), or undefined when it does not fit. */
  toLocal(text: string): string | undefined;
  /** A pattern of instants (`X`, `x`: Unix time): the text as RFC 3339 in UTC, needing no zone; undefined when it does not fit. */
  toInstant?(text: string): string | undefined;
}

/** Unix time as platforms export it (the tokens of moment and Day.js): `X` seconds (a fraction allowed), `x` milliseconds. */
const UNIX = new Map<string, { re: RegExp; ms: number }>([
  ['X', { re: /^\d{1,12}(?:\.\d{1,3})?$/, ms: 1000 }],
  ['x', { re: /^\d{1,15}$/, ms: 1 }],
]);

/** The pattern's tokens, longest first, and what each matches. */
const TOKENS: [token: string, part: 'y' | 'mo' | 'd' | 'h' | 'mi' | 's', source: string][] = [
  ['YYYY', 'y', '(\\d{4})'],
  ['MM', 'mo', '(\\d{2})'],
  ['M', 'mo', '(\\d{1,2})'],
  ['DD', 'd', '(\\d{2})'],
  ['D', 'd', '(\\d{1,2})'],
  ['HH', 'h', '(\\d{2})'],
  ['H', 'h', '(\\d{1,2})'],
  ['mm', 'mi', '(\\d{2})'],
  ['ss', 's', '(\\d{2})'],
];

/**
 * A `--date-format` pattern read, or why it cannot be one. Tokens: YYYY, MM or M (month), DD or D
 * (day), HH or H (hour, 0-23), mm (minutes), ss (seconds); anything else is written as it is. The
 * year, month and day are required; the time is midnight when the pattern has none. The time is
 * local: `--time-zone` says where. `X` alone is Unix time in seconds and `x` in milliseconds:
 * instants, in no zone.
 *
 * @example
 * dateFormat('DD.MM.YYYY HH:mm')!.toLocal('15.03.2024 10:30') // '2024-03-15T10:30:00'
 */
export function dateFormat(pattern: string): DateFormat | string {
  const unix = UNIX.get(pattern);
  if (unix) {
    return {
      pattern,
      toLocal: () => undefined,
      toInstant(text) {
        const t = text.trim();
        if (!unix.re.test(t)) return undefined;
        const at = new Date(Math.round(Number(t) * unix.ms));
        return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
      },
    };
  }
  let source = '';
  const order: (typeof TOKENS)[number][1][] = [];
  for (let i = 0; i < pattern.length;) {
    const token = TOKENS.find(([t]) => pattern.startsWith(t, i));
    if (token) {
      if (order.includes(token[1])) return `--date-format ${pattern}: ${token[0]} repeats a part given before`;
      order.push(token[1]);
      source += token[2];
      i += token[0].length;
    } else {
      source += pattern[i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      i++;
    }
  }
  if (!order.includes('y') || !order.includes('mo') || !order.includes('d')) {
    return `--date-format ${pattern}: give the year (YYYY), month (MM or M) and day (DD or D), e.g. DD.MM.YYYY HH:mm`;
  }
  if (order.includes('s') && !order.includes('mi')) return `--date-format ${pattern}: seconds (ss) need minutes (mm)`;
  if (order.includes('mi') && !order.includes('h')) return `--date-format ${pattern}: minutes (mm) need hours (HH or H)`;
  const re = new RegExp(`^${source}$`);
  const pad = (n: string | undefined) => (n ?? '0').padStart(2, '0');
  return {
    pattern,
    toLocal(text) {
      const m = re.exec(text.trim());
      if (!m) return undefined;
      const at = (part: (typeof TOKENS)[number][1]) => (order.includes(part) ? m[order.indexOf(part) + 1] : undefined);
      return `${at('y')}-${pad(at('mo'))}-${pad(at('d'))}T${pad(at('h'))}:${pad(at('mi'))}:${pad(at('s'))}`;
    },
  };
}
