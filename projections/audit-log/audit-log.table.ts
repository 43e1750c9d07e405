import type { ColumnType, Kysely, Selectable } from 'kysely';
import type { Database } from '../../src/store/schema.js';

/** `read.audit_log`: one row per configuration change in a tenant's log (docs/audit-log.md). */
export interface AuditLogTable {
  event_id: string;
  tenant_id: string;
  action: string;
  /** key, operator, cli or service; null for an event written before actors were recorded. */
  actor_type: string | null;
  /** The key's public id when the actor is a key. */
  actor_id: string | null;
  target_type: string;
  target_id: string | null;
  details: ColumnType<Record<string, unknown>, string, never>;
  at: ColumnType<Date, string, never>;
  stream_id: string;
  stream_revision: number;
  event_hash: string;
  commit_position: ColumnType<number | string, number, never>;
  prepare_position: ColumnType<number | string, number, never>;
}
export type AuditLogRow = Selectable<AuditLogTable>;

// A type alias (not an interface) so that it has the index signature `withTables` asks for.
export type AuditLogDatabase = { 'read.audit_log': AuditLogTable };

/** The store's handle (or a transaction's), seeing `read.audit_log` too. */
export const auditLogDb = (db: Kysely<Database>) => db.withTables<AuditLogDatabase>();

/** Its part of the read schema (projections/read-schema.ts runs it): pages in ledger order, per action or actor. */
export const AUDIT_LOG_DDL = `
  CREATE TABLE IF NOT EXISTS read.audit_log (
    event_id uuid PRIMARY KEY,
    tenant_id uuid NOT NULL,
    action text NOT NULL,
    actor_type text,
    actor_id text,
    target_type text NOT NULL,
    target_id text,
    details jsonb NOT NULL,
    at timestamptz NOT NULL,
    stream_id text NOT NULL,
    stream_revision integer NOT NULL,
    event_hash text NOT NULL,
    commit_position bigint NOT NULL,
    prepare_position bigint NOT NULL
  );
  CREATE INDEX IF NOT EXISTS audit_log_order ON read.audit_log (tenant_id, commit_position, prepare_position);
  CREATE INDEX IF NOT EXISTS audit_log_action ON read.audit_log (tenant_id, action, commit_position, prepare_position);
  CREATE INDEX IF NOT EXISTS audit_log_at ON read.audit_log (tenant_id, at);
`;
