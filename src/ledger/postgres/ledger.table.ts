import { sql, type ColumnType, type Generated, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { Database } from '../../store/schema.js';

/** `ledger.events` (migration 0001_ledger): the append-only, hash-chained events. */
export interface EventsTable {
  global_position: Generated<number>;
  /** The appending transaction's id (xid8), as text: readers order by (transaction_id, global_position). */
  transaction_id: Generated<string>;
  event_id: string;
  tenant_id: string;
  stream_id: string;
  stream_revision: number;
  event_type: string;
  data: ColumnType<Record<string, unknown>, string, never>;
  metadata: ColumnType<Record<string, unknown>, string, never>;
  recorded_at: ColumnType<Date, string, never>;
  prev_hash: string | null;
  event_hash: string;
  /** The appender's signature covering event_hash (migration 0011); null before authenticators. */
  authenticator: ColumnType<string | null, string | null | undefined, never>;
}
export type LedgerEventRow = Selectable<EventsTable>;

/**
 * A consent's stream name in SQL, of expressions for its tenant and its id, spelt as
 * `consentStream` (src/domain/consent/consent.events.ts) spells it: its events found by the
 * stream index of `ledger.events`.
 */
export const consentStreamSql = (tenantId: RawBuilder<unknown>, consentId: RawBuilder<unknown>): RawBuilder<string> =>
  sql<string>`'consent-' || ${tenantId} || '-' || ${consentId}`;

// A type alias (not an interface) so that it has the index signature `withTables` asks for.
export type LedgerDatabase = {
  'ledger.events': EventsTable;
  'ledger.authenticated_from': AuthenticatedFromTable;
};

/** Where the ledger stood when authenticators began (one row, insert-once; migration 0011). */
export interface AuthenticatedFromTable {
  only_row: ColumnType<boolean, boolean | undefined, never>;
  commit_position: number;
  prepare_position: number;
  recorded_at: ColumnType<Date, string | undefined, never>;
}

export type LedgerDb = Kysely<Database & LedgerDatabase>;

/**
 * The store's handle, seeing `ledger.events` too. The PostgreSQL ledger itself writes and reads
 * the table in SQL of its own (postgres.ledger.ts); this is for the few others that look at rows.
 *
 * @example
 * const n = await ledgerDb(store.db).selectFrom('ledger.events').select('event_id').execute();
 */
export const ledgerDb = (db: Kysely<Database>): LedgerDb => db.withTables<LedgerDatabase>();
