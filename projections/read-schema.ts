import { sql, type ColumnType, type Kysely, type Selectable } from 'kysely';
import type { CheckpointTable } from '../src/followers/checkpoints.js';
import { ownerWork, regrantServiceRoles } from '../src/store/roles.js';
import type { Database } from '../src/store/schema.js';
import { AUDIT_LOG_DDL, type AuditLogDatabase } from './audit-log/audit-log.table.js';
import { CONSENT_COUNTS_DDL, type ConsentCountsDatabase } from './consent-counts/consent-counts.table.js';
import { CONSENTS_DDL, type ConsentsDatabase } from './consents/consents.table.js';
import { EVENT_INDEX_DDL, type EventIndexDatabase } from './event-index/event-index.table.js';
import { POLICY_VERSIONS_DDL, type PolicyVersionsDatabase } from './policy-versions/policy-versions.table.js';
import { PURPOSES_DDL, type PurposesDatabase } from './purposes/purposes.table.js';
import { USER_STATUS_DDL, type UserStatusDatabase } from './user-status/user-status.table.js';

/**
 * The read models' schema. It is disposable: `dropReadSchema` + `ensureReadSchema` and a replay
 * from the ledger rebuild it. Bump READ_SCHEMA_VERSION when a table changes shape: a service
 * that finds another version drops the schema and replays.
 */
export const READ_SCHEMA_VERSION = 9;

/** `read.meta`: the schema's version (`key` 'version'). */
export interface MetaTable {
  key: string;
  value: string;
}
/** `read.projection_failures`: events a projector could not apply (the runner skips them and goes on). */
export interface ProjectionFailuresTable {
  projector: string;
  event_id: string;
  error: string;
  failed_at: ColumnType<Date, string | undefined, never>;
}
export type ProjectionFailureRow = Selectable<ProjectionFailuresTable>;

// A type alias (not an interface) so that it has the index signature `withTables` asks for.
/** Every table of the read schema: the runner's, then each read model's (`projections/<model>/<model>.table.ts`). */
export type ReadDatabase = {
  'read.meta': MetaTable;
  /** Each projector's position in the ledger (the projection runner's, src/followers/checkpoints.ts). */
  'read.checkpoints': CheckpointTable;
  'read.projection_failures': ProjectionFailuresTable;
} & PolicyVersionsDatabase &
  ConsentsDatabase &
  ConsentCountsDatabase &
  UserStatusDatabase &
  EventIndexDatabase &
  PurposesDatabase &
  AuditLogDatabase;

export type ReadDb = Kysely<Database & ReadDatabase>;

/** The store's handle (or a transaction's), seeing the read schema's tables too. */
export const readDb = (db: Kysely<Database>): ReadDb => db.withTables<ReadDatabase>();

/** The runner's tables, then each read model's, in this order. */
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
${POLICY_VERSIONS_DDL}${CONSENTS_DDL}${CONSENT_COUNTS_DDL}${USER_STATUS_DDL}${EVENT_INDEX_DDL}${PURPOSES_DDL}${AUDIT_LOG_DDL}`;

const LOCK_KEY = 7_412_003_002;

/** What the service says on standard error when it found read models of another version. */
export const READ_MODELS_REBUILT =
  'consent-ledger: the read models of this version have another shape; they are being rebuilt from the ledger.\n' +
  '  Writes go on meanwhile; a read that cannot wait for them answers what they hold, with X-Read-Models-Behind: true.';

/** Whether the store has a read schema, and its version (`read.meta`; undefined when it has none). */
export async function readSchemaState(db: Kysely<Database>): Promise<{ exists: boolean; version: string | undefined }> {
  const read = readDb(db);
  // to_regclass: whether the table exists, without failing when it does not.
  const exists = await read.selectNoFrom(sql<boolean>`to_regclass('read.meta') IS NOT NULL`.as('found')).executeTakeFirst();
  if (!exists?.found) return { exists: false, version: undefined };
  const row = await read.selectFrom('read.meta').select('value').where('key', '=', 'version').executeTakeFirst();
  return { exists: true, version: row?.value };
}

/** Creates the read schema when missing; drops and recreates it when its version differs. */
export async function ensureReadSchema(db: Kysely<Database>): Promise<{ recreated: boolean }> {
  return db.connection().execute(async (conn) => {
    // A session-level advisory lock: Kysely has no builder for it.
    await sql`SELECT pg_advisory_lock(${LOCK_KEY})`.execute(conn);
    try {
      const read = readDb(conn);
      const { exists, version: found } = await readSchemaState(conn);
      // Up to date: no DDL (a service role that may not create starts here, src/store/roles.ts).
      if (found === String(READ_SCHEMA_VERSION)) return { recreated: false };
      let recreated = false;
      const what = exists
        ? `the read models must be rebuilt for this version (they are of read schema ${found ?? 'unknown'}, this version needs ${READ_SCHEMA_VERSION})`
        : 'the read models must be created (this store has none yet)';
      await ownerWork(conn, what, async () => {
        if (exists) {
          await read.schema.dropSchema('read').cascade().execute();
          recreated = true;
        }
        // The DDL as text: CREATE … IF NOT EXISTS of several tables and indexes in one round trip.
        await sql.raw(DDL).execute(conn);
      });
      await read
        .insertInto('read.meta')
        .values({ key: 'version', value: String(READ_SCHEMA_VERSION) })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      // The new tables reach the service roles the owner granted before.
      await regrantServiceRoles(conn);
      return { recreated };
    } finally {
      await sql`SELECT pg_advisory_unlock(${LOCK_KEY})`.execute(conn);
    }
  });
}

/** Drops every read model and checkpoint. The ledger is untouched. */
export async function dropReadSchema(db: Kysely<Database>): Promise<void> {
  await db.schema.dropSchema('read').ifExists().cascade().execute();
}
