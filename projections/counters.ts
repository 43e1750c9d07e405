import { sql } from 'kysely';
import type { Projector } from '../src/followers/projector.js';
import { recordsetOf } from './recordset.js';

type Tx = Parameters<Projector['apply']>[0];

/**
 * Adds `d` to the `count` of each row's counter in `table`, whose key is `columns` (name → SQL
 * type), in one statement: the changes travel as one JSON parameter, are summed per counter
 * (GROUP BY), and one upsert adds them. A projector calls it in the transaction that changes its
 * rows, so counters and rows always agree. Table and column names are the caller's constants.
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
  await sql`
    INSERT INTO ${sql.raw(table)} (${sql.raw(list)}, count)
    SELECT ${sql.raw(list)}, sum(d)
    FROM ${recordsetOf({ ...columns, d: 'int' }, changes)}
    GROUP BY ${sql.raw(list)}
    ON CONFLICT (${sql.raw(list)}) DO UPDATE SET count = ${sql.raw(table)}.count + EXCLUDED.count`.execute(tx);
}
