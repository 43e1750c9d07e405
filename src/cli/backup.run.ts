// What the commands defined in backup.commands.ts do once their arguments are parsed: imported by their
// `load` only when one runs, with the store and everything they use (src/cli/README.md).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BackupNotAvailableError, restoreBackup, takeRecordedBackup, type BackupTaken } from '../backup/backup.js';
import { writeStreamWhole } from '../common/key-file.js';
import { CheckFailed, UsageError, type CommandRun } from './command.js';
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

export const backupCommand: CommandRun = {
  async run(store, input: { path: string }, io) {
    let taken: BackupTaken;
    try {
      taken = takeRecordedBackup(store, 'cli');
    } catch (error) {
      if (error instanceof BackupNotAvailableError) throw new CheckFailed(error.code, error.message, {});
      throw error;
    }
    const digest = hashed();
    try {
      await writeStreamWhole(input.path, (out) => pipeline(taken.archive, digest, out));
    } catch (error) {
      // Not written (a folder that is not there, a read-only one): the archive is not read further,
      // and its failure once the store closes is no second error.
      taken.archive.on('error', () => undefined).destroy();
      taken.written().catch(() => undefined);
      // The temporary file's name would say nothing to the operator: name the file asked for.
      const code = (error as NodeJS.ErrnoException).code;
      throw code ? new Error(`cannot write ${input.path} (${code})`) : error;
    }
    // The archive is whole either way: a failure to record it only leaves the age metric behind.
    await taken
      .written()
      .catch((error: unknown) => io.info(`consent-ledger: the backup could not be recorded: ${(error as Error).message}`));
    io.info(`Wrote ${input.path} (${taken.bytes} bytes).\n${KEYS_WARNING}`);
    return { file: input.path, bytes: taken.bytes, sha256: digest.sha256(), contents: taken.manifest?.contents ?? null };
  },
};

export const restoreCommand: CommandRun = {
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
