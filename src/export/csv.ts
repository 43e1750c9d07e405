import { Readable } from 'node:stream';
import type { ConsentSearchItem } from '../../projections/consents/consents.queries.js';

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
] as const;

const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell: RFC 4180 quoting, and a leading `'` on text a spreadsheet would run as a formula.
 *
 * @example
 * csvCell('=HYPERLINK("x")') // "'=HYPERLINK(""x"")" quoted: `"'=HYPERLINK(""x"")"`
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let s = String(value);
  if (FORMULA_START.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvRow = (cells: readonly unknown[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/** A CSV byte stream of consent records, header first, in chunks of about 64 KiB. */
export function consentsCsv(rows: AsyncIterable<ConsentSearchItem>): Readable {
  async function* lines(): AsyncGenerator<string> {
    let buffer = csvRow(CSV_COLUMNS);
    for await (const r of rows) {
      buffer += csvRow(CSV_COLUMNS.map((c) => r[c]));
      if (buffer.length >= 65_536) {
        yield buffer;
        buffer = '';
      }
    }
    if (buffer) yield buffer;
  }
  return Readable.from(lines(), { objectMode: false });
}
