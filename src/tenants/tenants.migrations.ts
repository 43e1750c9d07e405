import { sqlMigration, type Migrations } from '../store/migrations.js';

/** Tenants and API keys (see tenants.table.ts). A released migration's SQL never changes. */
export const controlMigrations: Migrations = {
  '0002_control': sqlMigration(`
      CREATE TABLE control.tenants (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        plan text NOT NULL,
        per_minute integer,
        per_day integer,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE control.api_keys (
        api_key text PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES control.tenants(id),
        secret_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      );
      CREATE INDEX api_keys_tenant ON control.api_keys (tenant_id);
    `),
  // A key's scope (docs/contract.md, Keys and scopes): keys issued before scopes keep doing
  // everything they did, as admin keys.
  '0015_control_key_scopes': sqlMigration(`
      ALTER TABLE control.api_keys ADD COLUMN scope text NOT NULL DEFAULT 'admin';
      ALTER TABLE control.api_keys ADD CONSTRAINT api_keys_scope CHECK (scope IN ('admin', 'write', 'read'));
    `),
  // A key's name, its optional expiry, and when it was last used (to within a minute).
  '0016_control_key_names': sqlMigration(`
      ALTER TABLE control.api_keys ADD COLUMN name text;
      ALTER TABLE control.api_keys ADD COLUMN expires_at timestamptz;
      ALTER TABLE control.api_keys ADD COLUMN last_used_at timestamptz;
    `),
  // Whether a key's expiry is in the tenant's log yet (docs/audit-log.md): the deadlines follower
  // records each once, and finds the next through the partial index.
  '0017_control_key_expiry_recorded': sqlMigration(`
      ALTER TABLE control.api_keys ADD COLUMN expiry_recorded boolean NOT NULL DEFAULT false;
      CREATE INDEX api_keys_expiry_due ON control.api_keys (expires_at)
        WHERE expires_at IS NOT NULL AND NOT expiry_recorded AND revoked_at IS NULL;
    `),
  // Publishable keys (docs/browser.md): no secret, usable only from the origins listed, with a
  // budget of their own; the index finds whether any live key allows an origin (CORS preflight).
  '0018_control_publishable_keys': sqlMigration(`
      ALTER TABLE control.api_keys DROP CONSTRAINT api_keys_scope;
      ALTER TABLE control.api_keys ADD CONSTRAINT api_keys_scope CHECK (scope IN ('admin', 'write', 'read', 'publishable'));
      ALTER TABLE control.api_keys ADD COLUMN origins text[];
      ALTER TABLE control.api_keys ADD COLUMN per_minute integer;
      CREATE INDEX api_keys_origins ON control.api_keys USING gin (origins) WHERE scope = 'publishable' AND revoked_at IS NULL;
    `),
  // Console sessions (docs/console.md): a key and secret exchanged for a cookie; only the
  // SHA-256 of the cookie's value is stored, with the CSRF token calls that change anything send.
  // No foreign key to its key: a session is checked against its key on every use, and ledger copy
  // truncates the keys it copies.
  '0019_control_console_sessions': sqlMigration(`
      CREATE TABLE control.console_sessions (
        id_hash text PRIMARY KEY,
        api_key text NOT NULL,
        csrf_token text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX console_sessions_expiry ON control.console_sessions (expires_at);
    `),
  // A publishable key's user-token key (docs/browser.md): with one, the key records a decision
  // only for the user reference a token signed by the tenant's backend names.
  '0033_control_user_token_keys': sqlMigration(`
      ALTER TABLE control.api_keys ADD COLUMN user_token_key text;
    `),
  // Whether the tenants, keys and webhooks an older version made without events are recorded in
  // their tenants' logs (src/tenants/adopt-config.ts): one row, insert-once, kept by the ledger's
  // trigger, so no later start adopts a row a database writer added.
  '0035_control_config_adopted': sqlMigration(`
      CREATE TABLE control.config_adopted (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        adopted_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TRIGGER config_adopted_refuse_update_delete BEFORE UPDATE OR DELETE ON control.config_adopted
        FOR EACH ROW EXECUTE FUNCTION ledger.refuse_change();
      CREATE TRIGGER config_adopted_refuse_truncate BEFORE TRUNCATE ON control.config_adopted
        FOR EACH STATEMENT EXECUTE FUNCTION ledger.refuse_change();
    `),
};
