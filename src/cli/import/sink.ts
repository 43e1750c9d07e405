import { CommandHandler } from '../../application/command-handler.js';
import { ConsentCommands, type ImportOutcome, type ImportRow } from '../../application/consents/consent.commands.js';
import { IdempotencyKeys } from '../../application/idempotency.js';
import { PolicyCache } from '../../application/policies/policy-cache.js';
import type { Settings } from '../../config.js';
import type { Ledger } from '../../ledger/ledger.port.js';
import type { Store } from '../../store/store.js';
import { PersonalFields } from '../../privacy/personal-fields.js';
import { serviceLedger } from '../service-ledger.js';
import { servicePrivacy } from '../service-privacy.js';

/** Where an import's rows go: the tenant's consent commands over the service's ledger and keys. */
export interface ImportSink {
  ledger: Ledger;
  /** The id a row is recorded under, from its key: the same on every run, so a run again records nothing twice. */
  rowId(key: string): string;
  append(rows: ImportRow[], expectNew: boolean): Promise<ImportOutcome>;
  close(): Promise<void>;
}

/**
 * The import's sink for one tenant, as the service would record its decisions (sealed under data
 * keys of their own, signed appends). Each import thread opens its own.
 */
export async function openImportSink(store: Store, settings: Settings, tenantId: string): Promise<ImportSink> {
  const privacy = await servicePrivacy(store, settings);
  try {
    const { ledger, close } = await serviceLedger(store, settings, { appends: true });
    const keys = new IdempotencyKeys(privacy);
    const consents = new ConsentCommands({
      commands: new CommandHandler(ledger),
      ledger,
      policies: new PolicyCache(ledger),
      privacy,
      reader: new PersonalFields(privacy, ledger),
      idempotency: keys,
      standing: () => Promise.resolve([]),
    });
    return {
      ledger,
      rowId: (key) => keys.consentId(tenantId, keys.keyed(tenantId, { key: `import\u0000${key}`, requestHash: '' })!),
      append: (rows, expectNew) => consents.importRecords(tenantId, rows, { expectNew }),
      async close() {
        // Keys made ahead for rows that never came (up to 1,024 a thread) would stay as rows that
        // nothing names; when the store is gone they stay, as they did before.
        await privacy.keys.discardUnused().catch(() => undefined);
        await close();
        await privacy.close();
      },
    };
  } catch (error) {
    await privacy.close();
    throw error;
  }
}
