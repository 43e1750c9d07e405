import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { readDb } from '../read-schema.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventHash } from '../../src/ledger/event-hash.js';
import { subjectRecords } from '../../src/privacy/subject-events.js';
import { TransparencyStore } from '../../src/transparency/transparency.store.js';
import { harnessEngines, openHarness, published, recorded, withdrawn, type ProjectionHarness } from '../../test/support/projections.js';
import { reportEventStoreSkip } from '../../test/support/eventstore.js';
import { eventIndexProjector } from './event-index.projector.js';

reportEventStoreSkip('projections');

describe.each(harnessEngines)('event_index projection ($name)', ({ open, ledger }) => {
  let h: ProjectionHarness;
  beforeAll(async () => {
    h = await openHarness(open, ledger);
  });
  afterAll(() => h?.dispose());

  /** A tenant with a policy, two consents of one user (one withdrawn with a reason) and one of another, indexed. */
  const given = async () => {
    const tenant = randomUUID();
    const p = published();
    const a = recorded(p, { userReference: 'alice' });
    const b = recorded(p, { userReference: 'alice' });
    const c = recorded(p, { userReference: 'bob' });
    await h.append(tenant, [p]);
    await h.append(tenant, [a, c]);
    await h.append(tenant, [b]);
    await h.append(tenant, [withdrawn(a.data.consentId, '2024-05-01T00:00:00.000Z', 'moved away')]);
    await h.runner({ projectors: [eventIndexProjector] }).catchUp();
    return { tenant, a, b, c };
  };

  it("answers a subject's consents in ledger order and every data key their events name, as the ledger itself does", async () => {
    const { tenant, a, b } = await given();
    const alice = h.subject(tenant, 'alice');
    const fromIndex = await subjectRecords(h.db, tenant, alice, 'index');
    expect(fromIndex.consentIds).toEqual([a.data.consentId, b.data.consentId]);
    // Two records (a key each); the withdrawal's reason is sealed under its record's key.
    expect(fromIndex.kids).toHaveLength(2);
    if (!ledger) expect(fromIndex).toEqual(await subjectRecords(h.db, tenant, alice, 'ledger'));
    expect((await subjectRecords(h.db, tenant, h.subject(tenant, 'nobody'), 'index')).consentIds).toEqual([]);
  });

  it('indexes each event once, whatever the runner replays', async () => {
    const { tenant } = await given();
    // A second runner from scratch replays every event into the same table.
    await readDb(h.db).deleteFrom('read.checkpoints').where('name', '=', 'event_index').execute();
    await h.runner({ projectors: [eventIndexProjector] }).catchUp();
    const rows = await sql<{ event_id: string }>`SELECT event_id FROM read.event_index WHERE tenant_id = ${tenant}::uuid`.execute(h.db);
    const mine = (await h.ledger.readAll({ commit: 0, prepare: 0 }, 100_000)).filter((e) => e.tenantId === tenant);
    expect(mine).toHaveLength(5);
    expect(rows.rows.map((r) => r.event_id).sort()).toEqual(mine.map((e) => e.id).sort());
  });

  it('lets the transparency log read sealed events from the ledger through the index, hashes intact', async () => {
    const { tenant } = await given();
    const events = (await h.ledger.readAll({ commit: 0, prepare: 0 }, 100_000)).filter((e) => e.tenantId === tenant);
    const logs = new TransparencyStore(h.db, { ledger: h.ledger, fence: async () => undefined });
    await h.db.transaction().execute((tx) =>
      logs.insertLeaves(
        tx,
        tenant,
        0,
        events.map((e) => ({ id: e.id, stream: e.stream })),
      ),
    );
    const entries = await logs.entries(tenant, -1, 100);
    expect(entries.map((e) => e.event.id)).toEqual(events.map((e) => e.id));
    for (const e of entries) expect(eventHash(e.event)).toBe(e.eventHash);
    // With the ledger in the store, the table itself answers the same.
    if (!ledger) expect(await new TransparencyStore(h.db).entries(tenant, -1, 100)).toEqual(entries);
    expect(await logs.entries(tenant, 1, 2)).toEqual(entries.slice(2, 4));

    // Checkpoints of 2 and 5 leaves: a read at the position of the second event holds the first.
    for (const size of [2, 5]) {
      await sql`INSERT INTO transparency.checkpoints (tenant_id, tree_size, root_hash, note, signed_at)
        VALUES (${tenant}::uuid, ${size}, ${'0'.repeat(64)}, ${`note ${size}\n`}, now())`.execute(h.db);
    }
    const stores = ledger ? [logs] : [logs, new TransparencyStore(h.db)];
    for (const store of stores) {
      expect((await store.latestCheckpointWithin(tenant, events[4]!.position))?.treeSize).toBe(5);
      expect((await store.latestCheckpointWithin(tenant, events[3]!.position))?.treeSize).toBe(2);
      expect((await store.latestCheckpointWithin(tenant, events[1]!.position))?.treeSize).toBe(2);
      expect(await store.latestCheckpointWithin(tenant, events[0]!.position)).toBeNull();
    }
  });
});
