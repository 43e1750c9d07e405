import { describe, expect, it } from 'vitest';
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

  it('reports a broken record on its line and goes on at the next line', async () => {
    expect(await read(',', 'a,"b"c\n1,2\nx,"never closed\n3,4\n')).toEqual([
      { line: 1, error: expect.stringMatching(/after a closing quote/) },
      { line: 2, fields: ['1', '2'] },
      { line: 3, error: 'a quoted field is not closed' },
      { line: 4, fields: ['3', '4'] },
    ]);
  });
});
