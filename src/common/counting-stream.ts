import { Transform } from 'node:stream';

/**
 * A pass-through stream that counts the bytes it has passed on (`bytes`): the import's progress
 * through its file, a backup's size as it is read.
 *
 * @example
 * const counted = countingStream();
 * await pipeline(source, counted, destination);
 * counted.bytes // what went through
 */
export function countingStream(): Transform & { readonly bytes: number } {
  let bytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  return Object.defineProperty(stream, 'bytes', { get: () => bytes }) as Transform & { readonly bytes: number };
}
