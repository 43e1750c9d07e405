import { describe, expect, it } from 'vitest';
import { checkedEncoding } from './encoding.js';

/** The bytes in chunks of `size`, as a file stream hands them over (cut anywhere, inside a character too). */
async function* chunks(bytes: Buffer, size: number): AsyncIterable<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

const text = 'userReference,consentGiven\r\nzoë 😀,yes\r\n日本語,no\r\n';

describe('import › the file encoding checked before a row is read', () => {
  it.each([1, 2, 3, 5, 64 * 1024])('reads UTF-8 cut in chunks of %i bytes, inside characters too', async (size) => {
    await expect(checkedEncoding(chunks(Buffer.from(text), size), 'f.csv')).resolves.toBe('utf8');
  });

  it('takes UTF-16 little-endian by its byte order mark, and refuses big-endian naming the fix', async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    await expect(checkedEncoding(chunks(le, 1), 'f.csv')).resolves.toBe('utf16le');
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
    await expect(checkedEncoding(chunks(be, 7), 'f.csv')).rejects.toThrow('f.csv is UTF-16 big-endian: save it as UTF-8');
  });

  it.each([1, 4, 1024])(
    'refuses Windows-1252 text, naming the line and byte of the first one UTF-8 never has (chunks of %i)',
    async (size) => {
      const latin1 = Buffer.from('email,given\njose@x.com,yes\njos\xe9@x.com,yes\njos\xe8@x.com,yes\n', 'latin1');
      await expect(checkedEncoding(chunks(latin1, size), 'l.csv')).rejects.toThrow(
        /^l\.csv is not UTF-8: line 3 holds the byte 0xE9, which UTF-8 never has there .*Nothing was imported: save it as "CSV UTF-8"/,
      );
    },
  );

  it.each([
    ['an overlong encoding', [0xc0, 0x80]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['a lone continuation byte', [0x80]],
  ])('refuses %s', async (_name, bad) => {
    const bytes = Buffer.concat([Buffer.from('a,b\n'), Buffer.from(bad), Buffer.from(',x\n')]);
    await expect(checkedEncoding(chunks(bytes, 2), 'f.csv')).rejects.toThrow(/^f\.csv is not UTF-8: line 2 /);
  });

  it('refuses a file that ends inside a character', async () => {
    const cut = Buffer.from('a,b\nzo😀').subarray(0, -2);
    await expect(checkedEncoding(chunks(cut, 3), 'f.csv')).rejects.toThrow('its last line ends in the middle of a character');
  });

  it('reads an empty file as UTF-8', async () => {
    await expect(checkedEncoding(chunks(Buffer.alloc(0), 1), 'f.csv')).resolves.toBe('utf8');
  });
});
