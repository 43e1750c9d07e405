/**
 * The few pieces of a POSIX ustar archive a backup writes: a 512-byte header per entry, the file's
 * bytes padded to 512, and two zero blocks at the end. Reading archives is tar-stream's work.
 */
export const TAR_BLOCK = 512;

/** The two empty blocks that end an archive. */
export const TAR_END = Buffer.alloc(2 * TAR_BLOCK);

export interface TarEntry {
  /** The path inside the archive, with forward slashes (a folder's without its trailing slash). */
  name: string;
  type: 'file' | 'directory';
  /** A file's size in bytes (0 for a folder). */
  size: number;
  mode: number;
  mtime: Date;
}

const octal = (value: number, width: number): string => `${value.toString(8).padStart(width - 1, '0')}\0`;

/**
 * The header block of one entry. A name longer than 100 bytes is split at a slash into ustar's
 * 155-byte prefix and 100-byte name; longer paths are refused (the store's are about 30).
 *
 * @example
 * tarHeader({ name: 'pglite/PG_VERSION', type: 'file', size: 3, mode: 0o600, mtime: new Date() })
 */
export function tarHeader(entry: TarEntry): Buffer {
  const path = entry.type === 'directory' ? `${entry.name}/` : entry.name;
  let name = path;
  let prefix = '';
  if (Buffer.byteLength(path) > 100) {
    const cut = path.lastIndexOf('/', path.length - 2);
    [prefix, name] = [path.slice(0, cut), path.slice(cut + 1)];
    if (cut <= 0 || Buffer.byteLength(prefix) > 155 || Buffer.byteLength(name) > 100) throw new Error(`tar: path too long: ${path}`);
  }
  if (entry.size > 0o77777777777) throw new Error(`tar: file too large for ustar: ${path}`);
  const block = Buffer.alloc(TAR_BLOCK);
  block.write(name, 0, 100, 'utf8');
  block.write(octal(entry.mode & 0o7777, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(entry.type === 'file' ? entry.size : 0, 12), 124, 'ascii');
  block.write(octal(Math.floor(entry.mtime.getTime() / 1000), 12), 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write(entry.type === 'file' ? '0' : '5', 156, 'ascii');
  block.write('ustar\u000000', 257, 'ascii');
  block.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

/** The zeros that pad a file of `size` bytes to a whole block. */
export const tarPadding = (size: number): Buffer => Buffer.alloc((TAR_BLOCK - (size % TAR_BLOCK)) % TAR_BLOCK);
