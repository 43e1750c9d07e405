// What the commands defined in keys.commands.ts do once their arguments are parsed: imported by their
// `load` only when one runs, with the store and everything they use (src/cli/README.md).
import { rotateMasterKey } from '../privacy/key-store.js';
import { rewrapWebhookSecrets } from '../webhooks/signing.js';
import { rotateSigningKey } from '../transparency/signing-key.js';
import type { ConfigEvent } from '../domain/config/config.events.js';
import type { Store } from '../store/store.js';
import { serviceLedger, withRecordedTenants } from './service-ledger.js';
import type { LedgerPosition } from '../ledger/ledger.port.js';
import type { CommandRun } from './command.js';
import type { ConfigLog } from '../application/config/config-log.js';
import type { TenantService } from '../tenants/tenants.service.js';

/**
 * Makes a rotation (`rotate`) and records it in every tenant's log (docs/audit-log.md), with the
 * ledger opened first: what keeps it from recording (no signing key, one that is not the log's, a
 * ledger out of reach) refuses the rotation before anything changes. The service is stopped, so
 * nothing else appends meanwhile.
 */
async function rotateAndRecord<T>(
  store: Store,
  settings: Parameters<typeof withRecordedTenants>[1],
  what: string,
  rotate: () => Promise<T>,
  event: (result: T) => ConfigEvent,
): Promise<T> {
  return withRecordedTenants(store, settings, async (tenants, changes) => {
    const result = await rotate();
    await recordEverywhere(tenants, changes, what, event(result));
    return result;
  });
}

/** Records a rotation made in every tenant's log; a failure says that the rotation stands. */
async function recordEverywhere(tenants: TenantService, changes: ConfigLog, what: string, event: ConfigEvent): Promise<void> {
  try {
    for (const t of await tenants.list()) await changes.record(t.tenantId, event);
  } catch (error) {
    throw new Error(
      `${what} is rotated and in use from now on (start the service with it), but recording the rotation in the tenants' audit logs failed: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

export const masterKeyRotate: CommandRun = {
  async run(store, input: { oldKey: Buffer; newKey: Buffer }, io) {
    const result = await rotateAndRecord(
      store,
      io.settings,
      'the master key',
      () => rotateMasterKey(store.db, input.oldKey, input.newKey, { webhookSecrets: rewrapWebhookSecrets }),
      () => ({ type: 'MasterKeyRotated', data: { at: new Date().toISOString() } }),
    );
    io.info(
      `Re-wrapped ${result.dataKeys} data keys, ${result.secrets} secret(s) and ${result.webhookSecrets} webhook signing secret(s). Start the service with the new key (MASTER_KEY, MASTER_KEY_FILE or DATA_DIR/master.key).`,
    );
    return result;
  },
};

export const signingKeyRotate: CommandRun = {
  async run(store, input: { seed: Buffer | undefined }, io) {
    // The last position the retired key authenticates: the ledger's head now (the service is
    // stopped). An EventStoreDB ledger is asked; the store's own ledger table is read in the rotation.
    // Opened as it appends first: a ledger that could not record the rotation refuses it unmade.
    let until: LedgerPosition | undefined;
    const { ledger, close } = await serviceLedger(store, io.settings, { appends: true });
    try {
      if (io.settings?.eventStoreUrl) until = (await ledger.headPosition()) ?? undefined;
    } finally {
      await close();
    }
    // Recorded with the new key, the log's current one once rotated (the file given, or the replaced default file).
    const signing = input.seed ? { ...io.settings!, transparencySigningKey: input.seed.toString('base64') } : io.settings;
    const at = new Date().toISOString();
    const result = await rotateSigningKey(store.db, io.settings!, input.seed, until);
    // Opened again once rotated: its events carry the new key's authenticators.
    await withRecordedTenants(store, signing, (tenants, changes) =>
      recordEverywhere(tenants, changes, 'the signing key', {
        type: 'SigningKeyRotated',
        data: { retired: result.retired, current: result.current, at },
      }),
    );
    io.info(
      result.path
        ? `The new signing key is in ${result.path}: back it up. Start the service; publish its vkey to your auditors (${result.current}).`
        : `The log's current key is now ${result.current}. Point TRANSPARENCY_SIGNING_KEY or TRANSPARENCY_SIGNING_KEY_FILE at the new key, then start the service.`,
    );
    return result;
  },
};
