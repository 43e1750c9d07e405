import { sql } from 'kysely';
import type { Projector } from '../src/followers/projector.js';
import { recordsetOf } from './recordset.js';

type Tx = Parameters<Projector['apply']>[0];

/**
 * Adds `d` to the `count` of each row's counter in `table`, whose key is `columns` (name → SQL
 * type), in one statement: the changes travel as one JSON parameter, are summed per counter
 * (GROUP BY), and one upsert adds them. A counter that reaches zero is deleted: a replay that
 * sums a batch's +1 and -1 never makes it, so a kept zero would read as drift to `projections
 * verify`. A projector calls it in the transaction that changes its rows, so counters and rows
 * always agree. Table and column names are the caller's constants.
 *
 * @example
 * await addToCounters(tx, 'read.standing_counts', { tenant_id: 'uuid', purpose: 'text', policy_version_id: 'uuid' }, [{ tenant_id, purpose, policy_version_id, d: 1 }]);
 */
export async function addToCounters<K extends string>(
  tx: Tx,
  table: string,
  columns: Record<K, string>,
  changes: readonly (Record<NoInfer<K>, unknown> & { d: number })[],
): Promise<void> {
  if (changes.length === 0) return;
  const list = Object.keys(columns).join(', ');
  // RETURNING filtered in a CTE: only the counters this statement left at zero come back, their
  // keys as text (a date stays the day it is), read back below as the columns' types.
  const asText = Object.keys(columns)
    .map((c) => `${c}::text AS ${c}`)
    .join(', ');
  const zeroed = await sql<Record<string, string>>`
    WITH added AS (
      INSERT INTO ${sql.raw(table)} (${sql.raw(list)}, count)
      SELECT ${sql.raw(list)}, sum(d)
      FROM ${recordsetOf({ ...columns, d: 'int' }, changes)}
      GROUP BY ${sql.raw(list)}
      HAVING sum(d) <> 0
      ON CONFLICT (${sql.raw(list)}) DO UPDATE SET count = ${sql.raw(table)}.count + EXCLUDED.count
      RETURNING ${sql.raw(list)}, count
    )
    SELECT ${sql.raw(asText)} FROM added WHERE count = 0`.execute(tx);
  if (zeroed.rows.length === 0) return;
  await sql`
    DELETE FROM ${sql.raw(table)} t
    USING ${recordsetOf(columns, zeroed.rows)}
    WHERE ${sql.join(
      Object.keys(columns).map((c) => sql`t.${sql.raw(c)} = r.${sql.raw(c)}`),
      sql` AND `,
    )} AND t.count = 0`.execute(tx);
}
