import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/** What marks a step done for the store, and the lock it runs under on a shared server. */
export interface OnceMark {
  /** A one-row table (`only_row`), insert-once under the ledger's trigger: its row says the step was done. */
  marker: string;
  /** The advisory lock it runs under (src/store/migrations.ts holds 7_412_003_001; each step its own). */
  lock: number;
  /** Processes share the store (a PostgreSQL server): two starting together run the step once. */
  shared: boolean;
}

/**
 * Runs `step` once for the store, on the first start that finds no row in `marker`, then writes
 * the row; a later start answers `done` without running it. A step that throws writes no row, so
 * the next start runs it again. Used for what an upgrade vouches for once (the rows an older
 * version left): a row a database writer adds after that is never vouched for.
 *
 * @example
 * await onceForTheStore(db, { marker: 'control.config_adopted', lock: 7_412_003_003, shared: true }, adoptAll, 0)
 */
export async function onceForTheStore<T>(db: Kysely<Database>, mark: OnceMark, step: () => Promise<T>, done: T): Promise<T> {
  const table = sql.table(mark.marker);
  const once = async () => {
    if ((await sql<{ found: boolean }>`SELECT true AS found FROM ${table}`.execute(db)).rows.length > 0) return done;
    const result = await step();
    await sql`INSERT INTO ${table} DEFAULT VALUES ON CONFLICT (only_row) DO NOTHING`.execute(db);
    return result;
  };
  if (!mark.shared) return once();
  return db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(${mark.lock})`.execute(conn);
    try {
      return await once();
    } finally {
      await sql`SELECT pg_advisory_unlock(${mark.lock})`.execute(conn);
    }
  });
}
