import { sqlMigration, type Migrations } from '../store/migrations.js';

/**
 * Transparency log: per tenant, the perfect subtrees of its Merkle tree, its leaves, signed
 * checkpoints (all kept: consistency proofs between any two sizes) and the signing key (see
 * transparency.table.ts, docs/verifying.md). Kept, not rebuilt: the checkpoints were published.
 * `transparency.sealer` is the sealer's follower checkpoint. A released migration's SQL never changes.
 */
export const transparencyMigrations: Migrations = {
  '0005_transparency': sqlMigration(`
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
    `),
  // The checkpoint signing key leaves the store (its seed is moved to a file on start): only the
  // public halves are kept, each key with when it was current and, once retired, the size of each
  // tenant's tree it signed up to. At most one key is current.
  '0010_transparency_key_history': sqlMigration(`
      CREATE TABLE transparency.key_history (
        public_key text PRIMARY KEY,
        vkey text NOT NULL,
        activated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        retired_at timestamptz
      );
      CREATE UNIQUE INDEX key_history_one_current ON transparency.key_history ((true)) WHERE retired_at IS NULL;
      CREATE TABLE transparency.key_tree_sizes (
        public_key text NOT NULL REFERENCES transparency.key_history (public_key),
        tenant_id uuid NOT NULL,
        last_size bigint NOT NULL,
        PRIMARY KEY (public_key, tenant_id)
      );
    `),
  // Where the sealer stopped sealing a tenant, and why (an event the service did not append, or
  // whose time goes back); and each tree's last leaf time, which the next leaf must not precede.
  '0012_transparency_halts': sqlMigration(`
      CREATE TABLE transparency.halts (
        tenant_id uuid PRIMARY KEY,
        event_id uuid NOT NULL,
        commit_position bigint NOT NULL,
        prepare_position bigint NOT NULL,
        reason text NOT NULL,
        halted_at timestamptz NOT NULL DEFAULT now()
      );
      ALTER TABLE transparency.trees ADD COLUMN last_recorded_at timestamptz;
    `),
  // Witnesses' cosignatures of checkpoints (c2sp.org/tlog-witness), and per witness and tenant the
  // size it last cosigned (the old size of the next request) and why it last refused.
  '0014_transparency_witnesses': sqlMigration(`
      CREATE TABLE transparency.cosignatures (
        tenant_id uuid NOT NULL,
        tree_size bigint NOT NULL,
        witness text NOT NULL,
        line text NOT NULL,
        cosigned_at timestamptz NOT NULL,
        PRIMARY KEY (tenant_id, tree_size, witness)
      );
      CREATE TABLE transparency.witness_state (
        witness text NOT NULL,
        tenant_id uuid NOT NULL,
        tree_size bigint NOT NULL,
        failure text,
        failed_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (witness, tenant_id)
      );
    `),
  // Each retired key carries its successor's signature naming it (docs/verifying.md, Keys): a key
  // written into the history by the database's credentials alone is vouched for by no key the
  // service holds, so its authenticators are refused. Keys retired before this version are vouched
  // for by the current key on the first start of it, once (key_chain_start, insert-once).
  '0028_transparency_key_succession': sqlMigration(`
      ALTER TABLE transparency.key_history ADD COLUMN successor_key text, ADD COLUMN successor_signature text;
      CREATE TABLE transparency.key_chain_start (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        public_key text NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TRIGGER key_chain_start_refuse_update_delete BEFORE UPDATE OR DELETE ON transparency.key_chain_start
        FOR EACH ROW EXECUTE FUNCTION ledger.refuse_change();
      CREATE TRIGGER key_chain_start_refuse_truncate BEFORE TRUNCATE ON transparency.key_chain_start
        FOR EACH STATEMENT EXECUTE FUNCTION ledger.refuse_change();
    `),
  // The events of a tenant whose sealing stopped, held while it is stopped (the sealer's position
  // moves on for the other tenants): sealed, checked again, once an operator clears the halt.
  '0029_transparency_held': sqlMigration(`
      CREATE TABLE transparency.held (
        tenant_id uuid NOT NULL,
        commit_position bigint NOT NULL,
        prepare_position bigint NOT NULL,
        event jsonb NOT NULL,
        PRIMARY KEY (tenant_id, commit_position, prepare_position)
      );
    `),
  // A rotation's handover: the retired key's own signature of its succession statement, so an
  // auditor who kept only the old key can trust its successor (null for keys retired before).
  '0030_transparency_key_handover': sqlMigration(`
      ALTER TABLE transparency.key_history ADD COLUMN handover_signature text;
    `),
  // The last ledger position a retired key authenticates, named in its succession statement (v2):
  // an event after it carrying that key's authenticator is refused (null for keys retired before).
  '0032_transparency_key_retired_position': sqlMigration(`
      ALTER TABLE transparency.key_history ADD COLUMN retired_position text;
    `),
  // Each leaf's ledger stream: a record's verification finds an event the log sealed that its
  // stream no longer holds (removed from the ledger). Filled from the store's own ledger table;
  // leaves of an EventStoreDB ledger sealed before this stay null (not checked).
  '0034_transparency_leaf_streams': sqlMigration(`
      ALTER TABLE transparency.leaves ADD COLUMN stream_id text;
      UPDATE transparency.leaves l SET stream_id = e.stream_id FROM ledger.events e WHERE e.event_id = l.event_id;
      CREATE INDEX leaves_by_stream ON transparency.leaves (tenant_id, stream_id);
    `),
};
