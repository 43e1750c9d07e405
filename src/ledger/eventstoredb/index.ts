import { KurrentDBClient } from '@kurrent/kurrentdb-client';
import type { Ledger } from '../ledger.port.js';
import { EventStoreLedger, type EventStoreLedgerOptions } from './eventstoredb.ledger.js';

export { EventStoreLedger, type EventStoreLedgerOptions } from './eventstoredb.ledger.js';

/** URL schemes of an EventStoreDB / KurrentDB connection string. */
export const EVENTSTORE_URL_PATTERN = /^(esdb|kurrentdb|kdb)(\+discover)?:\/\//;

/**
 * Opens the EventStoreDB ledger at a connection string (`kurrentdb://host:2113?tls=false`,
 * `esdb+discover://…` for a cluster) and checks that the server answers. `close` releases the
 * client's connections.
 *
 * @example
 * const { ledger, close } = await connectEventStoreLedger('kurrentdb://localhost:2113?tls=false');
 * try { console.log(await ledger.headPosition()); } finally { await close(); }
 */
export async function connectEventStoreLedger(
  url: string,
  options: EventStoreLedgerOptions = {},
): Promise<{ ledger: Ledger & EventStoreLedger; close(): Promise<void> }> {
  if (!EVENTSTORE_URL_PATTERN.test(url))
    throw new Error('an EventStoreDB URL starts with kurrentdb://, esdb:// or kdb:// (+discover for a cluster)');
  const client = KurrentDBClient.connectionString(url);
  const ledger = new EventStoreLedger(client, options);
  try {
    // A cluster may still be electing its leader: give the first answer longer than /ready does.
    await ledger.ping(15_000);
  } catch (error) {
    await client.dispose().catch(() => undefined);
    throw error;
  }
  return { ledger, close: () => client.dispose() };
}
