import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * The notice a service on a PostgreSQL server prints when the server's autovacuum is off, or null.
 * The service keeps the statistics its reads depend on itself (ReadStatistics), but nothing
 * vacuums: rows updated on every batch leave dead versions, and those tables grow for as long as
 * the service runs (docs/operations.md).
 */
export async function autovacuumNotice(db: Kysely<Database>): Promise<string | null> {
  const { rows } = await sql<{ autovacuum: string; track_counts: string }>`
    SELECT current_setting('autovacuum') AS autovacuum, current_setting('track_counts') AS track_counts`.execute(db);
  const off = [rows[0]?.autovacuum === 'on' ? null : 'autovacuum', rows[0]?.track_counts === 'on' ? null : 'track_counts'].filter(Boolean);
  if (off.length === 0) return null;
  return [
    `consent-ledger: ${off.join(' and ')} ${off.length > 1 ? 'are' : 'is'} off on this PostgreSQL server, so nothing vacuums the service's tables.`,
    '  Rows updated on every batch (follower checkpoints, counters, statuses, delivery states) leave dead versions behind,',
    '  and those tables grow for as long as the service runs. Turn autovacuum on, or VACUUM this database regularly (docs/operations.md).',
  ].join('\n');
}
