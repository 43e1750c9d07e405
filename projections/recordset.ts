import { sql } from 'kysely';
import type { Projector } from '../src/followers/projector.js';

type Tx = Parameters<Projector['apply']>[0];

/**
 * `json_to_recordset(…) AS r(name type, …)`: `rows` as one JSON parameter, read as a table of
 * `columns` (name → SQL type). Column names and types are the caller's constants.
 */
export const recordsetOf = (columns: Record<string, string>, rows: readonly object[]) =>
  sql`json_to_recordset(${JSON.stringify(rows)}::json) AS r(${sql.raw(
    Object.entries(columns)
      .map(([n, t]) => `${n} ${t}`)
      .join(', '),
  )})`;

/**
 * Inserts `rows` into `table` in one statement whose rows travel as one JSON parameter
 * (json_to_recordset), typed by `columns` (name → SQL type); `tail` follows it (ON CONFLICT …,
 * RETURNING …) and the rows it returns are answered. A batch's rows as a VALUES list would be
 * one bind parameter per cell (2,000 rows of 20 columns: 40,000), which the server parses and
 * binds for about as long as it takes to insert them. A jsonb column takes the JSON value itself,
 * a text[] column a JSON array. Table, column and tail texts are the caller's constants.
 *
 * @example
 * await insertRecordset(tx, 'read.purposes', { tenant_id: 'uuid', key: 'text' }, rows, 'ON CONFLICT DO NOTHING');
 */
export async function insertRecordset<R = unknown>(
  tx: Tx,
  table: string,
  columns: Record<string, string>,
  rows: readonly object[],
  tail = '',
): Promise<R[]> {
  if (rows.length === 0) return [];
  const names = sql.raw(Object.keys(columns).join(', '));
  const result = await sql<R>`
    INSERT INTO ${sql.raw(table)} (${names})
    SELECT ${names} FROM ${recordsetOf(columns, rows)}
    ${sql.raw(tail)}`.execute(tx);
  return result.rows;
}
