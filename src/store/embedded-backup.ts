import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync, type Dirent } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { extract as tarExtract } from 'tar-stream';
import { TAR_END, tarHeader, tarPadding } from '../common/tar.js';
import type { PGlitePool } from './pglite-pool.js';

/** The archive's own description, its last entry: what it holds, for `restore` to check. */
export const BACKUP_MANIFEST = 'consent-ledger-backup.json';
export const BACKUP_FORMAT = 'consent-ledger-backup/1';
/** Where the store's PostgreSQL files sit in the archive (and in DATA_DIR). */
const ROOT = 'pglite';

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  createdAt: string;
  /** The WAL positions the copy was taken between: the archive is the store as of `stopLsn` or later. */
  startLsn: string;
  stopLsn: string;
  /** Every write acknowledged before this instant is in the archive (the WAL is copied after it). */
  consistentAt: string;
  /** What the store held when the copy ended (the caller's description); the archive holds at least that. */
  contents: Record<string, unknown>;
}

/** A backup could not be taken now: one is running already, or the store is closing. */
export class BackupUnavailableError extends Error {
  override readonly name = 'BackupUnavailableError';
}

/** The archive cannot be restored: not one of ours, damaged, or the target already holds a store. */
export class RestoreError extends Error {
  override readonly name = 'RestoreError';
}

// Left out as pg_basebackup leaves them out: rebuilt at start, or meaningless in a copy.
const SKIPPED_FILES = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label', 'backup_label.old', 'tablespace_map']);
const EMPTIED_FOLDERS = new Set(['pg_stat_tmp', 'pg_replslot', 'pg_dynshmem', 'pg_notify', 'pg_serial', 'pg_snapshots', 'pg_subtrans']);
const skipped = (name: string) => SKIPPED_FILES.has(name) || name.startsWith('pg_internal.init') || name.startsWith('pgsql_tmp');

const CHUNK = 1024 * 1024;
/** A WAL segment's file name: timeline, log and segment, 8 hex digits each. */
const WAL_SEGMENT = /^[0-9A-F]{24}$/;

/** What a backup needs of the open embedded store. */
export interface BackupSource {
  pool: PGlitePool;
  /** The PostgreSQL data folder (DATA_DIR/pglite). */
  dir: string;
  /** Keeps checkpoints from running (and recycling WAL the copy needs) until the answer is called. */
  holdCheckpoints(): Promise<() => void>;
}

export interface ArchiveOptions {
  /** What the store holds, asked once the copy's end is fixed; written in the manifest. */
  describe?: () => Promise<Record<string, unknown>>;
  /** gzip level (default 3: most of the size saving at a fraction of the time). */
  level?: number;
  /** Told the archive's manifest once its last byte has been read: an archive cut off never tells. */
  completed?: (manifest: BackupManifest) => void;
}

/**
 * A consistent archive of the embedded store while it serves requests, as PostgreSQL's own online
 * base backup makes one (pg_backup_start, a copy of the files, pg_backup_stop, then the WAL): the
 * files are read while the store keeps writing them, and the WAL written meanwhile, which holds
 * a full image of every page changed after the start, is replayed over them when the archive is
 * restored. The one connection is taken only for the start and the stop (a checkpoint, tens of
 * milliseconds); checkpoints wait until the WAL is copied. One backup at a time.
 */
export class EmbeddedBackup {
  private running = false;
  private closed = false;

  constructor(private readonly source: BackupSource) {}

  get inProgress(): boolean {
    return this.running;
  }

  /**
   * The archive, tar.gz, as a stream: it is taken as it is read, at the reader's pace. Destroying
   * the stream abandons the backup (the store leaves backup mode).
   */
  archive(options: ArchiveOptions = {}): Readable {
    if (this.closed) throw new BackupUnavailableError('the store is closing');
    if (this.running) throw new BackupUnavailableError('a backup of this store is being taken already');
    this.running = true;
    const tar = Readable.from(this.entries(options), { objectMode: false, highWaterMark: 4 * CHUNK });
    const gzip = createGzip({ level: options.level ?? 3, chunkSize: CHUNK });
    // pipeline: an error on either side ends both, and the generator's cleanup runs.
    void pipeline(tar, gzip).catch(() => undefined);
    return gzip;
  }

  private async *entries(options: ArchiveOptions): AsyncGenerator<Buffer> {
    const { pool, dir } = this.source;
    let release: (() => void) | undefined;
    let inBackupMode = false;
    try {
      release = await this.source.holdCheckpoints();
      const [start] = await pool.run<{ lsn: string; segment: string }>(
        `SELECT lsn::text AS lsn, pg_walfile_name(lsn) AS segment FROM pg_backup_start($1, true) AS lsn`,
        ['consent-ledger'],
        { priority: true },
      );
      inBackupMode = true;
      yield directory(ROOT, new Date());
      yield* this.folder(dir, ROOT, { wal: false });
      this.checkOpen();
      const [stop] = await pool.run<{ lsn: string; labelfile: string; spcmapfile: string }>(
        `SELECT lsn::text AS lsn, labelfile, spcmapfile FROM pg_backup_stop(false)`,
        [],
        { priority: true },
      );
      inBackupMode = false;
      const consistentAt = new Date().toISOString();
      const contents = (await options.describe?.()) ?? {};
      // The WAL last: it holds everything up to the stop, and whatever was written since. Only the
      // segments from the start's to the one written now: the others are older than the copy, or
      // recycled ahead of use (16 MiB each of nothing the restore reads).
      const [now] = await pool.run<{ segment: string }>(`SELECT pg_walfile_name(pg_current_wal_insert_lsn()) AS segment`, [], {
        priority: true,
      });
      const wanted = (name: string) => !WAL_SEGMENT.test(name) || (name >= start!.segment && name <= now!.segment);
      yield* this.folder(join(dir, 'pg_wal'), `${ROOT}/pg_wal`, { wal: true, wanted });
      yield* bytes(`${ROOT}/backup_label`, Buffer.from(stop!.labelfile));
      if (stop!.spcmapfile) yield* bytes(`${ROOT}/tablespace_map`, Buffer.from(stop!.spcmapfile));
      const manifest: BackupManifest = {
        format: BACKUP_FORMAT,
        createdAt: new Date().toISOString(),
        startLsn: start!.lsn,
        stopLsn: stop!.lsn,
        consistentAt,
        contents,
      };
      yield* bytes(BACKUP_MANIFEST, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
      yield TAR_END;
      options.completed?.(manifest);
    } finally {
      if (inBackupMode) await pool.run('SELECT pg_backup_stop(false)', [], { priority: true }).catch(() => undefined);
      release?.();
      this.running = false;
    }
  }

  /** A folder's entries, depth first in name order; the WAL's only when `wal`, its files only those `wanted`. */
  private *folder(
    path: string,
    name: string,
    { wal, wanted = () => true }: { wal: boolean; wanted?: (file: string) => boolean },
  ): Generator<Buffer> {
    let children: Dirent[];
    try {
      children = readdirSync(path, { withFileTypes: true });
    } catch (error) {
      // A folder dropped while it was copied (a dropped database): the WAL replays the drop.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    children.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const child of children) {
      this.checkOpen();
      const childPath = join(path, child.name);
      const childName = `${name}/${child.name}`;
      if (child.isDirectory()) {
        let mtime: Date;
        try {
          mtime = statSync(childPath).mtime;
        } catch {
          continue;
        }
        yield directory(childName, mtime);
        if (EMPTIED_FOLDERS.has(child.name) || (child.name === 'pg_wal' && !wal)) continue;
        yield* this.folder(childPath, childName, { wal, wanted });
      } else if (child.isFile() && !skipped(child.name) && wanted(child.name)) {
        yield* file(childPath, childName);
      }
    }
  }

  private checkOpen(): void {
    if (this.closed) throw new BackupUnavailableError('the store closed while a backup was taken');
  }

  /** Abandons a backup in progress (the store is closing) and refuses new ones. */
  close(): void {
    this.closed = true;
  }
}

function directory(name: string, mtime: Date): Buffer {
  return tarHeader({ name, type: 'directory', size: 0, mode: 0o700, mtime });
}

function* bytes(name: string, content: Buffer): Generator<Buffer> {
  yield tarHeader({ name, type: 'file', size: content.length, mode: 0o600, mtime: new Date() });
  yield content;
  yield tarPadding(content.length);
}

/**
 * One file as it is on disk now: its size when opened, read in chunks while the store may be
 * writing it between them (a page changed meanwhile is replaced by its image in the WAL). A file
 * that shrank meanwhile is padded with zeros, one that vanished is left out: the WAL replays both.
 *
 * Read synchronously, as PGlite itself reads and writes on this thread: a store holds a thousand
 * small files, and with a round trip to the thread pool for each open, read and close, a backup
 * under load waited 30 s for turns of the event loop; each chunk read from the page cache takes
 * well under a millisecond, and the stream asks for the next only when its reader has room.
 */
function* file(path: string, name: string): Generator<Buffer> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    const info = fstatSync(fd);
    const size = info.size;
    yield tarHeader({ name, type: 'file', size, mode: 0o600, mtime: info.mtime });
    let position = 0;
    while (position < size) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK, size - position));
      const bytesRead = readSync(fd, chunk, 0, chunk.length, position);
      if (bytesRead === 0) {
        chunk.fill(0);
        position += chunk.length;
        yield chunk;
      } else {
        position += bytesRead;
        yield chunk.subarray(0, bytesRead);
      }
    }
    yield tarPadding(size);
  } finally {
    closeSync(fd);
  }
}

export interface RestoredArchive {
  manifest: BackupManifest;
  /** The PostgreSQL data folder restored (DATA_DIR/pglite). */
  dir: string;
}

/**
 * Unpacks an archive (tar.gz, as `EmbeddedBackup.archive` writes it) into `dataDir`/pglite: into a
 * folder beside it first, each file flushed to disk, then renamed into place once `check` (given
 * the unpacked folder, before the rename; it opens the store, which replays the WAL) has passed.
 * Refuses a target that holds a store already, and any entry outside the archive's own layout.
 */
export async function restoreArchive(
  input: Readable,
  dataDir: string,
  check: (dir: string, manifest: BackupManifest) => Promise<void>,
): Promise<RestoredArchive> {
  const target = join(dataDir, ROOT);
  const existing = await readdir(target).catch(() => []);
  if (existing.length > 0) throw new RestoreError(`${dataDir} holds a store already (${target}); restore into an empty folder`);
  const staging = join(dataDir, `.${ROOT}.restoring`);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true, mode: 0o700 });
  try {
    const manifest = await unpack(input, staging);
    if (!manifest) throw new RestoreError(`not a consent-ledger backup: the archive has no ${BACKUP_MANIFEST}`);
    if (manifest.format !== BACKUP_FORMAT) {
      throw new RestoreError(`this archive's format (${String(manifest.format)}) is not one this version restores (${BACKUP_FORMAT})`);
    }
    const label = await stat(join(staging, 'backup_label')).catch(() => undefined);
    if (!label?.isFile()) throw new RestoreError('the archive is incomplete: it has no backup_label');
    await check(staging, manifest);
    await rm(target, { recursive: true, force: true });
    await rename(staging, target);
    await syncPath(dataDir);
    return { manifest, dir: target };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

/** The archive's entries written under `into`; answers its manifest (undefined when it has none). */
async function unpack(input: Readable, into: string): Promise<BackupManifest | undefined> {
  const extract = tarExtract();
  let manifest: BackupManifest | undefined;
  const folders = new Set<string>([into]);
  const consume = (async () => {
    for await (const entry of extract) {
      const { name, type, size } = entry.header;
      const path = placeOf(name, into);
      if (path === BACKUP_MANIFEST) {
        const chunks: Buffer[] = [];
        for await (const chunk of entry) chunks.push(chunk as Buffer);
        try {
          manifest = JSON.parse(Buffer.concat(chunks).toString('utf8')) as BackupManifest;
        } catch {
          throw new RestoreError(`the archive's ${BACKUP_MANIFEST} is not JSON`);
        }
      } else if (type === 'directory') {
        await mkdir(path, { recursive: true, mode: 0o700 });
        folders.add(path);
        entry.resume();
      } else if (type === 'file') {
        await mkdir(dirname(path), { recursive: true, mode: 0o700 });
        const handle = await open(path, 'wx', 0o600);
        let written = 0;
        try {
          for await (const chunk of entry) written += (await handle.write(chunk as Buffer)).bytesWritten;
          await handle.sync();
        } finally {
          await handle.close();
        }
        if (written !== size) throw new RestoreError(`the archive is damaged: ${name} is short`);
      } else {
        throw new RestoreError(`the archive holds an entry of a kind a backup never has (${String(type)}): ${name}`);
      }
    }
  })();
  try {
    await Promise.all([pipeline(input, createGunzip(), extract as unknown as Writable), consume]);
  } catch (error) {
    if (error instanceof RestoreError) throw error;
    throw new RestoreError(`the archive cannot be read (${(error as Error).message}): a partial download, or not a tar.gz`);
  }
  for (const folder of folders) await syncPath(folder);
  return manifest;
}

/**
 * Where an entry goes: `pglite/…` under `into`, the manifest by its name. Anything else (an
 * absolute path, `..`, another top folder) is refused before a byte is written.
 */
function placeOf(name: string, into: string): string {
  if (name === BACKUP_MANIFEST) return BACKUP_MANIFEST;
  const parts = posix.normalize(name).replace(/\/$/, '').split('/');
  if (name.includes('\0') || posix.isAbsolute(name) || parts[0] !== ROOT || parts.includes('..')) {
    throw new RestoreError(`the archive holds a path outside a store's files: ${JSON.stringify(name)}`);
  }
  return join(into, ...parts.slice(1));
}

/** Flushes a file or folder to disk (opened read-only, fsync). */
export async function syncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
