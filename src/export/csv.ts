import { Readable } from 'node:stream';
import type { ConsentSearchItem } from '../application/consents/consent.queries.js';

export const CSV_COLUMNS = [
  'id',
  'userReference',
  'policyVersionId',
  'policyType',
  'policyVersion',
  'consentGiven',
  'status',
  'ipAddress',
  'userAgent',
  'consentHash',
  'createdAt',
  'withdrawnAt',
  // true when the record's personal fields do not open with their key (the stored record was changed): its personal cells are empty.
  'tampered',
  // Added by issue 18 after the first thirteen, which keep their order: the version's purpose, an
  // imported decision's original time (empty: decided at createdAt), and when a consent given expires.
  'purpose',
  'collectedAt',
  'expiresAt',
  // The record's metadata as JSON (empty once erased), so that `import` carries it over too.
  'metadata',
] as const;

/**
 * A formula start, after any `'` already there: such text gets one `'` more, so that taking one
 * off (as `import` does) gives back the text, `'=x` included.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;

/**
 * One CSV cell: empty for null, else always quoted (RFC 4180, quotes doubled), with a leading `'`
 * on text a spreadsheet would run as a formula (and on such text behind `'`s of its own). Quoting
 * every cell, not only those holding a separator, keeps a `;`, tab or line break of the text inside
 * quotes when a spreadsheet splits the line on another separator than `,`: quotes then pair up
 * across the whole line.
 *
 * @example
 * csvCell('=HYPERLINK("x")') // `"'=HYPERLINK(""x"")"`
 * csvCell("'=x")             // `"''=x"`
 * csvCell('x;=cmd')          // `"x;=cmd"`
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let s = String(value);
  if (FORMULA_START.test(s)) s = `'${s}`;
  return `"${s.includes('"') ? s.replace(/"/g, '""') : s}"`;
}

/**
 * A cell's text as `csvCell` had it, once a CSV reader has taken off its quotes: the `'` put
 * before a formula start taken off (`import` reads this service's export so).
 *
 * @example
 * unescapedCell("''=x") // "'=x"
 */
export const unescapedCell = (text: string): string => (text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text);

export const csvRow = (cells: readonly unknown[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/** A CSV byte stream of consent records, header first, in chunks of about 64 KiB. */
export const consentsCsv = (rows: AsyncIterable<ConsentSearchItem>): Readable =>
  textStream(
    rows,
    (r) => csvRow(CSV_COLUMNS.map((c) => (c !== 'metadata' ? r[c] : r.metadata === null ? null : JSON.stringify(r.metadata)))),
    `${CSV_COLUMNS.join(',')}\r\n`,
  );

/** A CSV byte stream of `rows`, the named columns of each, header first, in chunks of about 64 KiB. */
export const csvStream = <T, K extends keyof T & string>(columns: readonly K[], rows: AsyncIterable<T>): Readable =>
  textStream(rows, (r) => csvRow(columns.map((c) => r[c])), `${columns.join(',')}\r\n`);

/** A byte stream of JSON lines (one object per line, RFC 8259 text, LF), in chunks of about 64 KiB. */
export const jsonLines = (rows: AsyncIterable<unknown>): Readable => textStream(rows, (r) => `${JSON.stringify(r)}\n`);

/** `head`, then each row's text, as a byte stream in chunks of about 64 KiB. */
function textStream<T>(rows: AsyncIterable<T>, text: (row: T) => string, head = ''): Readable {
  async function* chunks(): AsyncGenerator<string> {
    let buffer = head;
    for await (const r of rows) {
      buffer += text(r);
      if (buffer.length >= 65_536) {
        yield buffer;
        buffer = '';
      }
    }
    if (buffer) yield buffer;
  }
  return Readable.from(chunks(), { objectMode: false });
}
