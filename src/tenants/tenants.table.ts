import type { ColumnType, Kysely, Selectable } from 'kysely';
import type { Database } from '../store/schema.js';

/** `control.tenants` (migration 0002_control): tenants, their plan and own limits. Operator state, not evidence. */
export interface TenantsTable {
  id: string;
  name: string;
  plan: string;
  /** The tenant's own limit; null: the plan's. */
  per_minute: number | null;
  per_day: number | null;
  created_at: ColumnType<Date, string | undefined, never>;
}
export type TenantRow = Selectable<TenantsTable>;

/** `control.api_keys` (migration 0002_control): keys, with only a SHA-256 hash of their secret. */
export interface ApiKeysTable {
  api_key: string;
  tenant_id: string;
  secret_hash: string;
  created_at: ColumnType<Date, string | undefined, never>;
  revoked_at: ColumnType<Date | null, string | null | undefined, string | null>;
  /** admin, write or read (migration 0015_control_key_scopes; keys before it are admin). */
  scope: ColumnType<string, string | undefined, never>;
  /** migration 0016_control_key_names: a label, an optional expiry, the last use (to the minute). */
  name: ColumnType<string | null, string | null | undefined, never>;
  expires_at: ColumnType<Date | null, string | null | undefined, never>;
  last_used_at: ColumnType<Date | null, never, string>;
  /** migration 0017: whether the key's expiry is recorded in the tenant's log. */
  expiry_recorded: ColumnType<boolean, never, boolean>;
  /** migration 0018: a publishable key's allowed origins and its own per-minute budget (null for other keys). */
  origins: ColumnType<string[] | null, string[] | null | undefined, never>;
  per_minute: ColumnType<number | null, number | null | undefined, never>;
  /** migration 0033: a publishable key's Ed25519 public key for user tokens (32 bytes, base64url), or null. */
  user_token_key: ColumnType<string | null, string | null | undefined, never>;
}
export type ApiKeyRow = Selectable<ApiKeysTable>;

/** `control.console_sessions` (migration 0019): console sign-ins, by the SHA-256 of the cookie's value. */
export interface ConsoleSessionsTable {
  id_hash: string;
  api_key: string;
  csrf_token: string;
  created_at: ColumnType<Date, string | undefined, never>;
  expires_at: ColumnType<Date, string, never>;
}

// A type alias (not an interface) so that it has the index signature `withTables` asks for.
export type ControlDatabase = {
  'control.tenants': TenantsTable;
  'control.api_keys': ApiKeysTable;
  'control.console_sessions': ConsoleSessionsTable;
};

export type ControlDb = Kysely<Database & ControlDatabase>;

/** The store's handle, seeing the tenants and API keys too. */
export const controlDb = (db: Kysely<Database>): ControlDb => db.withTables<ControlDatabase>();
