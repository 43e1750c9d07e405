import { CommandHandler } from '../application/command-handler.js';
import { ConfigLog } from '../application/config/config-log.js';
import type { Settings } from '../config.js';
import { TenantService } from '../tenants/tenants.service.js';
import type { Ledger } from '../ledger/ledger.port.js';
import { PostgresLedger } from '../ledger/postgres/postgres.ledger.js';
import { ledgerDb } from '../ledger/postgres/ledger.table.js';
import type { Store } from '../store/store.js';
import { authenticateAppend } from '../transparency/append-authenticator.js';
import { authenticatedFrom } from '../transparency/event-authenticity.js';
import type { NoteSigner } from '../transparency/note.js';
import { assertCurrentKey, configuredSigningKey, openSigningKey, SIGNING_KEY_FILE_NAME } from '../transparency/signing-key.js';
import { UsageError } from './command.js';

/**
 * The ledger the service uses with these settings: EventStoreDB when EVENTSTORE_URL is set
 * (`external`: the store then indexes it in read.event_index), else the store's own PostgreSQL
 * ledger. Commands that read the ledger (rebuild, audit export) open it here, as the service does.
 * Commands that append (`appends`) sign each append with the service's checkpoint signing key,
 * as the service does, so that their events verify as the service's own (docs/verifying.md); on a
 * store no service has started on, they open that key as the first start would.
 *
 * @example
 * const { ledger, external, close } = await serviceLedger(store, settings);
 */
export async function serviceLedger(
  store: Store,
  settings: (Partial<Settings> & Pick<Settings, 'eventStoreUrl' | 'eventStoreStreamPrefix'>) | undefined,
  { appends = false }: { appends?: boolean } = {},
): Promise<{ ledger: Ledger; external: boolean; close(): Promise<void> }> {
  const signer = appends && settings ? await appendSigner(store, settings as Settings) : undefined;
  const authenticate =
    signer &&
    Object.assign((hashes: readonly string[]) => authenticateAppend(signer.key, hashes), {
      publicKey: signer.key.publicKey.toString('base64'),
    });
  const opened: { ledger: Ledger; external: boolean; close(): Promise<void> } = await (async () => {
    if (!settings?.eventStoreUrl)
      return { ledger: new PostgresLedger(store.db, { authenticate, bulk: store.bulk }), external: false, close: async () => undefined };
    const { connectEventStoreLedger } = await import('../ledger/eventstoredb/index.js');
    const client = await connectEventStoreLedger(settings.eventStoreUrl, {
      streamPrefix: settings.eventStoreStreamPrefix,
      ...(authenticate ? { authenticate } : {}),
    });
    return { ledger: client.ledger, external: true, close: client.close };
  })();
  // The first start's record of where authenticators begin: here, before this command's events.
  if (signer?.first) await authenticatedFrom(store.db, opened.ledger, (message) => process.stderr.write(`${message}\n`));
  return opened;
}

/**
 * The key that signs appends, which must be the log's current one. On a store no service has
 * started on yet, it is opened as the first start opens it (the setting, or DATA_DIR/signing.key,
 * generated and said so), and `first`: the caller records that authenticators begin now, so no
 * event of the store goes unsigned.
 */
async function appendSigner(store: Store, settings: Settings): Promise<{ key: NoteSigner; first: boolean }> {
  const started = await ledgerDb(store.db).selectFrom('ledger.authenticated_from').select('only_row').executeTakeFirst();
  if (!started) {
    const opened = await openSigningKey(store.db, settings);
    for (const notice of opened.notices) process.stderr.write(`${notice}\n`);
    return { key: opened.signer, first: true };
  }
  const key = configuredSigningKey(settings);
  if (!key)
    throw new UsageError(
      `no checkpoint signing key: set TRANSPARENCY_SIGNING_KEY or TRANSPARENCY_SIGNING_KEY_FILE as the service has it (or DATA_DIR holding ${SIGNING_KEY_FILE_NAME})`,
    );
  await store.db.transaction().execute((tx) => assertCurrentKey(tx, key.signer));
  return { key: key.signer, first: false };
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
