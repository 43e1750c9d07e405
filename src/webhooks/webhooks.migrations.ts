import { sqlMigration, type Migrations } from '../store/migrations.js';

/**
 * Webhook configurations and their deliveries: state, not rebuilt from the ledger (see
 * webhooks.table.ts, docs/webhooks.md). A released migration's SQL never changes.
 */
export const webhooksMigrations: Migrations = {
  '0003_webhooks': sqlMigration(`
      CREATE SCHEMA IF NOT EXISTS webhooks;
      CREATE TABLE webhooks.endpoints (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        url text NOT NULL,
        events text[] NOT NULL,
        description text,
        secret text NOT NULL,
        is_active boolean NOT NULL,
        -- Events at or before this ledger position are not for this webhook (creation / re-activation).
        from_commit bigint NOT NULL,
        from_prepare bigint NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        deleted_at timestamptz
      );
      CREATE INDEX endpoints_tenant ON webhooks.endpoints (tenant_id, created_at) WHERE deleted_at IS NULL;
      CREATE TABLE webhooks.deliveries (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        webhook_id uuid NOT NULL REFERENCES webhooks.endpoints(id),
        event_id uuid NOT NULL,
        event_type text NOT NULL,
        payload text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'cancelled')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT deliveries_once UNIQUE (webhook_id, event_id)
      );
      CREATE INDEX deliveries_due ON webhooks.deliveries (next_attempt_at) WHERE status = 'pending';
      CREATE TABLE webhooks.attempts (
        id uuid PRIMARY KEY,
        delivery_id uuid NOT NULL REFERENCES webhooks.deliveries(id),
        tenant_id uuid NOT NULL,
        webhook_id uuid NOT NULL,
        event_id uuid NOT NULL,
        event_type text NOT NULL,
        attempt integer NOT NULL,
        status_code integer,
        success boolean NOT NULL,
        error text,
        response_time_ms integer NOT NULL,
        attempted_at timestamptz NOT NULL,
        CONSTRAINT attempts_once UNIQUE (delivery_id, attempt)
      );
      CREATE INDEX attempts_history ON webhooks.attempts (webhook_id, attempted_at DESC, id);
      CREATE TABLE webhooks.checkpoints (
        name text PRIMARY KEY,
        commit_position bigint NOT NULL,
        prepare_position bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
    `),
  // Signing secrets wrapped with the master key (docs/webhooks.md). The clear column is emptied
  // by the service at its next start, which has the master key that a migration has not.
  '0009_webhook_secrets_wrapped': sqlMigration(`ALTER TABLE webhooks.endpoints ADD COLUMN secret_wrapped text;`),
  // When each webhook was active and for which events, in ledger positions, as the subscription
  // reads it from the webhook's own events (WebhookCreated/Changed/Deleted): an event is for a
  // webhook when it falls in one of its windows, whenever the subscription gets to it. Active
  // webhooks start with an open window from their starting point, inactive ones with an empty one.
  '0020_webhook_windows': sqlMigration(`
      CREATE TABLE webhooks.windows (
        webhook_id uuid NOT NULL,
        tenant_id uuid NOT NULL,
        from_commit bigint NOT NULL,
        from_prepare bigint NOT NULL,
        until_commit bigint,
        until_prepare bigint,
        events text[] NOT NULL,
        PRIMARY KEY (webhook_id, from_commit, from_prepare)
      );
      CREATE INDEX windows_tenant ON webhooks.windows (tenant_id);
      INSERT INTO webhooks.windows (webhook_id, tenant_id, from_commit, from_prepare, until_commit, until_prepare, events)
        SELECT id, tenant_id, from_commit, from_prepare,
          CASE WHEN is_active THEN NULL ELSE from_commit END, CASE WHEN is_active THEN NULL ELSE from_prepare END, events
        FROM webhooks.endpoints WHERE deleted_at IS NULL;
    `),
  // What the history pruner looks for (WEBHOOK_HISTORY_DAYS, src/webhooks/retention.ts).
  '0021_webhook_history_age': sqlMigration(`
      CREATE INDEX attempts_age ON webhooks.attempts (attempted_at);
      CREATE INDEX deliveries_settled_age ON webhooks.deliveries (updated_at) WHERE status <> 'pending';
    `),
  // The dispatcher's claim, webhook by webhook in turn (src/webhooks/dispatcher.ts): the webhooks
  // with deliveries pending, and each one's due first.
  '0026_webhook_deliveries_per_webhook': sqlMigration(`
      CREATE INDEX deliveries_pending_per_webhook ON webhooks.deliveries (webhook_id, next_attempt_at) WHERE status = 'pending';
    `),
  // When a delivery was last sent again on request: the subscription's cancel at a deactivation
  // it reaches late spares it (src/webhooks/subscription.ts).
  '0027_webhook_deliveries_redelivered': sqlMigration(`
      ALTER TABLE webhooks.deliveries ADD COLUMN redelivered_at timestamptz;
    `),
  // Each delivery row's seal, a MAC of its id, webhook, event, name and body under a key the
  // database does not hold (src/webhooks/delivery-seal.ts): the dispatcher sends only what the
  // service queued. The one-row mark says the rows an older version left were sealed, once.
  '0036_webhook_delivery_seals': sqlMigration(`
      ALTER TABLE webhooks.deliveries ADD COLUMN seal text;
      CREATE TABLE webhooks.deliveries_sealed (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        sealed_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TRIGGER deliveries_sealed_refuse_update_delete BEFORE UPDATE OR DELETE ON webhooks.deliveries_sealed
        FOR EACH ROW EXECUTE FUNCTION ledger.refuse_change();
      CREATE TRIGGER deliveries_sealed_refuse_truncate BEFORE TRUNCATE ON webhooks.deliveries_sealed
        FOR EACH STATEMENT EXECUTE FUNCTION ledger.refuse_change();
    `),
};
