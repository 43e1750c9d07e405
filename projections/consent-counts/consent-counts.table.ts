import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../src/store/schema.js';

/** `read.consent_counts`: counters per (tenant, UTC day, policy type, purpose, version, decision). */
export interface ConsentCountsTable {
  tenant_id: string;
  /** 'YYYY-MM-DD' (src/store/store.ts parses dates as text). */
  day: string;
  policy_type: string;
  purpose: string;
  policy_version_id: string;
  consent_given: boolean;
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
    policy_type text NOT NULL,
    purpose text NOT NULL,
    policy_version_id uuid NOT NULL,
    consent_given boolean NOT NULL,
    count bigint NOT NULL,
    PRIMARY KEY (tenant_id, day, policy_type, purpose, policy_version_id, consent_given)
  );
`;
