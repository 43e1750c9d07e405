import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { availableEngines } from '../../test/support/stores.js';
import { subjectConsentEvents } from './subject-events.js';

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
