import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { availableEngines } from '../test/support/stores.js';
import { ensureReadSchema } from './read-schema.js';
import { ReadStatistics } from './statistics.js';

const silent = { warn: () => undefined, error: () => undefined };

describe.each(availableEngines)('read statistics ($name)', ({ open }) => {
  it('analyzes the read models and the ledger once enough events were applied, and not before', async () => {
    const { store, dispose } = await open();
    try {
      await ensureReadSchema(store.db);
      await sql`INSERT INTO read.consents (id, tenant_id, subject, policy_version_id, policy_type, purpose, policy_version, policy_title, consent_given, status, consent_hash, created_at)
        SELECT gen_random_uuid(), gen_random_uuid(), 's', gen_random_uuid(), 'custom', 'news', '1.0.0', 'T', true, 'active', 'h', now()
        FROM generate_series(1, 3000)`.execute(store.db);
      const rowsAnalyzed = async (table = 'read.consents') =>
        Number(
          (await sql<{ n: number }>`SELECT reltuples::float8 AS n FROM pg_class WHERE oid = ${table}::regclass`.execute(store.db)).rows[0]!
            .n,
        );
      expect(await rowsAnalyzed('ledger.events')).toBe(-1);
      let applied = 500;
      const stats = new ReadStatistics(store.db, () => applied, { log: silent });
      expect(await stats.runOnce()).toBe(false);
      expect(await rowsAnalyzed()).toBeLessThan(1);
      applied = 3000;
      expect(await stats.runOnce()).toBe(true);
      expect(await rowsAnalyzed()).toBe(3000);
      // The ledger with them: its reads of one stream are planned from these statistics too.
      expect(await rowsAnalyzed('ledger.events')).toBe(0);
      // Less than a fifth of the rows changed since: nothing to do.
      applied = 3400;
      expect(await stats.runOnce()).toBe(false);
      applied = 6001;
      expect(await stats.runOnce()).toBe(true);
    } finally {
      await dispose();
    }
  });
});
