import { isUtf8 } from 'node:buffer';

/** How an import file's text is encoded: UTF-16 little-endian when it starts with that byte order mark, else UTF-8. */
export type FileEncoding = 'utf8' | 'utf16le';

/** A file whose bytes are not text the import reads: `message` names the line and the fix. */
export class EncodingError extends Error {
  override readonly name = 'EncodingError';
}

/** The length of the UTF-8 sequence a lead byte starts, or 0 for a byte no sequence starts with. */
const sequenceLength = (b: number): number => (b < 0x80 ? 1 : b < 0xc2 ? 0 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : b < 0xf5 ? 4 : 0);

/** Where a trailing sequence that the next chunk completes starts (the buffer's length when none is cut). */
function cutAt(buf: Uint8Array): number {
  for (let k = 1; k <= Math.min(3, buf.length); k++) {
    const b = buf[buf.length - k]!;
    if (b >= 0x80 && b < 0xc0) continue;
    return sequenceLength(b) > k ? buf.length - k : buf.length;
  }
  return buf.length;
}

/** The offset of the first byte that is not part of valid UTF-8 (checked one character at a time). */
function firstInvalid(buf: Uint8Array): number {
  let i = 0;
  while (i < buf.length) {
    const n = sequenceLength(buf[i]!);
    if (n === 0 || i + n > buf.length || !isUtf8(buf.subarray(i, i + n))) return i;
    i += n;
  }
  return buf.length;
}

const newlines = (buf: Uint8Array): number => {
  let count = 0;
  for (let at = buf.indexOf(0x0a); at !== -1; at = buf.indexOf(0x0a, at + 1)) count++;
  return count;
};

/**
 * Reads a file's bytes once, before anything is imported, and answers its encoding: UTF-16LE by
 * its byte order mark, else UTF-8, every byte of which must be valid. A file in another encoding
 * (Windows-1252, Latin-1: Excel's plain "CSV") would otherwise be read with replacement
 * characters, merging different people into one reference; it is refused whole, naming the line.
 *
 * @example
 * await checkedEncoding(createReadStream('consents.csv'), 'consents.csv') // 'utf8'
 */
export async function checkedEncoding(bytes: AsyncIterable<Buffer>, name: string): Promise<FileEncoding> {
  let carry: Buffer = Buffer.alloc(0);
  let line = 1;
  let first = true;
  for await (const chunk of bytes) {
    const buf = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    if (first) {
      // The byte order mark is told by the first two bytes, whatever chunks they came in.
      if (buf.length < 2) {
        carry = buf;
        continue;
      }
      first = false;
      if (buf[0] === 0xff && buf[1] === 0xfe) return 'utf16le';
      if (buf[0] === 0xfe && buf[1] === 0xff)
        throw new EncodingError(`${name} is UTF-16 big-endian: save it as UTF-8 (or UTF-16 little-endian) first`);
    }
    const end = cutAt(buf);
    const whole = buf.subarray(0, end);
    if (!isUtf8(whole)) {
      const at = firstInvalid(whole);
      const hex = whole[at]!.toString(16).toUpperCase().padStart(2, '0');
      throw new EncodingError(
        `${name} is not UTF-8: line ${line + newlines(whole.subarray(0, at))} holds the byte 0x${hex}, which UTF-8 never has there ` +
          `(the file is likely Windows-1252 or Latin-1, as Excel saves a plain CSV). Nothing was imported: save it as "CSV UTF-8" ` +
          `(or UTF-16 little-endian) and import it again`,
      );
    }
    line += newlines(whole);
    carry = buf.subarray(end);
  }
  if (first && carry.length > 0 && isUtf8(carry)) return 'utf8';
  if (carry.length > 0)
    throw new EncodingError(`${name} is not UTF-8: its last line ends in the middle of a character. Nothing was imported`);
  return 'utf8';
}
