import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../src/store/schema.js';

/**
 * `read.consent_counts`: how many records per (tenant, UTC day, day of the decision, policy type,
 * purpose, version, decision, status, tag): tag '' counts every record, another tag
 * (Privacy.metadataTagOf) those carrying it. The day is the record's (the ledger's time, which
 * search and stats filter on); the decision's day differs only for imported history
 * (collectedAt). Kept by the consents projector with its rows
 * (projections/consents/consent-counts.counters.ts).
 */
export interface ConsentCountsTable {
  tenant_id: string;
  /** 'YYYY-MM-DD' (src/store/store.ts parses dates as text). */
  day: string;
  /** 'YYYY-MM-DD' of collectedAt when imported, else of the record: the console's decisions per day. */
  decided_day: string;
  policy_type: string;
  purpose: string;
  policy_version_id: string;
  consent_given: boolean;
  /** active, withdrawn or expired (as marked by ConsentExpired). */
  status: string;
  tag: string;
  count: number;
}
export type ConsentCountRow = Selectable<ConsentCountsTable>;

// A type alias (not an interface) so that it has the index signature `withTables` asks for.
export type ConsentCountsDatabase = { 'read.consent_counts': ConsentCountsTable };

/** The store's handle (or a transaction's), seeing `read.consent_counts` too. */
export const consentCountsDb = (db: Kysely<Database>) => db.withTables<ConsentCountsDatabase>();

/** Its part of the read schema (projections/read-schema.ts runs it). */
export const CONSENT_COUNTS_DDL = `
  CREATE TABLE IF NOT EXISTS read.consent_counts (
    tenant_id uuid NOT NULL,
    day date NOT NULL,
    decided_day date NOT NULL,
    policy_type text NOT NULL,
    purpose text NOT NULL,
    policy_version_id uuid NOT NULL,
    consent_given boolean NOT NULL,
    status text NOT NULL,
    tag text NOT NULL,
    count bigint NOT NULL,
    PRIMARY KEY (tenant_id, day, decided_day, policy_type, purpose, policy_version_id, consent_given, status, tag)
  );
  -- Stats read a tenant's counters of one tag ('' for all records) over a range of days.
  CREATE INDEX IF NOT EXISTS consent_counts_tenant_tag ON read.consent_counts (tenant_id, tag, day);
  -- Decisions per day read them by the decision's day.
  CREATE INDEX IF NOT EXISTS consent_counts_tenant_decided ON read.consent_counts (tenant_id, tag, decided_day);
`;
