import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { availableEngines, freshDatabase, serverUrl } from '../../test/support/stores.js';
import { MIGRATIONS } from '../migrations.js';
import { openStore } from '../store/store.js';
import { ledgerFinalThrough, subjectConsentEvents } from './subject-events.js';

/**
 * Issue 21: erasure finds a subject's events through the ledger's partial index on the subject,
 * not by reading the JSON of every event of the tenant. With sequential scans priced out, the
 * plan of the predicate both erasure queries use names the index on each engine.
 */
describe.each(availableEngines)('privacy › a subject’s consent events ($name)', ({ open }) => {
  it('are found through the events_consent_subject index', async () => {
    const { store, dispose } = await open();
    try {
      const plan = await store.db.transaction().execute(async (tx) => {
        await sql`SET LOCAL enable_seqscan = off`.execute(tx);
        const r = await sql<{ 'QUERY PLAN': string }>`
          EXPLAIN SELECT event_id FROM ledger.events WHERE ${subjectConsentEvents(randomUUID(), 'a'.repeat(64))}`.execute(tx);
        return r.rows.map((row) => row['QUERY PLAN']).join('\n');
      });
      expect(plan).toContain('events_consent_subject');
    } finally {
      await dispose();
    }
  });
});

describe.runIf(serverUrl)('privacy › waiting until the ledger is final through a position (postgres)', () => {
  it('waits while a transaction that began before the position runs, and returns once it ends', async () => {
    const fresh = await freshDatabase();
    const store = await openStore({ migrations: MIGRATIONS, databaseUrl: fresh.url });
    const other = new pg.Client({ connectionString: fresh.url });
    await other.connect();
    try {
      // A transaction with an id, as an append that began first and has not committed yet.
      await other.query('BEGIN');
      const { rows } = await other.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid');
      const position = { commit: Number(rows[0]!.xid) + 1, prepare: 1 };
      let done = false;
      const waiting = ledgerFinalThrough(store.db, position).then(() => (done = true));
      // The wait is still polling the horizon after several rounds of it.
      for (let i = 0; i < 20; i++) await sql`SELECT ledger.read_horizon()`.execute(store.db);
      expect(done).toBe(false);
      await other.query('COMMIT');
      await waiting;
      expect(done).toBe(true);
    } finally {
      await other.end();
      await store.close();
      await fresh.drop();
    }
  });
});
