import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Schema migrations, applied in order, each once, under an advisory lock so that several
 * processes starting together migrate once. The ledger and control schemas only move forward;
 * the read schema is disposable (see `projections/read-schema.ts`).
 */
const MIGRATIONS: { name: string; up: string }[] = [
  {
    name: '0001_ledger',
    up: `
      CREATE TABLE ledger.events (
        global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
        event_id uuid NOT NULL UNIQUE,
        tenant_id uuid NOT NULL,
        stream_id text NOT NULL,
        stream_revision integer NOT NULL CHECK (stream_revision >= 0),
        event_type text NOT NULL,
        data json NOT NULL,
        metadata json NOT NULL,
        recorded_at timestamptz NOT NULL,
        prev_hash text,
        event_hash text NOT NULL,
        CONSTRAINT events_stream_revision_unique UNIQUE (stream_id, stream_revision)
      );
      CREATE INDEX events_ledger_order ON ledger.events (transaction_id, global_position);
      CREATE INDEX events_tenant_order ON ledger.events (tenant_id, transaction_id, global_position);

      -- The ledger is append-only, enforced by the database itself.
      CREATE FUNCTION ledger.refuse_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        RAISE EXCEPTION 'ledger.events is append-only: % refused', TG_OP USING ERRCODE = '42501';
      END
      $fn$;
      CREATE TRIGGER events_refuse_update_delete BEFORE UPDATE OR DELETE ON ledger.events
        FOR EACH ROW EXECUTE FUNCTION ledger.refuse_change();
      CREATE TRIGGER events_refuse_truncate BEFORE TRUNCATE ON ledger.events
        FOR EACH STATEMENT EXECUTE FUNCTION ledger.refuse_change();
    `,
  },
  {
    name: '0002_control',
    up: `
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
    `,
  },
  {
    // Webhook configurations and their deliveries: state (not rebuilt from the ledger), see docs/webhooks.md.
    name: '0003_webhooks',
    up: `
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
    `,
  },
  {
    // PDF receipts: the bytes of every receipt issued (the issue itself is a ReceiptIssued ledger
    // event). Kept, not rebuilt: see docs/receipts.md.
    name: '0004_receipts',
    up: `
      CREATE SCHEMA IF NOT EXISTS receipts;
      CREATE TABLE receipts.receipts (
        receipt_id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        consent_id uuid NOT NULL,
        sha256 text NOT NULL,
        pdf bytea NOT NULL,
        issued_at timestamptz NOT NULL
      );
      CREATE INDEX receipts_latest ON receipts.receipts (tenant_id, consent_id, issued_at DESC);
      -- The public verification page knows only the consent id.
      CREATE INDEX receipts_consent ON receipts.receipts (consent_id);
    `,
  },
  {
    // Transparency log: per tenant, the perfect subtrees of its Merkle tree, its leaves, signed
    // checkpoints (all kept: consistency proofs between any two sizes) and the signing key. See
    // docs/verifying.md. Kept, not rebuilt: the checkpoints were published.
    name: '0005_transparency',
    up: `
      CREATE SCHEMA IF NOT EXISTS transparency;
      CREATE TABLE transparency.trees (
        tenant_id uuid PRIMARY KEY,
        tree_size bigint NOT NULL,
        root_hash text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      -- Node (level, idx) covers leaves [idx * 2^level, (idx + 1) * 2^level); level 0 is a leaf hash.
      CREATE TABLE transparency.nodes (
        tenant_id uuid NOT NULL,
        level smallint NOT NULL,
        idx bigint NOT NULL,
        hash text NOT NULL,
        PRIMARY KEY (tenant_id, level, idx)
      );
      CREATE TABLE transparency.leaves (
        tenant_id uuid NOT NULL,
        leaf_index bigint NOT NULL,
        event_id uuid NOT NULL UNIQUE,
        PRIMARY KEY (tenant_id, leaf_index)
      );
      CREATE TABLE transparency.checkpoints (
        tenant_id uuid NOT NULL,
        tree_size bigint NOT NULL,
        root_hash text NOT NULL,
        note text NOT NULL,
        signed_at timestamptz NOT NULL,
        PRIMARY KEY (tenant_id, tree_size)
      );
      CREATE TABLE transparency.sealer (
        name text PRIMARY KEY,
        commit_position bigint NOT NULL,
        prepare_position bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE transparency.signing_keys (
        purpose text PRIMARY KEY,
        seed text NOT NULL,
        public_key text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    // Key store (docs/erasure.md): the installation's lookup secret and one data key per data
    // subject, each wrapped by the master key. Deleting a subject's row is their erasure.
    name: '0006_privacy',
    up: `
      CREATE SCHEMA IF NOT EXISTS privacy;
      CREATE TABLE privacy.secrets (
        name text PRIMARY KEY,
        wrapped text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE privacy.subject_keys (
        tenant_id uuid NOT NULL,
        subject text NOT NULL,
        key_id uuid NOT NULL,
        wrapped text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, subject)
      );
    `,
  },
  {
    // One data key per consent record, from a pool stored ahead in bulk, instead of one per
    // subject: recording writes no key row (docs/erasure.md, Cost). A subject's keys are the ones
    // its ledger events name; erasure deletes them all.
    name: '0007_privacy_data_keys',
    up: `
      CREATE TABLE privacy.data_keys (
        key_id uuid PRIMARY KEY,
        wrapped text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      DROP TABLE privacy.subject_keys;
    `,
  },
  {
    // Which consents the public verification page may answer for: those a receipt was ever
    // issued for (docs/receipts.md). Kept apart from the PDFs, which erasure deletes, so that a
    // receipt's holder is told the record was erased instead of "not verified".
    name: '0008_receipts_publicly_verifiable',
    up: `
      CREATE TABLE receipts.publicly_verifiable (
        consent_id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL
      );
      INSERT INTO receipts.publicly_verifiable (consent_id, tenant_id)
        SELECT DISTINCT consent_id, tenant_id FROM receipts.receipts ON CONFLICT DO NOTHING;
    `,
  },
  {
    // Webhook signing secrets wrapped with the master key (docs/webhooks.md). The clear column is
    // emptied by the service at its next start, which has the master key that a migration has not.
    name: '0009_webhook_secrets_wrapped',
    up: `ALTER TABLE webhooks.endpoints ADD COLUMN secret_wrapped text;`,
  },
];

const LOCK_KEY = 7_412_003_001;

/** Brings the ledger and control schemas up to date. */
export async function migrate(db: Kysely<Database>): Promise<void> {
  await db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(${LOCK_KEY})`.execute(conn);
    try {
      await sql`CREATE SCHEMA IF NOT EXISTS ledger`.execute(conn);
      await sql`CREATE SCHEMA IF NOT EXISTS control`.execute(conn);
      await sql`CREATE TABLE IF NOT EXISTS control.migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`.execute(
        conn,
      );
      const done = await sql<{ name: string }>`SELECT name FROM control.migrations`.execute(conn);
      const applied = new Set(done.rows.map((r) => r.name));
      for (const m of MIGRATIONS) {
        if (applied.has(m.name)) continue;
        await conn.transaction().execute(async (tx) => {
          await sql.raw(m.up).execute(tx);
          await sql`INSERT INTO control.migrations (name) VALUES (${m.name})`.execute(tx);
        });
      }
    } finally {
      await sql`SELECT pg_advisory_unlock(${LOCK_KEY})`.execute(conn);
    }
  });
}
