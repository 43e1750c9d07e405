import type { ColumnType, Kysely, Selectable } from 'kysely';
import type { Database } from '../../src/store/schema.js';

/** `read.consents`: one row per consent record, for search, user lists and the CSV export. */
export interface ConsentsTable {
  id: string;
  tenant_id: string;
  /** HMAC of the user reference (docs/erasure.md); the reference itself is only in `personal`, sealed. */
  subject: string;
  policy_version_id: string;
  policy_type: string;
  /** The version's purpose (its type when published without one). */
  purpose: string;
  policy_version: string;
  policy_title: string;
  consent_given: boolean;
  status: string;
  /** The ledger's sealed personal fields (userReference, ipAddress, userAgent, metadata); null once erased. */
  personal: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  consent_hash: string;
  batch_id: string | null;
  created_at: ColumnType<Date, string, string>;
  /** An imported decision's original time (docs/purposes.md, Moving in); null: at created_at. */
  collected_at: ColumnType<Date | null, string | null, string | null>;
  /** When a consent given expires (docs/purposes.md); null: never. */
  expires_at: ColumnType<Date | null, string | null, string | null>;
  withdrawn_at: ColumnType<Date | null, string | null, string | null>;
  /** The sealed withdrawal reason; null when none or once erased. */
  withdrawal_reason: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  erased: ColumnType<boolean, boolean | undefined, boolean>;
  /** Keyed hashes of the top-level metadata values (Privacy.metadataTagOf); null when none or once erased. */
  metadata_tags: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
}
export type ConsentRow = Selectable<ConsentsTable>;

// A type alias (not an interface) so that it has the index signature `withTables` asks for.
export type ConsentsDatabase = { 'read.consents': ConsentsTable };

/** The store's handle (or a transaction's), seeing `read.consents` too. */
export const consentsDb = (db: Kysely<Database>) => db.withTables<ConsentsDatabase>();

/** Its part of the read schema (projections/read-schema.ts runs it). */
export const CONSENTS_DDL = `
  CREATE TABLE IF NOT EXISTS read.consents (
    id uuid PRIMARY KEY,
    tenant_id uuid NOT NULL,
    subject text NOT NULL,
    policy_version_id uuid NOT NULL,
    policy_type text NOT NULL,
    purpose text NOT NULL,
    policy_version text NOT NULL,
    policy_title text NOT NULL,
    consent_given boolean NOT NULL,
    status text NOT NULL,
    -- Personal fields stay sealed under the record's data key, as in the ledger (docs/erasure.md).
    personal jsonb,
    consent_hash text NOT NULL,
    batch_id uuid,
    created_at timestamptz NOT NULL,
    collected_at timestamptz,
    expires_at timestamptz,
    withdrawn_at timestamptz,
    withdrawal_reason jsonb,
    erased boolean NOT NULL DEFAULT false,
    metadata_tags text[]
  );
  CREATE INDEX IF NOT EXISTS consents_tenant_created ON read.consents (tenant_id, created_at DESC, id DESC);
  CREATE INDEX IF NOT EXISTS consents_tenant_subject ON read.consents (tenant_id, subject, created_at DESC);
  CREATE INDEX IF NOT EXISTS consents_tenant_type ON read.consents (tenant_id, policy_type, created_at DESC);
  -- One index per filter (docs/purposes.md, Filters), each in the order a page reads.
  CREATE INDEX IF NOT EXISTS consents_tenant_purpose ON read.consents (tenant_id, purpose, created_at DESC, id DESC);
  CREATE INDEX IF NOT EXISTS consents_tenant_version ON read.consents (tenant_id, policy_version_id, created_at DESC, id DESC);
  CREATE INDEX IF NOT EXISTS consents_tenant_status ON read.consents (tenant_id, status, created_at DESC, id DESC);
  -- Tags are keyed per tenant, so one tag names one tenant's records.
  CREATE INDEX IF NOT EXISTS consents_metadata_tags ON read.consents USING gin (metadata_tags);
  -- The deadlines follower's question: which consents reached their expiry and are not marked yet.
  CREATE INDEX IF NOT EXISTS consents_expiring ON read.consents (expires_at) WHERE status = 'active' AND expires_at IS NOT NULL;
  CREATE INDEX IF NOT EXISTS consents_tenant_expiry ON read.consents (tenant_id, expires_at) WHERE expires_at IS NOT NULL;
  CREATE INDEX IF NOT EXISTS consents_tenant_unmarked ON read.consents (tenant_id, expires_at) WHERE status = 'active' AND expires_at IS NOT NULL;
`;
