import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import type { Store } from './store.js';

/** First key of the advisory lock that `sameDatabase` takes to recognise a database (the second is random). */
const PROBE_CLASS = 741_207;

/**
 * Whether two stores are one PostgreSQL database, however their URLs are written (`localhost` or
 * `127.0.0.1`, another port forwarded to it, extra parameters): `a` holds an advisory lock of a
 * random key in a transaction, and `b` looks for it in pg_locks, in its own database. Embedded
 * stores are told apart by their folders' lock instead: one process cannot open a folder twice.
 */
export async function sameDatabase(a: Store, b: Store): Promise<boolean> {
  if (a.kind !== 'postgres' || b.kind !== 'postgres') return false;
  const key = randomInt(1, 2 ** 31 - 1);
  return a.db.transaction().execute(async (tx) => {
    await sql`SELECT pg_advisory_xact_lock(${PROBE_CLASS}, ${key})`.execute(tx);
    const { rows } = await sql<{ seen: boolean }>`
      SELECT EXISTS (
        SELECT 1 FROM pg_locks
        WHERE locktype = 'advisory' AND classid = ${PROBE_CLASS}::int::oid AND objid = ${key}::int::oid AND objsubid = 2
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
      ) AS seen`.execute(b.db);
    return rows[0]?.seen === true;
  });
}
