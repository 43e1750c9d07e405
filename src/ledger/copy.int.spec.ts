import { randomBytes, randomUUID } from 'node:crypto';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventStoreLedger, eventStoreUrl, reportEventStoreSkip } from '../../test/support/eventstore.js';
import { availableEngines, pgliteStore, type TestStore } from '../../test/support/stores.js';
import type { Database } from '../store/schema.js';
import { copyState, NOT_COPIED, REBUILT_SCHEMAS, STATE_TABLES, StateCopyError, listTables, statePositions } from '../cli/state-copy.js';
import { copyLedger, LedgerCopyError, readPage, toAppends, verifyCopy } from './copy.js';
import { START, type Ledger, type RecordedEvent } from './ledger.port.js';
import { PostgresLedger } from './postgres/postgres.ledger.js';

/**
 * `ledger copy` at the port level (issue 9): between two real stores (PGlite → PGlite, PGlite →
 * PostgreSQL server, server → server), what is copied is equal event by event, transactions stay
 * atomic, an interrupted copy resumes, a destination that is not the source's is refused, and a
 * changed destination fails the verification. The CLI and the service around it:
 * test/e2e/ledger-copy.e2e.spec.ts.
 */

/** The whole ledger, waiting for events still held back by transactions open elsewhere on the server. */
const readAll = async (ledger: Ledger): Promise<RecordedEvent[]> => {
  const out: RecordedEvent[] = [];
  let after = START;
  for (;;) {
    const page = await readPage(ledger, after, 500);
    out.push(...page);
    if (page.length < 500) return out;
    after = page[page.length - 1]!.position;
  }
};

/** Everything a copy keeps: the event without its position. */
const kept = (e: RecordedEvent) => ({ ...e, position: undefined });

/** A ledger with single-stream, multi-stream and page-spanning transactions, at several times. */
async function fill(ledger: Ledger): Promise<{ tenantId: string; streams: string[] }> {
  const tenantId = randomUUID();
  // Stream names as the service makes them, <kind>-<tenant>-<id> (EventStoreDB's adapter requires it).
  const s = (n: number) => `copy-${tenantId}-${n}`;
  const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n, 123));
  await ledger.append(
    [
      {
        tenantId,
        stream: s(0),
        expectedRevision: 'no_stream',
        events: [
          { type: 'PolicyVersionPublished', data: { v: 1, text: 'é ✓' } },
          { type: 'Two', data: {}, metadata: { m: [1, { x: null }] } },
        ],
      },
    ],
    at(1),
  );
  await ledger.append(
    [
      { tenantId, stream: s(1), expectedRevision: 'no_stream', events: [{ type: 'B', data: { n: 1 } }] },
      { tenantId, stream: s(2), expectedRevision: 'no_stream', events: [{ type: 'C', data: { n: 2 } }] },
    ],
    at(2),
  );
  await ledger.append(
    [{ tenantId, stream: s(0), expectedRevision: 1, events: [{ type: 'Three', data: { deep: { a: [1, 2, 3] } } }] }],
    at(3),
  );
  // One transaction of 25 streams: longer than a page of 10, it must stay one append.
  await ledger.append(
    Array.from({ length: 25 }, (_, i) => ({
      tenantId,
      stream: s(10 + i),
      expectedRevision: 'no_stream' as const,
      events: [{ type: 'Batch', data: { i } }],
    })),
    at(4),
  );
  const other = randomUUID();
  await ledger.append(
    [{ tenantId: other, stream: `other-${other}-1`, expectedRevision: 'no_stream', events: [{ type: 'X', data: {} }] }],
    at(5),
  );
  await ledger.append(
    [
      {
        tenantId,
        stream: s(1),
        expectedRevision: 0,
        events: [
          { type: 'B2', data: { n: 3 } },
          { type: 'B3', data: { n: 4 } },
        ],
      },
    ],
    at(6),
  );
  return { tenantId, streams: [s(0), s(1)] };
}

async function tamper(db: Kysely<Database>, eventId: string, data: Record<string, unknown>): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await sql`ALTER TABLE ledger.events DISABLE TRIGGER events_refuse_update_delete`.execute(tx);
    await sql`UPDATE ledger.events SET data = ${JSON.stringify(data)}::json WHERE event_id = ${eventId}::uuid`.execute(tx);
    await sql`ALTER TABLE ledger.events ENABLE TRIGGER events_refuse_update_delete`.execute(tx);
  });
}

const pairs = availableEngines.flatMap((from) =>
  availableEngines.filter((to) => !(from.name === 'postgres' && to.name === 'pglite')).map((to) => ({ from, to })),
);
if (!availableEngines.some((e) => e.name === 'postgres'))
  console.log('[ledger copy] DATABASE_URL is not set: copies are tested PGlite → PGlite only');

for (const { from, to } of pairs) {
  describe(`ledger copy (${from.name} → ${to.name})`, () => {
    let a: TestStore;
    let b: TestStore;
    let source: PostgresLedger;
    let destination: PostgresLedger;
    beforeEach(async () => {
      [a, b] = await Promise.all([from.open(), to.open()]);
      source = new PostgresLedger(a.store.db);
      destination = new PostgresLedger(b.store.db);
      await fill(source);
    });
    afterEach(async () => {
      await a?.dispose();
      await b?.dispose();
    });

    describe('when the destination is empty', () => {
      it('copies every event in order with its id, time and hash, one append per source transaction, and verifies', async () => {
        const progress: number[] = [];
        const result = await copyLedger(source, destination, { batchSize: 10, onProgress: ({ done }) => progress.push(done) });
        const [src, dst] = [await readAll(source), await readAll(destination)];
        expect(result).toMatchObject({ alreadyThere: 0, copied: src.length, appends: 6, complete: true, through: src.at(-1)!.position });
        expect(dst.map(kept)).toEqual(src.map(kept));
        expect(progress.at(-1)).toBe(src.length);
        // The 25-stream transaction landed in one destination transaction, the others apart.
        const commitsOf = (events: RecordedEvent[]) => events.map((e) => e.position.commit).map((c, i, all) => all.indexOf(c));
        expect(commitsOf(dst)).toEqual(commitsOf(src));
        const check = await verifyCopy(source, destination, { batchSize: 7 });
        expect(check).toMatchObject({ ok: true, sourceEvents: src.length, destinationEvents: src.length, streams: 29, problems: [] });
      });
    });

    describe('when a copy was interrupted', () => {
      it('resumes after the events already there, and a copy of a complete destination copies nothing', async () => {
        const total = (await readAll(source)).length;
        const first = await copyLedger(source, destination, { batchSize: 2, limit: 3 });
        expect(first.complete).toBe(false);
        const partial = (await readAll(destination)).length;
        expect(partial).toBeGreaterThanOrEqual(3);
        expect(partial).toBeLessThan(total);
        expect((await verifyCopy(source, destination)).ok).toBe(false);

        const second = await copyLedger(source, destination, { batchSize: 4 });
        expect(second).toMatchObject({ alreadyThere: partial, copied: total - partial, complete: true });
        const third = await copyLedger(source, destination);
        expect(third).toMatchObject({ alreadyThere: total, copied: 0, appends: 0, complete: true });
        expect((await readAll(destination)).map(kept)).toEqual((await readAll(source)).map(kept));
        expect((await verifyCopy(source, destination)).ok).toBe(true);
      });
    });

    describe('when the source is still being written', () => {
      it('verifies what was copied, and the next run copies the rest', async () => {
        const copied = await copyLedger(source, destination);
        const t = randomUUID();
        await source.append(
          [{ tenantId: t, stream: `later-${t}-1`, expectedRevision: 'no_stream', events: [{ type: 'Later', data: {} }] }],
          new Date(),
        );
        expect((await verifyCopy(source, destination, { upTo: copied.through })).ok).toBe(true);
        expect((await verifyCopy(source, destination)).problems.join('\n')).toMatch(/the source holds \d+ events, the destination \d+/);
        expect(await copyLedger(source, destination)).toMatchObject({ alreadyThere: copied.copied, copied: 1 });
        expect((await verifyCopy(source, destination)).ok).toBe(true);
      });
    });

    describe('when the destination holds events that are not from the source', () => {
      it('refuses before writing: a foreign ledger', async () => {
        const foreign = randomUUID();
        await destination.append(
          [{ tenantId: foreign, stream: `foreign-${foreign}-1`, expectedRevision: 'no_stream', events: [{ type: 'X', data: {} }] }],
          new Date(),
        );
        const error = await copyLedger(source, destination).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(LedgerCopyError);
        expect(error).toMatchObject({ code: 'DESTINATION_DIVERGES' });
        expect(await readAll(destination)).toHaveLength(1);
      });

      it('refuses before writing: the copy plus an event written at the destination since', async () => {
        await copyLedger(source, destination);
        const n = (await readAll(destination)).length;
        const foreign = randomUUID();
        await destination.append(
          [{ tenantId: foreign, stream: `foreign-${foreign}-1`, expectedRevision: 'no_stream', events: [{ type: 'X', data: {} }] }],
          new Date(),
        );
        await source.append(
          [{ tenantId: foreign, stream: `late-${foreign}-1`, expectedRevision: 'no_stream', events: [{ type: 'Late', data: {} }] }],
          new Date(),
        );
        await expect(copyLedger(source, destination)).rejects.toMatchObject({ code: 'DESTINATION_DIVERGES' });
        expect(await readAll(destination)).toHaveLength(n + 1);
        const check = await verifyCopy(source, destination);
        expect(check.ok).toBe(false);
      });
    });

    describe('when a copied event is changed at the destination', () => {
      it('the verification names it', async () => {
        await copyLedger(source, destination);
        const victim = (await readAll(destination))[3]!;
        await tamper(b.store.db, victim.id, { forged: true });
        const check = await verifyCopy(source, destination);
        expect(check.ok).toBe(false);
        expect(check.problems.join('\n')).toContain(
          `${victim.stream}@${victim.revision} (${victim.id}): its hash does not match its content at the destination`,
        );
        expect(check.problems.join('\n')).toMatch(/differs from .* \(data\)/);
      });
    });

    describe('when the store holds state beside the ledger', () => {
      it('copies it exactly, translates its ledger positions, and mirrors what the source deleted since', async () => {
        const src = await readAll(source);
        const t = randomUUID();
        const webhook = randomUUID();
        const pdf = randomBytes(3000);
        const sealedUpTo = src[10]!;
        const webhookFrom = src[2]!;
        await a.store.db.transaction().execute(async (tx) => {
          await sql`INSERT INTO control.tenants (id, name, plan) VALUES (${t}, 'Acme "quoted" ✓', 'pro')`.execute(tx);
          await sql`INSERT INTO control.api_keys (api_key, tenant_id, secret_hash, revoked_at) VALUES ('ck_a', ${t}, 'h1', now()), ('ck_b', ${t}, 'h2', NULL)`.execute(
            tx,
          );
          await sql`INSERT INTO privacy.data_keys (key_id, wrapped) VALUES (${randomUUID()}, 'w1'), (${randomUUID()}, 'w2')`.execute(tx);
          await sql`INSERT INTO webhooks.endpoints (id, tenant_id, url, events, secret, is_active, from_commit, from_prepare, created_at, updated_at)
            VALUES (${webhook}, ${t}, 'https://example.com/h', ARRAY['consent.created', '*'], 'whsec_x', true, ${webhookFrom.position.commit}, ${webhookFrom.position.prepare}, now(), now())`.execute(
            tx,
          );
          await sql`INSERT INTO webhooks.checkpoints (name, commit_position, prepare_position) VALUES ('webhooks', ${src.at(-1)!.position.commit}, ${src.at(-1)!.position.prepare})`.execute(
            tx,
          );
          await sql`INSERT INTO receipts.receipts (receipt_id, tenant_id, consent_id, sha256, pdf, issued_at) VALUES (${randomUUID()}, ${t}, ${randomUUID()}, 'abc', ${pdf}, '2026-01-02T03:04:05.678901Z')`.execute(
            tx,
          );
          await sql`INSERT INTO transparency.sealer (name, commit_position, prepare_position) VALUES ('merkle', ${sealedUpTo.position.commit}, ${sealedUpTo.position.prepare})`.execute(
            tx,
          );
          await sql`INSERT INTO transparency.signing_keys (purpose, seed, public_key) VALUES ('checkpoints', 's', 'p')`.execute(tx);
          await sql`INSERT INTO control.config_adopted DEFAULT VALUES`.execute(tx);
          await sql`INSERT INTO webhooks.deliveries_sealed DEFAULT VALUES`.execute(tx);
        });
        // The destination's own first start left state of its own: the copy replaces it.
        await sql`INSERT INTO control.tenants (id, name, plan) VALUES (${randomUUID()}, 'first start', 'starter')`.execute(b.store.db);

        await copyLedger(source, destination);
        const check = await verifyCopy(source, destination, { positions: await statePositions(a.store.db) });
        expect(check.ok).toBe(true);
        const counts = await copyState(a.store.db, b.store.db, check.translate);
        expect(counts).toMatchObject({
          'control.tenants': 1,
          'control.api_keys': 2,
          'privacy.data_keys': 2,
          'receipts.receipts': 1,
          'webhooks.endpoints': 1,
        });

        const dump = async (db: Kysely<Database>, table: string) =>
          (
            await sql<{ j: unknown }>`SELECT row_to_json(t) AS j FROM ${sql.table(table)} AS t ORDER BY row_to_json(t)::text`.execute(db)
          ).rows.map((r) => r.j);
        for (const { table, positions } of STATE_TABLES) {
          if (positions) continue;
          expect(await dump(b.store.db, table), table).toEqual(await dump(a.store.db, table));
        }
        // The source recorded its older rows and sealed its older deliveries: the destination's first start vouches for none of the copied ones.
        expect((await sql`SELECT 1 AS one FROM control.config_adopted`.execute(b.store.db)).rows).toHaveLength(1);
        expect((await sql`SELECT 1 AS one FROM webhooks.deliveries_sealed`.execute(b.store.db)).rows).toHaveLength(1);
        const pdfAt = await sql<{ pdf: Uint8Array }>`SELECT pdf FROM receipts.receipts`.execute(b.store.db);
        expect(Buffer.from(pdfAt.rows[0]!.pdf).equals(pdf)).toBe(true);

        // Positions name the same events at the destination.
        const dst = await readAll(destination);
        const at = (id: string) => dst.find((e) => e.id === id)!.position;
        const row = async (q: RawBuilder<{ c: number; p: number }>) => (await q.execute(b.store.db)).rows[0]!;
        expect(await row(sql`SELECT from_commit AS c, from_prepare AS p FROM webhooks.endpoints`)).toEqual({
          c: at(webhookFrom.id).commit,
          p: at(webhookFrom.id).prepare,
        });
        expect(await row(sql`SELECT commit_position AS c, prepare_position AS p FROM transparency.sealer`)).toEqual({
          c: at(sealedUpTo.id).commit,
          p: at(sealedUpTo.id).prepare,
        });
        const last = dst.at(-1)!.position;
        expect(await row(sql`SELECT commit_position AS c, prepare_position AS p FROM webhooks.checkpoints`)).toEqual({
          c: last.commit,
          p: last.prepare,
        });

        // An erasure at the source since (its data key destroyed): the next copy destroys it too.
        await sql`DELETE FROM privacy.data_keys WHERE wrapped = 'w1'`.execute(a.store.db);
        const again = await verifyCopy(source, destination, { positions: await statePositions(a.store.db) });
        await copyState(a.store.db, b.store.db, again.translate);
        expect(await dump(b.store.db, 'privacy.data_keys')).toEqual(await dump(a.store.db, 'privacy.data_keys'));
        expect(await dump(b.store.db, 'privacy.data_keys')).toHaveLength(1);
      });

      it('refuses a source table it does not know, rather than leave it behind', async () => {
        await sql`CREATE TABLE control.newcomer (id int PRIMARY KEY)`.execute(a.store.db);
        const check = await verifyCopy(source, destination);
        await expect(copyState(a.store.db, b.store.db, check.translate)).rejects.toBeInstanceOf(StateCopyError);
      });
    });
  });
}

describe('ledger copy › the state tables', () => {
  it('name every table of a migrated store: copied, rebuilt, or left for a stated reason', async () => {
    const t = await availableEngines[0]!.open();
    try {
      const tables = await listTables(t.store.db);
      const known = new Set([...STATE_TABLES.map((s) => s.table), ...Object.keys(NOT_COPIED)]);
      expect(tables.filter((x) => !known.has(x) && !REBUILT_SCHEMAS.includes(x.split('.')[0]!))).toEqual([]);
      for (const s of STATE_TABLES) expect(tables, s.table).toContain(s.table);
    } finally {
      await t.dispose();
    }
  });
});

describe('ledger copy › a transaction that interleaves streams', () => {
  it('becomes appends that keep the order, each stream once per append', () => {
    const e = (stream: string, revision: number, recordedAt = '2026-01-01T00:00:00.000Z'): RecordedEvent => ({
      id: randomUUID(),
      tenantId: 't',
      stream,
      revision,
      type: 'T',
      data: {},
      metadata: {},
      recordedAt,
      prevHash: null,
      hash: 'h',
      position: { commit: 1, prepare: 0 },
    });
    const group = [e('a', 0), e('a', 1), e('b', 4), e('a', 2), e('c', 0, '2026-01-01T00:00:01.000Z')];
    const appends = toAppends(group);
    expect(appends.map((x) => x.requests.map((r) => [r.stream, r.expectedRevision, r.events.length]))).toEqual([
      [
        ['a', 'no_stream', 2],
        ['b', 3, 1],
      ],
      [['a', 1, 1]],
      [['c', 'no_stream', 1]],
    ]);
    expect(appends.flatMap((x) => x.events)).toEqual(group);
  });
});

reportEventStoreSkip('ledger copy');

// Moving up to EventStoreDB and back, where one runs (EVENTSTORE_URL, or Docker for the global setup).
describe.skipIf(!eventStoreUrl)('ledger copy (PGlite → EventStoreDB → PGlite)', () => {
  it('copies into EventStoreDB in steps and back out, every event and hash equal', { timeout: 60_000 }, async () => {
    const a = await pgliteStore();
    const c = await pgliteStore();
    const esdb = await eventStoreLedger();
    try {
      const source = new PostgresLedger(a.store.db);
      const back = new PostgresLedger(c.store.db);
      await fill(source);
      const first = await copyLedger(source, esdb.ledger, { batchSize: 4, limit: 5 });
      expect(first.complete).toBe(false);
      const rest = await copyLedger(source, esdb.ledger, { batchSize: 4 });
      expect(rest).toMatchObject({ alreadyThere: first.copied, complete: true });
      expect((await readAll(esdb.ledger)).map(kept)).toEqual((await readAll(source)).map(kept));
      expect((await verifyCopy(source, esdb.ledger)).ok).toBe(true);
      expect(await copyLedger(source, esdb.ledger)).toMatchObject({ copied: 0, complete: true });

      await copyLedger(esdb.ledger, back);
      expect((await readAll(back)).map(kept)).toEqual((await readAll(source)).map(kept));
      expect((await verifyCopy(esdb.ledger, back)).ok).toBe(true);
    } finally {
      await esdb.dispose();
      await a.dispose();
      await c.dispose();
    }
  });
});
