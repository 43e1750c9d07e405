import { sql } from 'kysely';
import type { Migrations } from '../store/migrations.js';
import { embeddedClusterDir, holdsEmbeddedStore, holdsServerStore, openStore, type Store } from '../store/store.js';
import type { Ledger } from '../ledger/ledger.port.js';
import { PostgresLedger } from '../ledger/postgres/postgres.ledger.js';
import { LedgerLocationError, locationKind, maskLocation, type LocationKind } from './ledger-location.js';

/** A ledger opened from a location string, and what closes it. */
export interface OpenedLedger {
  /** What kind of location it was: the embedded store, a PostgreSQL server, or EventStoreDB. */
  kind: LocationKind;
  /** The location as given, with any password masked: for messages. */
  label: string;
  ledger: Ledger;
  /**
   * The store (tenants, keys, data keys, webhooks, receipts, transparency log) that lives in the
   * same database as the ledger; absent for EventStoreDB, whose store is a PostgreSQL of its own.
   */
  store?: Store;
  /** How many events the ledger holds, when the adapter can tell cheaply (for progress bars). */
  count?(): Promise<number>;
  close(): Promise<void>;
}

/** Where the EventStoreDB adapter lives. Imported by a computed name so that the embedded and PostgreSQL paths never load the client. */
const EVENTSTORE_MODULE = '../ledger/eventstoredb/index.js';

interface EventStoreModule {
  connectEventStoreLedger(url: string, options?: { streamPrefix?: string }): Promise<{ ledger: Ledger; close(): Promise<void> }>;
}

export interface OpenLedgerOptions {
  /** The migrations a store it opens is brought up to date with (src/migrations.ts `MIGRATIONS`). */
  migrations: Migrations;
  /** Refuse an embedded folder that holds no store yet, instead of creating an empty one (a copy's source). */
  mustExist?: boolean;
  /** Pool size for a PostgreSQL server. */
  maxConnections?: number;
  /** EventStoreDB: the service's EVENTSTORE_STREAM_PREFIX, when the deployment sets one. */
  streamPrefix?: string;
}

const storeCount = (store: Store) => async () => {
  const r = await sql<{ n: number }>`SELECT count(*)::bigint AS n FROM ledger.events`.execute(store.db);
  return Number(r.rows[0]?.n ?? 0);
};

/**
 * Opens the ledger at a location: an embedded store's folder (or `file:` URL), a PostgreSQL
 * server, or EventStoreDB (through its adapter, loaded only then).
 *
 *
 * @example
 * const { ledger, close } = await openLedger('./data', { migrations: MIGRATIONS });
 * const pg = await openLedger('postgres://postgres@db:5432/consent', { migrations: MIGRATIONS });
 * const esdb = await openLedger('kurrentdb://kurrentdb:2113?tls=false', { migrations: MIGRATIONS });
 */
export async function openLedger(
  location: string,
  { migrations, mustExist = false, maxConnections = 4, streamPrefix }: OpenLedgerOptions,
): Promise<OpenedLedger> {
  const { kind, target } = locationKind(location);
  const label = maskLocation(location.trim());
  if (kind === 'eventstoredb') {
    let adapter: EventStoreModule;
    try {
      adapter = (await import(EVENTSTORE_MODULE)) as EventStoreModule;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
        throw new LedgerLocationError(`${label}: the EventStoreDB ledger adapter is not part of this build`);
      }
      throw error;
    }
    const opened = await adapter.connectEventStoreLedger(target, streamPrefix ? { streamPrefix } : {});
    return { kind, label, ledger: opened.ledger, close: () => opened.close() };
  }
  if (kind === 'embedded' && mustExist && !holdsEmbeddedStore(target)) {
    throw new LedgerLocationError(`${label}: no embedded store in this folder (expected ${embeddedClusterDir(target)})`);
  }
  // A source is never written to: one with no store is refused before it is migrated.
  if (kind === 'postgres' && mustExist && !(await holdsServerStore(target))) {
    throw new LedgerLocationError(`${label}: this database holds no store (no ledger.events); nothing was written to it`);
  }
  const store =
    kind === 'postgres'
      ? await openStore({ databaseUrl: target, maxConnections, migrations })
      : await openStore({ dataDir: target, migrations });
  return { kind, label, ledger: new PostgresLedger(store.db), store, count: storeCount(store), close: () => store.close() };
}
