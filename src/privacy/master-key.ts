import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { createKeyFile, readKeyFile, readSettingFile } from '../common/key-file.js';

/** The master key is wrong or missing: the service must not start (it could not read or erase). */
export class MasterKeyError extends Error {
  override readonly name = 'MasterKeyError';
}

export const MASTER_KEY_FILE_NAME = 'master.key';

/**
 * A master key as text: 64 hex characters or the base64 (standard or URL-safe) of 32 bytes.
 *
 * @example
 * parseMasterKey(randomBytes(32).toString('base64')) // a 32-byte Buffer
 */
export function parseMasterKey(text: string, origin: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t)
    ? Buffer.from(t, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(t)
      ? Buffer.from(t, 'base64')
      : undefined;
  if (!key || key.length !== 32) throw new MasterKeyError(`${origin}: invalid value (32 bytes as 64 hex characters or base64)`);
  return key;
}

export interface LoadedMasterKey {
  key: Buffer;
  /** Where it came from: the setting, a file, a file generated now, or memory (in-memory store). */
  source: 'MASTER_KEY' | 'MASTER_KEY_FILE' | 'DATA_DIR' | 'generated' | 'ephemeral';
  path?: string;
}

/** Where the master key comes from: the service's MASTER_KEY, MASTER_KEY_FILE and store settings. */
export interface MasterKeySettings {
  masterKey: string | undefined;
  masterKeyFile: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
}

/**
 * The master key the settings give: `MASTER_KEY`, then `MASTER_KEY_FILE`, then `DATA_DIR/master.key`
 * when it exists. Undefined when there is none (nor for the in-memory store); a key that does not
 * parse, or a file that cannot be read, throws MasterKeyError.
 */
export function configuredMasterKey(settings: MasterKeySettings): LoadedMasterKey | undefined {
  if (settings.masterKey) return { key: parseMasterKey(settings.masterKey, 'MASTER_KEY'), source: 'MASTER_KEY' };
  if (settings.masterKeyFile) {
    const path = resolve(settings.masterKeyFile);
    const text = readSettingFile(path, 'MASTER_KEY_FILE', (m) => new MasterKeyError(m));
    return { key: parseMasterKey(text, 'MASTER_KEY_FILE'), source: 'MASTER_KEY_FILE', path };
  }
  if (!settings.databaseUrl && settings.dataDir === 'memory://') return undefined;
  const path = defaultMasterKeyPath(settings);
  const found = readKeyFile(path);
  return found === undefined ? undefined : { key: parseMasterKey(found, path), source: 'DATA_DIR', path };
}

const defaultMasterKeyPath = (settings: MasterKeySettings): string => join(resolve(settings.dataDir), MASTER_KEY_FILE_NAME);

/**
 * Loads the master key that wraps every data key (docs/erasure.md): the configured one
 * (`configuredMasterKey`), else `DATA_DIR/master.key` generated (mode 0600). An in-memory store
 * gets a key that lives as long as its data; a store that has one already (`mayGenerate` false)
 * never gets a new one. Whether the key fits the store is checked when the key store opens
 * (`Privacy.open`).
 */
export function loadMasterKey(settings: MasterKeySettings, { mayGenerate = true }: { mayGenerate?: boolean } = {}): LoadedMasterKey {
  const configured = configuredMasterKey(settings);
  if (configured) return configured;
  if (!settings.databaseUrl && settings.dataDir === 'memory://') return { key: randomBytes(32), source: 'ephemeral' };
  const path = defaultMasterKeyPath(settings);
  if (!mayGenerate) {
    throw new MasterKeyError(
      `this store holds data sealed under a master key, and none was found (MASTER_KEY, MASTER_KEY_FILE, or ${path}). ` +
        'Give this process the master key the store was created with (a restored backup needs the key files of the store it was taken from; docs/operations.md, Backups).',
    );
  }
  const { text, created } = createKeyFile(path, `${randomBytes(32).toString('base64')}\n`);
  return { key: parseMasterKey(text, path), source: created ? 'generated' : 'DATA_DIR', path };
}

/** The warning printed when a master key was generated: lose it and every personal field is lost. */
export const generatedKeyWarning = (path: string): string =>
  [
    `consent-ledger: generated a new master key in ${path}.`,
    '  It wraps the keys of every personal field in the ledger: BACK IT UP, apart from the database.',
    '  Without it the personal data cannot be read again; with it and a copy of the database, anyone can.',
    '  Set MASTER_KEY or MASTER_KEY_FILE to manage it yourself (docs/erasure.md).',
  ].join('\n');
