import type { ColumnType, Kysely, Selectable } from 'kysely';
import type { Database } from '../../src/store/schema.js';

/**
 * `read.event_index`: where the store finds ledger events by id or by subject when the ledger is
 * not in the store's own database (EventStoreDB). One row per event.
 */
export interface EventIndexTable {
  event_id: string;
  tenant_id: string;
  stream_id: string;
  stream_revision: number;
  event_type: string;
  commit_position: number;
  prepare_position: number;
  /** Consent events: the subject (HMAC of the user reference). */
  subject: string | null;
  consent_id: string | null;
  /** Consent events: the data keys they name (personal fields, withdrawal reason). */
  kids: ColumnType<string[], string[] | undefined, string[]>;
}
export type EventIndexRow = Selectable<EventIndexTable>;

// A type alias (not an interface) so that it has the index signature `withTables` asks for.
export type EventIndexDatabase = { 'read.event_index': EventIndexTable };

/** The store's handle (or a transaction's), seeing `read.event_index` too. */
export const eventIndexDb = (db: Kysely<Database>) => db.withTables<EventIndexDatabase>();

/** Its part of the read schema (projections/read-schema.ts runs it). */
export const EVENT_INDEX_DDL = `
  CREATE TABLE IF NOT EXISTS read.event_index (
    event_id uuid PRIMARY KEY,
    tenant_id uuid NOT NULL,
    stream_id text NOT NULL,
    stream_revision integer NOT NULL,
    event_type text NOT NULL,
    commit_position bigint NOT NULL,
    prepare_position bigint NOT NULL,
    subject text,
    consent_id text,
    kids text[] NOT NULL DEFAULT '{}'
  );
  CREATE INDEX IF NOT EXISTS event_index_subject ON read.event_index (tenant_id, subject) WHERE subject IS NOT NULL;
`;
