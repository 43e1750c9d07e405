import { readSettingFile } from '../common/key-file.js';
import { UsageError, type Command } from './command.js';
import { MasterKeyError, parseMasterKey } from '../privacy/master-key.js';
import { seedBytes, SigningKeyError } from '../transparency/signing-seed.js';

const keyFrom = (path: unknown, flag: string): Buffer => {
  if (typeof path !== 'string')
    throw new UsageError(`--${flag} is required (a file holding the key: 64 hex characters or base64 of 32 bytes)`);
  const text = readSettingFile(path, `--${flag}`, (m) => new UsageError(m));
  try {
    return parseMasterKey(text, `--${flag}`);
  } catch (error) {
    if (error instanceof MasterKeyError) throw new UsageError(error.message);
    throw error;
  }
};

/**
 * `keys rotate-master --old-key-file F --new-key-file G`: re-wraps every key under the new master
 * key in one transaction (docs/erasure.md, Rotating the master key). Run with the service stopped.
 */
export const masterKeyRotate: Command = {
  name: 'keys rotate-master',
  usage: 'keys rotate-master --old-key-file PATH --new-key-file PATH',
  summary:
    'Re-wrap every data key and webhook signing secret under a new master key (service stopped); prints {secrets, dataKeys, webhookSecrets}',
  options: { 'old-key-file': { type: 'string' }, 'new-key-file': { type: 'string' } },
  parse(values) {
    const oldKey = keyFrom(values['old-key-file'], 'old-key-file');
    const newKey = keyFrom(values['new-key-file'], 'new-key-file');
    if (oldKey.equals(newKey)) throw new UsageError('--new-key-file holds the same key as --old-key-file');
    return { oldKey, newKey };
  },
  load: () => import('./keys.run.js').then((m) => m.masterKeyRotate),
};

/**
 * `keys rotate-signing [--new-key-file F]`: retires the checkpoint signing key and makes a new one
 * current (docs/verifying.md, Keys). With the key in DATA_DIR/signing.key and no file given, a new
 * key is generated there. Run with the service stopped; a process still holding the old key stops
 * sealing at its next batch.
 */
export const signingKeyRotate: Command = {
  name: 'keys rotate-signing',
  usage: 'keys rotate-signing [--new-key-file PATH]',
  summary:
    'Retire the checkpoint signing key and make a new one current (service stopped); prints {retired, current, path?}, the old and new vkeys',
  options: { 'new-key-file': { type: 'string' } },
  parse(values) {
    const file = values['new-key-file'];
    if (file === undefined) return { seed: undefined };
    if (typeof file !== 'string') throw new UsageError('--new-key-file needs a path');
    const text = readSettingFile(file, '--new-key-file', (m) => new UsageError(m));
    try {
      return { seed: seedBytes(text, '--new-key-file') };
    } catch (error) {
      if (error instanceof SigningKeyError) throw new UsageError(error.message);
      throw error;
    }
  },
  load: () => import('./keys.run.js').then((m) => m.signingKeyRotate),
};
