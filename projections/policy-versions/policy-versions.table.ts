import type { ColumnType, Kysely, Selectable } from 'kysely';
import type { Database } from '../../src/store/schema.js';

/** `read.policy_versions`: one row per policy version, as its events left it. */
export interface PolicyVersionsTable {
  id: string;
  tenant_id: string;
  policy_type: string;
  /** The purpose it asks consent for: its type's when published without one (docs/purposes.md). */
  purpose: string;
  version: string;
  major: number;
  minor: number;
  patch: number;
  title: string;
  content: string;
  content_hash: string;
  effective_date: ColumnType<Date, string, string>;
  requires_reconsent: boolean;
  /** ISO 8601 duration a consent given on it stays valid; null: for good. */
  consent_valid_for: string | null;
  /** Its taking effect is still to be announced (PolicyReconsentRequired): the deadlines follower's question. */
  reconsent_due: boolean;
  is_active: boolean;
  deleted: boolean;
  created_at: ColumnType<Date, string, string>;
  updated_at: ColumnType<Date, string, string>;
}
export type PolicyVersionRow = Selectable<PolicyVersionsTable>;

// A type alias (not an interface) so that it has the index signature `withTables` asks for.
export type PolicyVersionsDatabase = { 'read.policy_versions': PolicyVersionsTable };

/** The store's handle (or a transaction's), seeing `read.policy_versions` too. */
export const policyVersionsDb = (db: Kysely<Database>) => db.withTables<PolicyVersionsDatabase>();

/** Its part of the read schema (projections/read-schema.ts runs it). */
export const POLICY_VERSIONS_DDL = `
  CREATE TABLE IF NOT EXISTS read.policy_versions (
    id uuid PRIMARY KEY,
    tenant_id uuid NOT NULL,
    policy_type text NOT NULL,
    purpose text NOT NULL,
    version text NOT NULL,
    major integer NOT NULL,
    minor integer NOT NULL,
    patch integer NOT NULL,
    title text NOT NULL,
    content text NOT NULL,
    content_hash text NOT NULL,
    effective_date timestamptz NOT NULL,
    requires_reconsent boolean NOT NULL,
    consent_valid_for text,
    reconsent_due boolean NOT NULL DEFAULT false,
    is_active boolean NOT NULL,
    deleted boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  );
  CREATE INDEX IF NOT EXISTS policy_versions_tenant_type ON read.policy_versions (tenant_id, policy_type, created_at DESC);
  CREATE INDEX IF NOT EXISTS policy_versions_tenant_purpose ON read.policy_versions (tenant_id, purpose, effective_date DESC);
  CREATE INDEX IF NOT EXISTS policy_versions_tenant_created ON read.policy_versions (tenant_id, created_at DESC);
  CREATE INDEX IF NOT EXISTS policy_versions_reconsent_due ON read.policy_versions (effective_date) WHERE reconsent_due;
`;
