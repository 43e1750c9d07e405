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

/**
 * Records a rotation in every tenant's log (docs/audit-log.md), once it is made: the rotation runs
 * with the service stopped, so nothing else appends meanwhile.
 */
async function recordInEveryTenant(store: Store, settings: Parameters<typeof withRecordedTenants>[1], event: ConfigEvent) {
  await withRecordedTenants(store, settings, async (tenants, changes) => {
    for (const t of await tenants.list()) await changes.record(t.tenantId, event);
  });
}

export const masterKeyRotate: CommandRun = {
  async run(store, input: { oldKey: Buffer; newKey: Buffer }, io) {
    const result = await rotateMasterKey(store.db, input.oldKey, input.newKey, { webhookSecrets: rewrapWebhookSecrets });
    await recordInEveryTenant(store, io.settings, { type: 'MasterKeyRotated', data: { at: new Date().toISOString() } });
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
    let until: LedgerPosition | undefined;
    if (io.settings?.eventStoreUrl) {
      const { ledger, close } = await serviceLedger(store, io.settings);
      try {
        until = (await ledger.headPosition()) ?? undefined;
      } finally {
        await close();
      }
    }
    const result = await rotateSigningKey(store.db, io.settings!, input.seed, until);
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
