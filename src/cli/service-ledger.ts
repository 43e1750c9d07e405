import type { Settings } from '../config.js';
import type { Ledger } from '../ledger/ledger.port.js';
import { PostgresLedger } from '../ledger/postgres/postgres.ledger.js';
import type { Store } from '../store/store.js';

/**
 * The ledger the service uses with these settings: EventStoreDB when EVENTSTORE_URL is set
 * (`external`: the store then indexes it in read.event_index), else the store's own PostgreSQL
 * ledger. Commands that read the ledger (rebuild, audit export) open it here, as the service does.
 *
 * @example
 * const { ledger, external, close } = await serviceLedger(store, settings);
 */
export async function serviceLedger(
  store: Store,
  settings: Pick<Settings, 'eventStoreUrl' | 'eventStoreStreamPrefix'> | undefined,
): Promise<{ ledger: Ledger; external: boolean; close(): Promise<void> }> {
  if (!settings?.eventStoreUrl) return { ledger: new PostgresLedger(store.db), external: false, close: async () => undefined };
  const { connectEventStoreLedger } = await import('../ledger/eventstoredb/index.js');
  const opened = await connectEventStoreLedger(settings.eventStoreUrl, { streamPrefix: settings.eventStoreStreamPrefix });
  return { ledger: opened.ledger, external: true, close: opened.close };
}
