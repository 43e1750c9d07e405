import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import {
  closeSync,
  createWriteStream,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Writable } from 'node:stream';

/** A temporary name beside `path`, unique to this process and call. */
const temporaryBeside = (path: string): string =>
  join(dirname(path), `.${path.split('/').at(-1)}.${process.pid}.${randomBytes(4).toString('hex')}`);

/**
 * Writes `text` to `path` (mode 0600) unless a file is already there, and answers what the file
 * holds then. Written whole under a temporary name and linked: two processes starting together
 * never read a half-written key, and the second to link takes the first one's.
 *
 * @example
 * const { text, created } = createKeyFile('./data/signing.key', `${seed.toString('base64')}\n`);
 */
export function createKeyFile(path: string, text: string): { text: string; created: boolean } {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = temporaryBeside(path);
  writeFileSync(tmp, text, { mode: 0o600 });
  try {
    linkSync(tmp, path);
    return { text, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { text: readFileSync(path, 'utf8'), created: false };
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** Replaces the file at `path` with `text` (mode 0600) in one rename: a reader sees the old or the new key, never half. */
export function replaceKeyFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileDurably(path, text);
}

/**
 * Writes `text` to `path` whole and durably: a temporary file beside it, flushed, renamed over it,
 * and the folder flushed, so that after a crash the file holds the old text or the new, and the
 * new once this returns (a witness's state, a monitor's, a key).
 */
export function writeFileDurably(path: string, text: string, mode = 0o600): void {
  const tmp = temporaryBeside(path);
  const fd = openSync(tmp, 'w', mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  syncFolderOf(path);
}

/** Flushes the folder holding `path`, so that a rename into it survives a crash. */
function syncFolderOf(path: string): void {
  const dir = openSync(dirname(path), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

/**
 * Writes a file whole from a stream: `fill` writes to (and ends) a temporary file beside `path`,
 * which is flushed, renamed over `path`, and the folder flushed; a failure (or a stop) removes it.
 * So `path` holds the old file or the whole new one, never a part, and the new one once this
 * returns, even after a crash (an archive, an audit export).
 *
 * @example
 * await writeStreamWhole('backup.tar', (out) => pipeline(archive, out));
 */
export async function writeStreamWhole<T>(path: string, fill: (out: Writable) => Promise<T>, mode = 0o600): Promise<T> {
  const tmp = temporaryBeside(path);
  const out = createWriteStream(tmp, { flags: 'wx', mode });
  // A write error is read off `out.errored` (and rejects a wait for 'drain' or 'close'), never thrown uncaught.
  out.on('error', () => undefined);
  try {
    // Open before anything can fail: a part opened after the cleanup below would be left behind.
    await once(out, 'open');
    const result = await fill(out);
    if (out.errored) throw out.errored;
    if (!out.closed) await once(out, 'close');
    const handle = await open(tmp, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
    syncFolderOf(path);
    return result;
  } catch (error) {
    if (!out.closed) await new Promise<void>((resolve) => out.destroy().once('close', () => resolve()));
    rmSync(tmp, { force: true });
    throw error;
  }
}

/** The file's text, or undefined when there is no file. */
export const readKeyFile = (path: string): string | undefined => (existsSync(path) ? readFileSync(path, 'utf8') : undefined);

/**
 * The text of a key file a setting names (`MASTER_KEY_FILE`, `TRANSPARENCY_SIGNING_KEY_FILE`);
 * a file that cannot be read throws `fail`'s error naming the setting and the reason.
 */
export function readSettingFile(path: string, setting: string, fail: (message: string) => Error): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw fail(`${setting}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}
