import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError, type Command } from './command.js';

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
    // Not stdout: it carries the command's JSON summary. Not a file named "-" either, which nobody means.
    if (out === '-')
      throw new UsageError(
        '--out must be a file: stdout carries the summary, not the archive (send the file on after: cat FILE | … restore --from -)',
      );
    const path = resolve(out);
    if (existsSync(path)) throw new UsageError(`--out ${out} exists already: give a new file name`);
    if (!existsSync(dirname(path))) throw new UsageError(`--out ${out}: the folder ${dirname(path)} does not exist`);
    return { path };
  },
  load: () => import('./backup.run.js').then((m) => m.backupCommand),
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
  load: () => import('./backup.run.js').then((m) => m.restoreCommand),
};
