import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHarness, published, recorded, type ProjectionHarness } from '../test/support/projections.js';
import { availableEngines } from '../test/support/stores.js';
import { rebuildReadModels } from './rebuild.js';

describe.each(availableEngines)('projections rebuild ($name)', ({ open }) => {
  let h: ProjectionHarness;
  beforeAll(async () => {
    h = await openHarness(open);
  });
  afterAll(() => h?.dispose());

  it('keeps the planner statistics of the tables it fills as they grow', async () => {
    // Planned with the statistics of empty tables, the projectors' own lookups scan a tenant's
    // every row per batch, and a replay slows down as it goes.
    const tenant = randomUUID();
    const policy = published();
    await h.append(tenant, [policy]);
    for (let chunk = 0; chunk < 3; chunk++) {
      await h.append(
        tenant,
        Array.from({ length: 1000 }, (_, i) =>
          recorded(policy, {
            userReference: `user-${chunk}-${i}`,
            timestamp: new Date(Date.UTC(2024, 0, 1) + chunk * 1000 + i).toISOString(),
          }),
        ),
      );
    }
    const result = await rebuildReadModels({ db: h.db }, h.ledger, undefined, { batchSize: 500 });
    expect(result.events).toBeGreaterThanOrEqual(3001);
    const analyzed = async (table: string) =>
      Number(
        (await sql<{ n: number }>`SELECT reltuples::float8 AS n FROM pg_class WHERE oid = ${table}::regclass`.execute(h.db)).rows[0]!.n,
      );
    // Analyzed on the way (the last time once a fifth more rows than the time before had come).
    expect(await analyzed('read.consents')).toBeGreaterThanOrEqual(2000);
    expect(await analyzed('read.user_policy_status')).toBeGreaterThanOrEqual(2000);
  });
});
