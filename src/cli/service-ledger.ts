import { CommandHandler } from '../application/command-handler.js';
import { ConfigLog } from '../application/config/config-log.js';
import type { Settings } from '../config.js';
import { TenantService } from '../tenants/tenants.service.js';
import type { Ledger } from '../ledger/ledger.port.js';
import { PostgresLedger } from '../ledger/postgres/postgres.ledger.js';
import { ledgerDb } from '../ledger/postgres/ledger.table.js';
import type { Store } from '../store/store.js';
import { authenticateAppend } from '../transparency/append-authenticator.js';
import { assertCurrentKey, configuredSigningKey, SIGNING_KEY_FILE_NAME } from '../transparency/signing-key.js';
import { UsageError } from './command.js';

/**
 * The ledger the service uses with these settings: EventStoreDB when EVENTSTORE_URL is set
 * (`external`: the store then indexes it in read.event_index), else the store's own PostgreSQL
 * ledger. Commands that read the ledger (rebuild, audit export) open it here, as the service does.
 * Commands that append (`appends`) sign each append with the service's checkpoint signing key,
 * as the service does, so that their events verify as the service's own (docs/verifying.md).
 *
 * @example
 * const { ledger, external, close } = await serviceLedger(store, settings);
 */
export async function serviceLedger(
  store: Store,
  settings: (Partial<Settings> & Pick<Settings, 'eventStoreUrl' | 'eventStoreStreamPrefix'>) | undefined,
  { appends = false }: { appends?: boolean } = {},
): Promise<{ ledger: Ledger; external: boolean; close(): Promise<void> }> {
  const authenticate = appends && settings ? await appendSigner(store, settings as Settings) : undefined;
  if (!settings?.eventStoreUrl) {
    return { ledger: new PostgresLedger(store.db, { authenticate, bulk: store.bulk }), external: false, close: async () => undefined };
  }
  const { connectEventStoreLedger } = await import('../ledger/eventstoredb/index.js');
  const opened = await connectEventStoreLedger(settings.eventStoreUrl, {
    streamPrefix: settings.eventStoreStreamPrefix,
    ...(authenticate ? { authenticate } : {}),
  });
  return { ledger: opened.ledger, external: true, close: opened.close };
}

/**
 * Signs appends with the service's key, which must be the log's current one. Undefined for a store
 * no service has started on yet: its events come before authenticators begin (the first start
 * records where they do).
 */
async function appendSigner(store: Store, settings: Settings): Promise<((hashes: readonly string[]) => string[]) | undefined> {
  const key = configuredSigningKey(settings);
  const started = await ledgerDb(store.db).selectFrom('ledger.authenticated_from').select('only_row').executeTakeFirst();
  if (!key) {
    if (!started) return undefined;
    throw new UsageError(
      `no checkpoint signing key: set TRANSPARENCY_SIGNING_KEY or TRANSPARENCY_SIGNING_KEY_FILE as the service has it (or DATA_DIR holding ${SIGNING_KEY_FILE_NAME})`,
    );
  }
  await store.db.transaction().execute((tx) => assertCurrentKey(tx, key.signer));
  return (hashes) => authenticateAppend(key.signer, hashes);
}

/**
 * Runs `fn` with the tenants of this store, recording every change in the tenant's log through the
 * service's ledger (docs/audit-log.md), as the service does; its events name the CLI as their actor.
 *
 * @example
 * const created = await withRecordedTenants(store, io.settings, (tenants) => tenants.create(name, plan));
 */
export async function withRecordedTenants<T>(
  store: Store,
  settings: Parameters<typeof serviceLedger>[1],
  fn: (tenants: TenantService, changes: ConfigLog) => Promise<T>,
): Promise<T> {
  const { ledger, close } = await serviceLedger(store, settings, { appends: true });
  try {
    const changes = new ConfigLog(new CommandHandler(ledger));
    return await fn(new TenantService(store.db, { changes }), changes);
  } finally {
    await close();
  }
}
