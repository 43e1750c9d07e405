import { sql, type ColumnType, type Kysely } from 'kysely';
import { comparePositions, START, type LedgerPosition } from '../ledger/ledger.port.js';
import type { Database } from '../store/schema.js';

/** A checkpoint row: how far one processor has applied the ledger. The three tables share this shape. */
export interface CheckpointTable {
  name: string;
  commit_position: number;
  prepare_position: number;
  updated_at: ColumnType<Date, string | undefined, string>;
}

/** The followers' checkpoint tables: read models, the transparency sealer, the webhook subscription. */
export type CheckpointTables = {
  'read.checkpoints': CheckpointTable;
  'transparency.sealer': CheckpointTable;
  'webhooks.checkpoints': CheckpointTable;
};
export type CheckpointTableName = keyof CheckpointTables;

/** A processor's checkpoint moved to `position`. */
export interface MovedCheckpoint {
  id: string;
  position: LedgerPosition;
}

/**
 * Where a follower keeps its processors' checkpoints, one row per processor id. A batch locks the
 * rows of its processors, applies what lies past each, and stores the rows that moved, in one
 * transaction: several processes share the work and a crash neither repeats nor skips an event.
 *
 * @example
 * const checkpoints = new TableCheckpointer('transparency.sealer');
 * await checkpoints.ensure(db, ['merkle'], START);
 * const at = await checkpoints.lock(tx, ['merkle']); // Map { 'merkle' => position }
 * await checkpoints.store(tx, [{ id: 'merkle', position: last }]);
 */
export interface Checkpointer {
  /** Creates the rows that are missing, at `start`; leaves the others. */
  ensure(db: Kysely<Database>, ids: readonly string[], start: LedgerPosition): Promise<void>;
  /** The slowest of the rows (START when there is none), read without a lock: where a read starts. */
  read(db: Kysely<Database>, ids: readonly string[]): Promise<LedgerPosition>;
  /** Locks the rows in id order (as every process does, so that two never deadlock) and answers them. */
  lock(tx: Kysely<Database>, ids: readonly string[]): Promise<Map<string, LedgerPosition>>;
  /** Moves the rows of `moved`, in one statement. */
  store(tx: Kysely<Database>, moved: readonly MovedCheckpoint[]): Promise<void>;
}

const positionOf = (r: { commit_position: number | string; prepare_position: number | string }): LedgerPosition => ({
  commit: Number(r.commit_position),
  prepare: Number(r.prepare_position),
});

/** The earliest of `positions`; START for none. */
export const minPosition = (positions: readonly LedgerPosition[]): LedgerPosition =>
  positions.reduce((a, b) => (comparePositions(a, b) <= 0 ? a : b), positions[0] ?? START);

/**
 * Checkpoints in one of the checkpoint tables (`name`, `commit_position`, `prepare_position`,
 * `updated_at`). The ids travel as one JSON parameter, so each statement has one shape whatever
 * the number of processors.
 */
export class TableCheckpointer implements Checkpointer {
  constructor(private readonly table: CheckpointTableName) {}

  async ensure(db: Kysely<Database>, ids: readonly string[], start: LedgerPosition): Promise<void> {
    if (ids.length === 0) return;
    await sql`
      INSERT INTO ${sql.table(this.table)} (name, commit_position, prepare_position)
      SELECT name, ${start.commit}::bigint, ${start.prepare}::bigint FROM json_array_elements_text(${JSON.stringify(ids)}::json) AS name
      ON CONFLICT (name) DO NOTHING`.execute(db);
  }

  async read(db: Kysely<Database>, ids: readonly string[]): Promise<LedgerPosition> {
    const rows = await sql<CheckpointTable>`
      SELECT commit_position, prepare_position FROM ${sql.table(this.table)}
      WHERE name IN (SELECT json_array_elements_text(${JSON.stringify(ids)}::json))`.execute(db);
    return minPosition(rows.rows.map(positionOf));
  }

  async lock(tx: Kysely<Database>, ids: readonly string[]): Promise<Map<string, LedgerPosition>> {
    const rows = await sql<CheckpointTable>`
      SELECT name, commit_position, prepare_position FROM ${sql.table(this.table)}
      WHERE name IN (SELECT json_array_elements_text(${JSON.stringify(ids)}::json))
      ORDER BY name FOR UPDATE`.execute(tx);
    return new Map(rows.rows.map((r) => [r.name, positionOf(r)]));
  }

  async store(tx: Kysely<Database>, moved: readonly MovedCheckpoint[]): Promise<void> {
    if (moved.length === 0) return;
    const rows = moved.map((m) => ({ name: m.id, commit: m.position.commit, prepare: m.position.prepare }));
    await sql`
      UPDATE ${sql.table(this.table)} AS c SET commit_position = m.commit, prepare_position = m.prepare, updated_at = now()
      FROM json_to_recordset(${JSON.stringify(rows)}::json) AS m(name text, commit bigint, prepare bigint)
      WHERE c.name = m.name`.execute(tx);
  }
}
