import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, rmSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BackupNotAvailableError, restoreBackup, takeRecordedBackup, type BackupTaken } from '../backup/backup.js';
import { CheckFailed, UsageError, type Command } from './command.js';
import { RestoreError } from '../store/embedded-backup.js';

const KEYS_WARNING = [
  'The archive holds no key. The restored store opens only with the key files it was created with:',
  '  master.key (MASTER_KEY / MASTER_KEY_FILE) and signing.key (TRANSPARENCY_SIGNING_KEY / _FILE).',
  '  Without the master key every personal field is lost; keep the key files backed up apart from the archives.',
].join('\n');

/** Hashes what passes through (the archive counts its own bytes). */
function hashed(): Transform & { sha256(): string } {
  const hash = createHash('sha256');
  const t = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  return Object.assign(t, { sha256: () => hash.digest('hex') });
}

/**
 * `backup --out FILE`: the embedded store's archive, with the service stopped (while it runs:
 * POST /admin/v1/backup). Written beside FILE and renamed once whole and on disk.
 */
export const backupCommand: Command = {
  name: 'backup',
  usage: 'backup --out FILE',
  summary:
    'Write a backup of the embedded store in DATA_DIR to FILE (tar.gz), with the service stopped (while it runs: POST /admin/v1/backup); the archive holds no key; prints {file, bytes, sha256, contents}',
  options: { out: { type: 'string' } },
  parse(values) {
    const out = values.out;
    if (typeof out !== 'string' || out.length === 0) throw new UsageError('--out is required: the file to write the archive to');
    const path = resolve(out);
    if (existsSync(path)) throw new UsageError(`--out ${out} exists already: give a new file name`);
    if (!existsSync(dirname(path))) throw new UsageError(`--out ${out}: the folder ${dirname(path)} does not exist`);
    return { path };
  },
  async run(store, input: { path: string }, io) {
    let taken: BackupTaken;
    try {
      taken = takeRecordedBackup(store, 'cli');
    } catch (error) {
      if (error instanceof BackupNotAvailableError) throw new CheckFailed(error.code, error.message, {});
      throw error;
    }
    const partial = `${input.path}.partial`;
    const digest = hashed();
    try {
      await pipeline(taken.archive, digest, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
      const handle = await open(partial, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(partial, input.path);
    } catch (error) {
      rmSync(partial, { force: true });
      throw error;
    }
    // The archive is whole either way: a failure to record it only leaves the age metric behind.
    await taken
      .written()
      .catch((error: unknown) => io.info(`consent-ledger: the backup could not be recorded: ${(error as Error).message}`));
    io.info(`Wrote ${input.path} (${taken.bytes} bytes).\n${KEYS_WARNING}`);
    return { file: input.path, bytes: taken.bytes, sha256: digest.sha256(), contents: taken.manifest?.contents ?? null };
  },
};

/** `restore --from FILE|- --data-dir DIR`: an archive into an empty DATA_DIR, checked before it is put in place. */
export const restoreCommand: Command = {
  name: 'restore',
  usage: 'restore --from FILE|- --data-dir DIR',
  summary:
    'Restore a backup archive (FILE, or - for stdin) into DIR as the embedded store, checked against its manifest and the key files found (MASTER_KEY_FILE, TRANSPARENCY_SIGNING_KEY_FILE, or DIR/master.key and DIR/signing.key); DIR must hold no store; prints {dataDir, restored, keys, manifest}',
  options: { from: { type: 'string' }, 'data-dir': { type: 'string' } },
  settings: true,
  parse(values) {
    const from = values.from;
    if (typeof from !== 'string' || from.length === 0)
      throw new UsageError('--from is required: the archive file, or - to read it from stdin');
    if (from !== '-' && !existsSync(from)) throw new UsageError(`--from ${from}: no such file`);
    const dataDir = values['data-dir'];
    if (typeof dataDir !== 'string' || dataDir.length === 0)
      throw new UsageError('--data-dir is required: the folder to restore the store into');
    if (dataDir === 'memory://') throw new UsageError('--data-dir must be a folder');
    return { from, dataDir };
  },
  async runOffline(input: { from: string; dataDir: string }, io) {
    if (!io.settings) throw new UsageError('restore needs the service settings');
    const source = input.from === '-' ? process.stdin : createReadStream(input.from);
    try {
      const report = await restoreBackup(source, input.dataDir, io.settings);
      const missing = (['master', 'signing'] as const).filter((k) => report.keys[k] === 'missing');
      io.info(
        `Restored ${report.restored.ledger.events} ledger events and ${report.restored.checkpoints.length} tenants' transparency logs into ${report.dataDir}.`,
      );
      if (missing.length > 0) {
        io.info(
          `\nWARNING: no ${missing.map((k) => `${k} key`).join(' and no ')} was given, so none was checked.\n${KEYS_WARNING}\n  Put them in ${report.dataDir} (master.key, signing.key) or point the settings at them before starting the service.`,
        );
      }
      return { dataDir: report.dataDir, restored: report.restored, keys: report.keys, manifest: report.manifest };
    } catch (error) {
      if (error instanceof RestoreError) throw new CheckFailed('RESTORE_REFUSED', error.message, {});
      throw error;
    }
  },
};
