import { describe, expect, it } from 'vitest';
import { prng } from '../../../test/support/prng.js';
import { csvRecords, linesOf, type CsvRecord } from './csv-records.js';

async function* chunks(...parts: string[]): AsyncGenerator<string> {
  for (const p of parts) yield p;
}
async function read(delimiter: string, ...parts: string[]): Promise<CsvRecord[]> {
  const out: CsvRecord[] = [];
  for await (const r of csvRecords(linesOf(chunks(...parts)), delimiter)) out.push(r);
  return out;
}

describe('csv records › RFC 4180 with line numbers', () => {
  it('keeps line breaks inside quoted fields exactly, and numbers records by the line they start on', async () => {
    expect(await read(',', 'a,b\r\n1,"x\r\ny"\r\n2,"say ""hi"""\n\n3,\r\n')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['1', 'x\r\ny'] },
      { line: 4, fields: ['2', 'say "hi"'] },
      { line: 6, fields: ['3', ''] },
    ]);
  });

  it('reads a CRLF split across chunks as one line end, and a last line without one', async () => {
    expect(await read(';', 'a;b\r', '\nc;"d\r', '\ne"\r\nf;g')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['c', 'd\r\ne'] },
      { line: 4, fields: ['f', 'g'] },
    ]);
  });

  it('skips empty lines and lines of spaces or tabs alone, numbering the others by their own lines', async () => {
    expect(await read(',', 'a,b\n', '\n', '   \n', '\t \r\n', 'c,d\n', '  ')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 5, fields: ['c', 'd'] },
    ]);
  });

  it('reports a broken record on its line and goes on at the next line', async () => {
    expect(await read(',', 'a,"b"c\n1,2\nx,"never closed\n3,4\n')).toEqual([
      { line: 1, error: expect.stringMatching(/after a closing quote/) },
      { line: 2, fields: ['1', '2'] },
      { line: 3, error: 'a quoted field is not closed' },
      { line: 4, fields: ['3', '4'] },
    ]);
  });

  it('reads a quoted field with spaces around its quotes, as hand-written files have them; a plain field keeps its spaces', async () => {
    expect(await read(',', 'a, "Smith, John" ,b\n "x"\n  , plain \n')).toEqual([
      { line: 1, fields: ['a', 'Smith, John', 'b'] },
      { line: 2, fields: ['x'] },
      { line: 3, fields: ['  ', ' plain '] },
    ]);
    expect(await read(',', 'a, "open\n')).toEqual([{ line: 1, error: 'a quoted field is not closed' }]);
  });

  it('ends a file whose last line ends with a lone CR (classic Mac line ends) without the CR in its last field', async () => {
    expect(await read(',', 'a,b\r1,yes\r2,no\r')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['1', 'yes'] },
      { line: 3, fields: ['2', 'no'] },
    ]);
    expect(await read(',', 'a,"x\r', 'y"\r')).toEqual([{ line: 1, fields: ['a', 'x\ry'] }]);
  });

  it('reads back any records written in RFC 4180, whatever the line ends, delimiter and chunks (seeded)', async () => {
    const seed = 20261129;
    const random = prng(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const pieces = ['a', 'b', ',', ';', '"', '""', '\n', '\r', '\r\n', ' ', '\t', 'é', '😀'];
    for (let n = 0; n < 2000; n++) {
      const delimiter = pick([',', ';', '\t']);
      const columns = 1 + Math.floor(random() * 4);
      const field = () => Array.from({ length: Math.floor(random() * 6) }, () => pick(pieces)).join('');
      const records = Array.from({ length: 1 + Math.floor(random() * 5) }, () => Array.from({ length: columns }, field));
      // Quoted when it must be, else now and then; a record whose line would hold only spaces and
      // tabs (which reads as a blank line, no record) has its first field quoted.
      const quoted = (f: string) => `"${f.replace(/"/g, '""')}"`;
      const written = (f: string) => (f === '' || /[",;\t\r\n]/.test(f) || random() < 0.2 ? quoted(f) : f);
      const line = (r: string[]) => {
        const fields = r.map(written);
        if (/^[ \t]*$/.test(fields.join(delimiter))) fields[0] = quoted(r[0]!);
        return fields.join(delimiter);
      };
      const end = () => pick(['\n', '\r\n', '\r']);
      const text = records.map(line).join(end()) + (random() < 0.5 ? end() : '');
      const parts: string[] = [];
      for (let i = 0; i < text.length;) {
        const size = 1 + Math.floor(random() * 8);
        parts.push(text.slice(i, i + size));
        i += size;
      }
      const read_ = (await read(delimiter, ...parts)).map((r) => ('fields' in r ? r.fields : r.error));
      expect(read_, `case ${n} of seed ${seed}: ${JSON.stringify(text)}`).toEqual(records);
    }
  });
});
