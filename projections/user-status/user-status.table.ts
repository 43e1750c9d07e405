import { sql, type ColumnType, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../../src/store/schema.js';

/** `read.user_policy_status`: per data subject and purpose, the latest decision. */
export interface UserPolicyStatusTable {
  tenant_id: string;
  /** HMAC of the user reference (docs/erasure.md). */
  subject: string;
  /** The decision's purpose (docs/purposes.md): its policy type unless the version names one. */
  purpose: string;
  policy_type: string;
  consent_id: string;
  policy_version_id: string;
  policy_version: string;
  consent_given: boolean;
  status: string;
  decided_at: ColumnType<Date, string, string>;
  expires_at: ColumnType<Date | null, string | null, string | null>;
  withdrawn_at: ColumnType<Date | null, string | null, string | null>;
}
export type UserPolicyStatusRow = Selectable<UserPolicyStatusTable>;

/** `read.standing_counts`: per (tenant, purpose, version), the subjects whose latest decision is on it and not withdrawn. */
export interface StandingCountsTable {
  tenant_id: string;
  purpose: string;
  policy_version_id: string;
  count: number;
}

// A type alias (not an interface) so that it has the index signature `withTables` asks for.
export type UserStatusDatabase = { 'read.user_policy_status': UserPolicyStatusTable; 'read.standing_counts': StandingCountsTable };

/** The store's handle (or a transaction's), seeing `read.user_policy_status` too. */
export const userStatusDb = (db: Kysely<Database>) => db.withTables<UserStatusDatabase>();

/**
 * A decision that still stands at `now`: not withdrawn, not expired (columns of `table` when the
 * query joins another table with the same columns).
 */
export const standsAt = (now: Date, table?: string) => {
  const col = (c: string) => sql.ref(table ? `${table}.${c}` : c);
  return sql<boolean>`(${col('withdrawn_at')} IS NULL AND (${col('expires_at')} IS NULL OR ${col('expires_at')} > ${now}))`;
};

/** Its part of the read schema (projections/read-schema.ts runs it). */
export const USER_STATUS_DDL = `
  CREATE TABLE IF NOT EXISTS read.user_policy_status (
    tenant_id uuid NOT NULL,
    subject text NOT NULL,
    purpose text NOT NULL,
    policy_type text NOT NULL,
    consent_id uuid NOT NULL,
    policy_version_id uuid NOT NULL,
    policy_version text NOT NULL,
    consent_given boolean NOT NULL,
    status text NOT NULL,
    decided_at timestamptz NOT NULL,
    expires_at timestamptz,
    withdrawn_at timestamptz,
    PRIMARY KEY (tenant_id, subject, purpose)
  );
  CREATE INDEX IF NOT EXISTS user_policy_status_consent ON read.user_policy_status (tenant_id, consent_id);
  -- The re-consent list: a purpose's standing decisions per version, counted from the index alone.
  CREATE INDEX IF NOT EXISTS user_policy_status_purpose_version ON read.user_policy_status (tenant_id, purpose, policy_version_id, consent_id)
    INCLUDE (withdrawn_at, expires_at);
  -- Standing decisions past their expiry, subtracted from the counters at read time.
  CREATE INDEX IF NOT EXISTS user_policy_status_expiring ON read.user_policy_status (tenant_id, purpose, policy_version_id, expires_at)
    WHERE withdrawn_at IS NULL AND expires_at IS NOT NULL;
  CREATE TABLE IF NOT EXISTS read.standing_counts (
    tenant_id uuid NOT NULL,
    purpose text NOT NULL,
    policy_version_id uuid NOT NULL,
    count bigint NOT NULL,
    PRIMARY KEY (tenant_id, purpose, policy_version_id)
  );
`;
