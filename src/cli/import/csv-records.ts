/** One line of a text file, with the terminator it ended with ('' for a last line without one). */
/**
 * A line of nothing but spaces or tabs (or the byte order mark a blank first line keeps) holds no
 * value, as a hand-edited file's blank line: no record.
 */
export const isBlankLine = (text: string): boolean => /^[ \t\uFEFF]*$/.test(text);

export interface Line {
  text: string;
  end: string;
}

/** A file's lines, read in chunks, each with its terminator (CRLF, LF or CR) kept as it was. */
export async function* linesOf(chunks: AsyncIterable<string>): AsyncGenerator<Line> {
  let rest = '';
  for await (const chunk of chunks) {
    rest += chunk;
    let start = 0;
    for (;;) {
      const n = rest.indexOf('\n', start);
      const r = rest.indexOf('\r', start);
      if (n === -1 && r === -1) break;
      const at = r !== -1 && (n === -1 || r < n) ? r : n;
      // A CR at the end of the chunk may be the first half of a CRLF: wait for the next chunk.
      if (rest[at] === '\r' && at === rest.length - 1) break;
      const end = rest[at] === '\r' && rest[at + 1] === '\n' ? '\r\n' : rest[at]!;
      yield { text: rest.slice(start, at), end };
      start = at + end.length;
    }
    rest = rest.slice(start);
  }
  // The file's last terminator may be a lone CR, held back above in case an LF followed.
  if (rest.endsWith('\r')) yield { text: rest.slice(0, -1), end: '\r' };
  else if (rest !== '') yield { text: rest, end: '' };
}

/** A CSV record with the line it starts on (1-based), or why the text starting there is not one. */
export type CsvRecord = { line: number; fields: string[] } | { line: number; error: string };

/** A quoted field may hold line breaks, but not this many: an unclosed quote must not swallow the file. */
const MAX_LINES_PER_RECORD = 1000;

/**
 * RFC 4180 records, with `delimiter` between fields, from a file's lines. A quoted field keeps the
 * line breaks inside it exactly; quotes are doubled inside it; spaces around its quotes are not
 * part of it (a plain field keeps its spaces). A record that breaks the format (a
 * quote never closed, text after a closing quote) is reported with its line and skipped, and
 * reading goes on at the next line, so one broken row costs only itself. Empty lines, and lines of
 * spaces or tabs alone, are skipped.
 *
 * @example
 * for await (const r of csvRecords(linesOf(stream), ',')) if ('fields' in r) use(r.fields);
 */
export async function* csvRecords(lines: AsyncIterable<Line>, delimiter: string): AsyncGenerator<CsvRecord> {
  const source = lines[Symbol.asyncIterator]();
  let lineNo = 0;
  /** Lines read past a broken record, to be parsed again as records of their own. */
  const replay: { line: Line; no: number }[] = [];
  const next = async (): Promise<{ line: Line; no: number } | undefined> => {
    if (replay.length > 0) return replay.shift();
    const r = await source.next();
    if (r.done) return undefined;
    return { line: r.value, no: ++lineNo };
  };
  for (;;) {
    const first = await next();
    if (!first) return;
    if (isBlankLine(first.line.text)) continue;
    const taken = [first];
    let text = first.line.text;
    let end = first.line.end;
    const fields: string[] = [];
    let i = 0;
    let error: string | undefined;
    for (;;) {
      // Spaces before an opening quote (`a, "b, c"`, as hand-written files have them) are no part of the field.
      let k = i;
      while (text[k] === ' ') k++;
      if (text[k] === '"') {
        i = k;
        let value = '';
        let j = i + 1;
        for (;;) {
          const q = text.indexOf('"', j);
          if (q === -1) {
            // The field goes on past the line: take the next one, its line break part of the value.
            const more = taken.length < MAX_LINES_PER_RECORD ? await next() : undefined;
            if (!more) {
              error = 'a quoted field is not closed';
              break;
            }
            taken.push(more);
            value += text.slice(j) + end;
            text = more.line.text;
            end = more.line.end;
            j = 0;
            continue;
          }
          if (text[q + 1] === '"') {
            value += text.slice(j, q + 1);
            j = q + 2;
            continue;
          }
          value += text.slice(j, q);
          i = q + 1;
          break;
        }
        if (error) break;
        fields.push(value);
        // And so are spaces after its closing quote.
        while (text[i] === ' ') i++;
        if (i === text.length) break;
        if (text.startsWith(delimiter, i)) {
          i += delimiter.length;
          if (i === text.length) {
            fields.push('');
            break;
          }
          continue;
        }
        error = `unexpected ${JSON.stringify(text[i])} after a closing quote (a quote inside a field is written twice)`;
        break;
      }
      const d = text.indexOf(delimiter, i);
      if (d === -1) {
        fields.push(text.slice(i));
        break;
      }
      fields.push(text.slice(i, d));
      i = d + delimiter.length;
    }
    if (error === undefined) {
      yield { line: first.no, fields };
      continue;
    }
    yield { line: first.no, error };
    // Go on at the line after the broken record's first: the lines it took may be rows of their own.
    replay.unshift(...taken.slice(1));
  }
}
