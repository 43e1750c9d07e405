import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/store/schema.js';
import { EVENT_INDEX_DDL } from './event-index/event-index.projector.js';

/**
 * The read models' schema. It is disposable: `dropReadSchema` + `ensureReadSchema` and a replay
 * from the ledger rebuild it. Bump READ_SCHEMA_VERSION when a table changes shape: a service
 * that finds another version drops the schema and replays.
 */
export const READ_SCHEMA_VERSION = 2;

const DDL = `
  CREATE SCHEMA IF NOT EXISTS read;
  CREATE TABLE IF NOT EXISTS read.meta (key text PRIMARY KEY, value text NOT NULL);
  CREATE TABLE IF NOT EXISTS read.checkpoints (
    name text PRIMARY KEY,
    commit_position bigint NOT NULL DEFAULT 0,
    prepare_position bigint NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE TABLE IF NOT EXISTS read.projection_failures (
    projector text NOT NULL,
    event_id uuid NOT NULL,
    error text NOT NULL,
    failed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (projector, event_id)
  );
  CREATE TABLE IF NOT EXISTS read.policy_versions (
    id uuid PRIMARY KEY,
    tenant_id uuid NOT NULL,
    policy_type text NOT NULL,
    version text NOT NULL,
    major integer NOT NULL,
    minor integer NOT NULL,
    patch integer NOT NULL,
    title text NOT NULL,
    content text NOT NULL,
    content_hash text NOT NULL,
    effective_date timestamptz NOT NULL,
    is_active boolean NOT NULL,
    deleted boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  );
  CREATE INDEX IF NOT EXISTS policy_versions_tenant_type ON read.policy_versions (tenant_id, policy_type, created_at DESC);
  CREATE INDEX IF NOT EXISTS policy_versions_tenant_created ON read.policy_versions (tenant_id, created_at DESC);
  CREATE TABLE IF NOT EXISTS read.consents (
    id uuid PRIMARY KEY,
    tenant_id uuid NOT NULL,
    subject text NOT NULL,
    policy_version_id uuid NOT NULL,
    policy_type text NOT NULL,
    policy_version text NOT NULL,
    policy_title text NOT NULL,
    consent_given boolean NOT NULL,
    status text NOT NULL,
    -- Personal fields stay sealed under the record's data key, as in the ledger (docs/erasure.md).
    personal jsonb,
    consent_hash text NOT NULL,
    batch_id uuid,
    created_at timestamptz NOT NULL,
    withdrawn_at timestamptz,
    withdrawal_reason jsonb,
    erased boolean NOT NULL DEFAULT false
  );
  CREATE INDEX IF NOT EXISTS consents_tenant_created ON read.consents (tenant_id, created_at DESC, id DESC);
  CREATE INDEX IF NOT EXISTS consents_tenant_subject ON read.consents (tenant_id, subject, created_at DESC);
  CREATE INDEX IF NOT EXISTS consents_tenant_type ON read.consents (tenant_id, policy_type, created_at DESC);
  CREATE TABLE IF NOT EXISTS read.consent_counts (
    tenant_id uuid NOT NULL,
    day date NOT NULL,
    policy_type text NOT NULL,
    consent_given boolean NOT NULL,
    count bigint NOT NULL,
    PRIMARY KEY (tenant_id, day, policy_type, consent_given)
  );
  CREATE TABLE IF NOT EXISTS read.user_policy_status (
    tenant_id uuid NOT NULL,
    subject text NOT NULL,
    policy_type text NOT NULL,
    consent_id uuid NOT NULL,
    policy_version_id uuid NOT NULL,
    policy_version text NOT NULL,
    consent_given boolean NOT NULL,
    status text NOT NULL,
    decided_at timestamptz NOT NULL,
    withdrawn_at timestamptz,
    PRIMARY KEY (tenant_id, subject, policy_type)
  );
  CREATE INDEX IF NOT EXISTS user_policy_status_consent ON read.user_policy_status (tenant_id, consent_id);
  ${EVENT_INDEX_DDL}
`;

const LOCK_KEY = 7_412_003_002;

/** Creates the read schema when missing; drops and recreates it when its version differs. */
export async function ensureReadSchema(db: Kysely<Database>): Promise<{ recreated: boolean }> {
  return db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(${LOCK_KEY})`.execute(conn);
    try {
      const exists = await sql<{ found: boolean }>`SELECT to_regclass('read.meta') IS NOT NULL AS found`.execute(conn);
      let recreated = false;
      if (exists.rows[0]?.found) {
        const v = await sql<{ value: string }>`SELECT value FROM read.meta WHERE key = 'version'`.execute(conn);
        if (v.rows[0]?.value !== String(READ_SCHEMA_VERSION)) {
          await sql`DROP SCHEMA read CASCADE`.execute(conn);
          recreated = true;
        }
      }
      await sql.raw(DDL).execute(conn);
      await sql`INSERT INTO read.meta (key, value) VALUES ('version', ${String(READ_SCHEMA_VERSION)}) ON CONFLICT (key) DO NOTHING`.execute(
        conn,
      );
      return { recreated };
    } finally {
      await sql`SELECT pg_advisory_unlock(${LOCK_KEY})`.execute(conn);
    }
  });
}

/** Drops every read model and checkpoint. The ledger is untouched. */
export async function dropReadSchema(db: Kysely<Database>): Promise<void> {
  await sql`DROP SCHEMA IF EXISTS read CASCADE`.execute(db);
}
