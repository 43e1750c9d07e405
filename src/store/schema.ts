import type { ColumnType, Generated } from 'kysely';

/** `control.migrations`: the name of every migration applied to this store (src/store/migrations.ts). */
export interface MigrationsTable {
  name: string;
  applied_at: ColumnType<Date, string | undefined, never>;
}

/** `ledger` schema: the append-only events table. */
export interface EventsTable {
  global_position: Generated<number>;
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
}
export type EventRow = EventsTable;

/** `control` schema: tenants and their API keys (operator state, not consent evidence). */
export interface TenantsTable {
  id: string;
  name: string;
  plan: string;
  per_minute: number | null;
  per_day: number | null;
  created_at: ColumnType<Date, string | undefined, never>;
}
export interface ApiKeysTable {
  api_key: string;
  tenant_id: string;
  secret_hash: string;
  created_at: ColumnType<Date, string | undefined, never>;
  revoked_at: ColumnType<Date | null, string | null | undefined, string | null>;
}

/** `read` schema: disposable read models, rebuilt from the ledger. */
export interface CheckpointsTable {
  name: string;
  commit_position: number;
  prepare_position: number;
  updated_at: ColumnType<Date, string | undefined, string>;
}
export interface ProjectionFailuresTable {
  projector: string;
  event_id: string;
  error: string;
  failed_at: ColumnType<Date, string | undefined, never>;
}
export interface PolicyVersionsTable {
  id: string;
  tenant_id: string;
  policy_type: string;
  version: string;
  major: number;
  minor: number;
  patch: number;
  title: string;
  content: string;
  content_hash: string;
  effective_date: ColumnType<Date, string, string>;
  is_active: boolean;
  deleted: boolean;
  created_at: ColumnType<Date, string, string>;
  updated_at: ColumnType<Date, string, string>;
}
export interface ConsentsTable {
  id: string;
  tenant_id: string;
  /** HMAC of the user reference (docs/erasure.md); the reference itself is only in `personal`, sealed. */
  subject: string;
  policy_version_id: string;
  policy_type: string;
  policy_version: string;
  policy_title: string;
  consent_given: boolean;
  status: string;
  /** The ledger's sealed personal fields (userReference, ipAddress, userAgent, metadata); null once erased. */
  personal: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  consent_hash: string;
  batch_id: string | null;
  created_at: ColumnType<Date, string, string>;
  withdrawn_at: ColumnType<Date | null, string | null, string | null>;
  /** The sealed withdrawal reason; null when none or once erased. */
  withdrawal_reason: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  erased: ColumnType<boolean, boolean | undefined, boolean>;
}
export interface ConsentCountsTable {
  tenant_id: string;
  day: string;
  policy_type: string;
  consent_given: boolean;
  count: number;
}
export interface UserPolicyStatusTable {
  tenant_id: string;
  /** HMAC of the user reference (docs/erasure.md). */
  subject: string;
  policy_type: string;
  consent_id: string;
  policy_version_id: string;
  policy_version: string;
  consent_given: boolean;
  status: string;
  decided_at: ColumnType<Date, string, string>;
  withdrawn_at: ColumnType<Date | null, string | null, string | null>;
}

export interface Database {
  'control.migrations': MigrationsTable;
  'ledger.events': EventsTable;
  'control.tenants': TenantsTable;
  'control.api_keys': ApiKeysTable;
  'read.checkpoints': CheckpointsTable;
  'read.projection_failures': ProjectionFailuresTable;
  'read.policy_versions': PolicyVersionsTable;
  'read.consents': ConsentsTable;
  'read.consent_counts': ConsentCountsTable;
  'read.user_policy_status': UserPolicyStatusTable;
}
