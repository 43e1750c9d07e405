import { readSettingFile } from '../common/key-file.js';
import { UsageError, type Command } from './command.js';
import { rotateMasterKey } from '../privacy/key-store.js';
import { rewrapWebhookSecrets } from '../webhooks/signing.js';
import { MasterKeyError, parseMasterKey } from '../privacy/master-key.js';
import { rotateSigningKey, seedBytes, SigningKeyError } from '../transparency/signing-key.js';
import type { ConfigEvent } from '../domain/config/config.events.js';
import type { Store } from '../store/store.js';
import { withRecordedTenants } from './service-ledger.js';

/**
 * Records a rotation in every tenant's log (docs/audit-log.md), once it is made: the rotation runs
 * with the service stopped, so nothing else appends meanwhile.
 */
async function recordInEveryTenant(store: Store, settings: Parameters<typeof withRecordedTenants>[1], event: ConfigEvent) {
  await withRecordedTenants(store, settings, async (tenants, changes) => {
    for (const t of await tenants.list()) await changes.record(t.tenantId, event);
  });
}

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
  async run(store, input: { oldKey: Buffer; newKey: Buffer }, io) {
    const result = await rotateMasterKey(store.db, input.oldKey, input.newKey, { webhookSecrets: rewrapWebhookSecrets });
    await recordInEveryTenant(store, io.settings, { type: 'MasterKeyRotated', data: { at: new Date().toISOString() } });
    io.info(
      `Re-wrapped ${result.dataKeys} data keys, ${result.secrets} secret(s) and ${result.webhookSecrets} webhook signing secret(s). Start the service with the new key (MASTER_KEY, MASTER_KEY_FILE or DATA_DIR/master.key).`,
    );
    return result;
  },
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
  async run(store, input: { seed: Buffer | undefined }, io) {
    const result = await rotateSigningKey(store.db, io.settings!, input.seed);
    // Signed with the new key, now the log's current one (from the file given, or the replaced default file).
    const signing = input.seed ? { ...io.settings!, transparencySigningKey: input.seed.toString('base64') } : io.settings;
    const at = new Date().toISOString();
    await recordInEveryTenant(store, signing, {
      type: 'SigningKeyRotated',
      data: { retired: result.retired, current: result.current, at },
    });
    io.info(
      result.path
        ? `The new signing key is in ${result.path}: back it up. Start the service; publish its vkey to your auditors (${result.current}).`
        : `The log's current key is now ${result.current}. Point TRANSPARENCY_SIGNING_KEY or TRANSPARENCY_SIGNING_KEY_FILE at the new key, then start the service.`,
    );
    return result;
  },
};
