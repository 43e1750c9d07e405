import { sql, type Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';

/** The ledger's transaction ids are ahead of the server's: a logical dump restored into another cluster. */
export class LedgerTransactionIdsError extends Error {
  override readonly name = 'LedgerTransactionIdsError';
}

/**
 * The ledger orders events by the id of the transaction that appended them (`transaction_id`,
 * then `global_position`), and its readers take only those below the oldest transaction still
 * running. A committed row always has an id below the server's next one, unless the rows came
 * from another cluster (pg_dump restored into a new server, whose ids start lower): then the
 * followers would wait for those rows until the server's ids caught up, and new events would sort
 * before old ones. Refuses to start on such a database, saying what to do (docs/operations.md).
 */
export async function assertTransactionIdsBehindServer(db: Kysely<Database>): Promise<void> {
  const { rows } = await sql<{ last: string | null; next: string }>`
    SELECT (SELECT transaction_id FROM ledger.events ORDER BY transaction_id DESC LIMIT 1)::text AS last,
           pg_snapshot_xmax(pg_current_snapshot())::text AS next`.execute(db);
  const { last, next } = rows[0]!;
  if (last !== null && BigInt(last) >= BigInt(next)) {
    throw new LedgerTransactionIdsError(
      `the ledger's events carry transaction ids up to ${last}, and this PostgreSQL server is only at ${next}: the database was restored from a logical dump (pg_dump) into another cluster. ` +
        'The ledger orders events by transaction id, so it cannot run here. Restore a physical backup (pg_basebackup, a snapshot), or restore the dump into a cluster advanced past that id (docs/operations.md, Backups).',
    );
  }
}
