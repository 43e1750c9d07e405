import { randomUUID } from 'node:crypto';
import {
  sql,
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, availableEngines, postgresStore, serverUrl, type TestStore } from '../../../test/support/stores.js';
import { MIGRATIONS } from '../../migrations.js';
import { openStore, type Store } from '../../store/store.js';
import type { Database } from '../../store/schema.js';
import { checkChain, eventHash } from '../event-hash.js';
import { ledgerContract, readAllThrough } from '../ledger.contract.js';
import {
  AppendKeyRetiredError,
  comparePositions,
  START,
  WrongExpectedRevisionError,
  type AppendRequest,
  type AuthenticateAppend,
  type LedgerPosition,
  type RecordedEvent,
} from '../ledger.port.js';
import { PostgresLedger, STREAM_LOCK_CLASS, type PostgresLedgerOptions } from './postgres.ledger.js';

/** Rewrites one event's data with the append-only triggers off, inside one transaction (as a table owner could). */
async function tamper(db: Kysely<Database>, eventId: string, data: Record<string, unknown>): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await sql`ALTER TABLE ledger.events DISABLE TRIGGER events_refuse_update_delete`.execute(tx);
    await sql`UPDATE ledger.events SET data = ${JSON.stringify(data)}::json WHERE event_id = ${eventId}::uuid`.execute(tx);
    await sql`ALTER TABLE ledger.events ENABLE TRIGGER events_refuse_update_delete`.execute(tx);
  });
}

/**
 * Each engine as the service uses it, and the server once more with every group of new streams
 * copied in (COPY, which the service keeps for groups of 200 events and more).
 */
const variants: { name: string; open: () => Promise<TestStore>; copied?: true }[] = [
  ...availableEngines,
  ...(serverUrl ? [{ name: 'postgres, copied in', open: postgresStore, copied: true as const }] : []),
];
const optionsOf = (variant: (typeof variants)[number], store: Store): PostgresLedgerOptions => ({
  bulk: store.bulk,
  ...(variant.copied ? { copyFromEvents: 1 } : {}),
});

for (const engine of variants) {
  ledgerContract(`PostgresLedger on ${engine.name}`, async (options) => {
    const t = await engine.open();
    return {
      ledger: new PostgresLedger(t.store.db, { ...optionsOf(engine, t.store), ...options }),
      dispose: () => t.dispose(),
      tamper: (eventId, data) => tamper(t.store.db, eventId, data),
    };
  });
}

const rowsOf = async (db: Kysely<Database>) =>
  (
    await sql<{
      event_id: string;
      event_type: string;
      data: unknown;
    }>`SELECT event_id, event_type, data FROM ledger.events ORDER BY global_position`.execute(db)
  ).rows;

for (const engine of availableEngines) {
  describe(`postgres ledger (${engine.name}) › when someone changes ledger.events directly › the database refuses`, () => {
    let t: TestStore;
    let ledger: PostgresLedger;
    const tenantId = randomUUID();
    const stream = `append-only-${randomUUID()}`;

    beforeAll(async () => {
      t = await engine.open();
      ledger = new PostgresLedger(t.store.db);
      await ledger.append(
        [
          {
            tenantId,
            stream,
            expectedRevision: 'no_stream',
            events: [
              { type: 'A', data: { v: 1 } },
              { type: 'B', data: { v: 2 } },
            ],
          },
        ],
        new Date(),
      );
    });
    afterAll(() => t?.dispose());

    it.each([
      ['UPDATE', sql`UPDATE ledger.events SET data = '{"v":0}'::json, event_type = 'Forged'`],
      ['UPDATE', sql`UPDATE ledger.events SET prev_hash = NULL WHERE stream_id = ${stream} AND stream_revision = 1`],
      ['DELETE', sql`DELETE FROM ledger.events WHERE stream_id = ${stream}`],
      ['TRUNCATE', sql`TRUNCATE ledger.events`],
    ])('refuses %s and leaves every row as it was', async (op, statement) => {
      const before = await rowsOf(t.store.db);
      expect(before).toHaveLength(2);
      const error = (await statement.execute(t.store.db).then(
        () => undefined,
        (e: unknown) => e,
      )) as { code?: string; message?: string } | undefined;
      expect(error, `${op} went through`).toBeDefined();
      expect(error!.code).toBe('42501');
      expect(error!.message).toBe(`ledger.events is append-only: ${op} refused`);
      expect(await rowsOf(t.store.db)).toEqual(before);
      expect(checkChain(await ledger.readStream(stream))).toEqual([]);
    });
  });
}

/** Counts the statements Kysely runs (BEGIN and COMMIT are not among them). */
class Statements implements KyselyPlugin {
  count = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.count += 1;
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

const settle = <T>(p: Promise<T>) =>
  p.then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );

for (const engine of variants) {
  describe(`postgres ledger (${engine.name}) › group commit › appends that arrive while one commits share the next transaction`, () => {
    let t: TestStore;
    let ledger: PostgresLedger;
    const at = new Date('2026-03-01T12:00:00.000Z');
    const ev = (n = 1) => Array.from({ length: n }, (_, i) => ({ type: 'E', data: { i } }));
    const mk = (tenantId: string) => `group-${tenantId}-${randomUUID()}`;

    beforeAll(async () => {
      t = await engine.open();
      ledger = new PostgresLedger(t.store.db, optionsOf(engine, t.store));
    });
    afterAll(() => t?.dispose());

    it('lands every member whose expectations hold in one transaction and refuses only the others, a refused multi-stream member writing none of its streams', async () => {
      const tenantId = randomUUID();
      const [head, s1, s2, s3, x, y] = [mk(tenantId), mk(tenantId), mk(tenantId), mk(tenantId), mk(tenantId), mk(tenantId)];
      await ledger.append([{ tenantId, stream: s2, expectedRevision: 'no_stream', events: ev() }], at);
      // The first append starts a transaction (or queues behind the last one); the others queue and go together.
      const first = settle(ledger.append([{ tenantId, stream: head, expectedRevision: 'no_stream', events: ev() }], at));
      const [b1, b2, b3, d1, d2] = await Promise.all([
        settle(ledger.append([{ tenantId, stream: s1, expectedRevision: 'no_stream', events: ev(2) }], at)),
        settle(ledger.append([{ tenantId, stream: s2, expectedRevision: 5, events: ev() }], at)),
        settle(ledger.append([{ tenantId, stream: s3, expectedRevision: 'no_stream', events: ev() }], at)),
        settle(
          ledger.append(
            [
              { tenantId, stream: x, expectedRevision: 'no_stream', events: ev() },
              { tenantId, stream: y, expectedRevision: 2, events: ev() },
            ],
            at,
          ),
        ),
        settle(ledger.append([{ tenantId, stream: x, expectedRevision: 'no_stream', events: ev(3) }], at)),
      ]);
      expect((await first).error).toBeUndefined();
      expect(b2!.error).toBeInstanceOf(WrongExpectedRevisionError);
      expect((b2!.error as WrongExpectedRevisionError).actual).toBe(0);
      expect((d1!.error as WrongExpectedRevisionError).stream).toBe(y);
      const landed = [b1, b3, d2].map((o) => o!.value!);
      expect(landed.every((r) => r !== undefined)).toBe(true);
      const commits = new Set(landed.flatMap((r) => r.events.map((e) => e.position.commit)));
      expect(commits.size, 'the queued appends share one transaction').toBe(1);
      for (const r of landed) expect(r.position).toEqual(r.events[r.events.length - 1]!.position);
      expect((await ledger.readStream(s1)).map((e) => e.id)).toEqual(b1!.value!.events.map((e) => e.id));
      expect((await ledger.readStream(x)).map((e) => e.id)).toEqual(d2!.value!.events.map((e) => e.id));
      expect(await ledger.readStream(y)).toEqual([]);
      expect((await ledger.readStream(s2)).map((e) => e.revision)).toEqual([0]);
    });

    it('chains members of one group that append to the same stream, in the order they arrived', async () => {
      const tenantId = randomUUID();
      const [head, s] = [mk(tenantId), mk(tenantId)];
      const first = ledger.append([{ tenantId, stream: head, expectedRevision: 'no_stream', events: ev() }], at);
      const [c1, c2, c3, c4] = await Promise.all([
        settle(ledger.append([{ tenantId, stream: s, expectedRevision: 'no_stream', events: ev(2) }], at)),
        settle(ledger.append([{ tenantId, stream: s, expectedRevision: 1, events: ev() }], at)),
        settle(ledger.append([{ tenantId, stream: s, expectedRevision: 'no_stream', events: ev() }], at)),
        // A condition sees what the members before it wrote.
        settle(
          ledger.append(
            [
              { tenantId, stream: mk(tenantId), expectedRevision: 'no_stream', events: ev() },
              { tenantId, stream: s, expectedRevision: 1, events: [] },
            ],
            at,
          ),
        ),
      ]);
      await first;
      expect(c1!.error).toBeUndefined();
      expect(c2!.error).toBeUndefined();
      expect(c1!.value!.position.commit).toBe(c2!.value!.position.commit);
      expect((c3!.error as WrongExpectedRevisionError).actual).toBe(2);
      expect((c4!.error as WrongExpectedRevisionError).stream).toBe(s);
      const stored = await ledger.readStream(s);
      expect(stored.map((e) => e.revision)).toEqual([0, 1, 2]);
      expect(stored[2]!.prevHash).toBe(stored[1]!.hash);
      expect(checkChain(stored)).toEqual([]);
    });

    it('stores text as sent, backslashes, tabs, newlines and characters outside ASCII included, and answers what a read answers', async () => {
      const tenantId = randomUUID();
      const odd = 'a\\b\tc\nd\re \\N \\. "q" é 漢 😀';
      const streams = [`${mk(tenantId)}\\\t\n`, mk(tenantId)];
      const results = await Promise.all(
        streams.map((stream) =>
          ledger.append(
            [
              {
                tenantId,
                stream,
                expectedRevision: 'no_stream',
                events: [{ type: `T\t${odd}`, data: { odd, [odd]: [odd] }, metadata: { odd } }],
              },
            ],
            at,
          ),
        ),
      );
      for (const [i, stream] of streams.entries()) {
        const stored = await ledger.readStream(stream);
        expect(stored).toEqual(results[i]!.events);
        expect(stored[0]!.data).toEqual({ odd, [odd]: [odd] });
        expect(stored[0]!.type).toBe(`T\t${odd}`);
        expect(checkChain(stored)).toEqual([]);
      }
    });

    it('answers each member alone when the group fails for one member (a value the database refuses)', async () => {
      const tenantId = randomUUID();
      const [head, a, bad, b] = [mk(tenantId), mk(tenantId), mk(tenantId), mk(tenantId)];
      const first = ledger.append([{ tenantId, stream: head, expectedRevision: 'no_stream', events: ev() }], at);
      const [ra, rbad, rb] = await Promise.all([
        settle(ledger.append([{ tenantId, stream: a, expectedRevision: 'no_stream', events: ev() }], at)),
        settle(
          ledger.append(
            [{ tenantId, stream: bad, expectedRevision: 'no_stream', events: [{ id: 'not-a-uuid', type: 'E', data: {} }] }],
            at,
          ),
        ),
        settle(ledger.append([{ tenantId, stream: b, expectedRevision: 'no_stream', events: ev() }], at)),
      ]);
      await first;
      expect(ra!.error).toBeUndefined();
      expect(rb!.error).toBeUndefined();
      expect((rbad!.error as { code?: string }).code).toBe('22P02');
      expect(await ledger.readStream(bad)).toEqual([]);
      expect((await ledger.readStream(a)).map((e) => e.id)).toEqual(ra!.value!.events.map((e) => e.id));
      expect((await ledger.readStream(b)).map((e) => e.id)).toEqual(rb!.value!.events.map((e) => e.id));
    });

    it('creates streams with one statement and no read when every member only creates them, checking their conditions in it', async () => {
      const statements = new Statements();
      const counted = new PostgresLedger(t.store.db.withPlugin(statements), optionsOf(engine, t.store));
      const tenantId = randomUUID();
      const policy = mk(tenantId);
      await counted.append([{ tenantId, stream: policy, expectedRevision: 'no_stream', events: ev(2) }], at);
      statements.count = 0;
      const results = await Promise.all(
        [1, 2, 3].map(() =>
          counted.append(
            [
              { tenantId, stream: mk(tenantId), expectedRevision: 'no_stream', events: ev(2) },
              { tenantId, stream: policy, expectedRevision: 1, events: [] },
            ],
            at,
          ),
        ),
      );
      const groups = new Set(results.map((r) => r.position.commit)).size;
      // Copied in, a group's statements go through a connection of their own, none through Kysely.
      expect(statements.count, 'one INSERT per group, no head read').toBe(engine.copied ? 0 : groups);
      for (const r of results) {
        expect(r.events.map((e) => e.revision)).toEqual([0, 1]);
        expect(checkChain(await counted.readStream(r.events[0]!.stream))).toEqual([]);
        expect((await counted.readStream(r.events[0]!.stream)).map((e) => e.id)).toEqual(r.events.map((e) => e.id));
      }
    });

    it('answers each member of a group of creations as it should when one stream exists or one condition fails', async () => {
      const tenantId = randomUUID();
      const [head, taken, policy, a, b, c] = [mk(tenantId), mk(tenantId), mk(tenantId), mk(tenantId), mk(tenantId), mk(tenantId)];
      await ledger.append([{ tenantId, stream: taken, expectedRevision: 'no_stream', events: ev() }], at);
      await ledger.append([{ tenantId, stream: policy, expectedRevision: 'no_stream', events: ev(3) }], at);
      const first = ledger.append([{ tenantId, stream: head, expectedRevision: 'no_stream', events: ev() }], at);
      const [ra, rTaken, rb, rStale, rc] = await Promise.all([
        settle(ledger.append([{ tenantId, stream: a, expectedRevision: 'no_stream', events: ev() }], at)),
        settle(ledger.append([{ tenantId, stream: taken, expectedRevision: 'no_stream', events: ev() }], at)),
        settle(ledger.append([{ tenantId, stream: b, expectedRevision: 'no_stream', events: ev() }], at)),
        settle(
          ledger.append(
            [
              { tenantId, stream: mk(tenantId), expectedRevision: 'no_stream', events: ev() },
              { tenantId, stream: policy, expectedRevision: 1, events: [] },
            ],
            at,
          ),
        ),
        settle(
          ledger.append(
            [
              { tenantId, stream: c, expectedRevision: 'no_stream', events: ev() },
              { tenantId, stream: policy, expectedRevision: 2, events: [] },
            ],
            at,
          ),
        ),
      ]);
      await first;
      expect((rTaken!.error as WrongExpectedRevisionError).actual).toBe(0);
      expect((rStale!.error as WrongExpectedRevisionError).stream).toBe(policy);
      expect((rStale!.error as WrongExpectedRevisionError).actual).toBe(2);
      for (const [stream, r] of [
        [a, ra],
        [b, rb],
        [c, rc],
      ] as const) {
        expect(r!.error).toBeUndefined();
        expect((await ledger.readStream(stream)).map((e) => e.id)).toEqual(r!.value!.events.map((e) => e.id));
      }
      expect((await ledger.readStream(taken)).map((e) => e.revision)).toEqual([0]);
      expect((await ledger.readStream(policy)).map((e) => e.revision)).toEqual([0, 1, 2]);
    });

    it('takes at most maxGroupEvents events into one transaction, and a larger append alone', async () => {
      const small = new PostgresLedger(t.store.db, { ...optionsOf(engine, t.store), maxGroupEvents: 3 });
      const tenantId = randomUUID();
      const results = await Promise.all(
        [1, 1, 1, 1, 1, 1, 1, 5].map((n) =>
          small.append([{ tenantId, stream: mk(tenantId), expectedRevision: 'no_stream', events: ev(n) }], at),
        ),
      );
      const byCommit = new Map<number, number>();
      for (const r of results) byCommit.set(r.position.commit, (byCommit.get(r.position.commit) ?? 0) + r.events.length);
      expect(Math.max(...[...byCommit.values()].filter((n) => n !== 5))).toBeLessThanOrEqual(3);
      expect([...byCommit.values()].filter((n) => n > 1).length, 'some appends were grouped').toBeGreaterThan(0);
    });
  });
}

describe.skipIf(!serverUrl)("postgres ledger (postgres) › group commit › when a writer elsewhere creates a member's stream", () => {
  let store: Store;
  let ledger: PostgresLedger;
  let drop: () => Promise<void>;
  let url: string;

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    url = fresh.url;
    store = await openStore({ migrations: MIGRATIONS, databaseUrl: fresh.url });
    ledger = new PostgresLedger(store.db);
  });
  afterAll(async () => {
    await store?.close();
    await drop?.();
  });

  it('refuses that member with WrongExpectedRevisionError and lands the others', async () => {
    const tenantId = randomUUID();
    const [head, contested, other] = [`g-${randomUUID()}`, `g-${randomUUID()}`, `g-${randomUUID()}`];
    const raw = new pg.Client({ connectionString: url });
    await raw.connect();
    try {
      await raw.query('BEGIN');
      const envelope = {
        id: randomUUID(),
        tenantId,
        stream: contested,
        revision: 0,
        type: 'Raw',
        data: {},
        metadata: {},
        recordedAt: new Date().toISOString(),
        prevHash: null,
      };
      await raw.query(
        `INSERT INTO ledger.events (event_id, tenant_id, stream_id, stream_revision, event_type, data, metadata, recorded_at, prev_hash, event_hash)
         VALUES ($1, $2, $3, 0, 'Raw', '{}'::json, '{}'::json, $4, NULL, $5)`,
        [envelope.id, tenantId, contested, envelope.recordedAt, eventHash(envelope)],
      );
      const first = ledger.append(
        [{ tenantId, stream: head, expectedRevision: 'no_stream', events: [{ type: 'E', data: {} }] }],
        new Date(),
      );
      const outcomes = Promise.all([
        settle(ledger.append([{ tenantId, stream: other, expectedRevision: 'no_stream', events: [{ type: 'E', data: {} }] }], new Date())),
        settle(
          ledger.append([{ tenantId, stream: contested, expectedRevision: 'no_stream', events: [{ type: 'E', data: {} }] }], new Date()),
        ),
      ]);
      await first;
      // The group's INSERT waits on the raw transaction's row; let it commit then.
      const waiting = async () =>
        Number(
          (
            await raw.query(
              `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
            )
          ).rows[0].n,
        );
      const deadline = Date.now() + 10_000;
      while ((await waiting()) === 0) if (Date.now() > deadline) throw new Error('the group never waited on the raw insert');
      await raw.query('COMMIT');
      const [rOther, rContested] = await outcomes;
      expect(rOther!.error).toBeUndefined();
      expect(rContested!.error).toBeInstanceOf(WrongExpectedRevisionError);
      expect((rContested!.error as WrongExpectedRevisionError).stream).toBe(contested);
      expect((await ledger.readStream(contested)).map((e) => e.id)).toEqual([envelope.id]);
      expect((await ledger.readStream(other)).map((e) => e.id)).toEqual(rOther!.value!.events.map((e) => e.id));
    } finally {
      await raw.query('ROLLBACK').catch(() => undefined);
      await raw.end();
    }
  });
});

describe.skipIf(!serverUrl)("postgres ledger (postgres) › appends that expect each other's new streams absent, from two processes", () => {
  let stores: Store[];
  let drop: () => Promise<void>;
  let url: string;

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    url = fresh.url;
    stores = [await openStore({ migrations: MIGRATIONS, databaseUrl: url }), await openStore({ migrations: MIGRATIONS, databaseUrl: url })];
  });
  afterAll(async () => {
    for (const s of stores ?? []) await s.close();
    await drop?.();
  });

  it("take turns on the stream both expect absent: the second reads the first one's stream and is refused", async () => {
    // As an Idempotency-Key sent at once to record and batch: each creates its own stream and
    // expects the other's, and the withdrawal key's, not to exist.
    const tenantId = randomUUID();
    const [record, batch, third] = [`r-${randomUUID()}`, `b-${randomUUID()}`, `w-${randomUUID()}`];
    const write = (own: string, other: string) => [
      { tenantId, stream: own, expectedRevision: 'no_stream' as const, events: [{ type: 'E', data: {} }] },
      { tenantId, stream: other, expectedRevision: 'no_stream' as const, events: [] },
      { tenantId, stream: third, expectedRevision: 'no_stream' as const, events: [] },
    ];
    const [a, b] = stores.map((s) => new PostgresLedger(s.db));
    const raw = new pg.Client({ connectionString: url });
    await raw.connect();
    try {
      // Hold the third stream's lock, so that both appends are under way before either lands.
      await raw.query('BEGIN');
      await raw.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [STREAM_LOCK_CLASS, third]);
      const outcomes = Promise.all([
        settle(a!.append(write(record, batch), new Date())),
        settle(b!.append(write(batch, record), new Date())),
      ]);
      let settled = 0;
      void outcomes.then(() => (settled = 2));
      const waiting = async () =>
        Number(
          (
            await raw.query(`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = $1`, [
              STREAM_LOCK_CLASS,
            ])
          ).rows[0].n,
        );
      // Both under way at once, waiting on the lock: then neither has seen the other's stream yet.
      const deadline = Date.now() + 10_000;
      while ((await waiting()) < 2) {
        if (settled === 2) throw new Error('the appends landed without waiting for each other');
        if (Date.now() > deadline) throw new Error('the appends never waited');
      }
      await raw.query('COMMIT');
      const results = await outcomes;
      expect(results.filter((r) => r.error === undefined)).toHaveLength(1);
      const refused = results.find((r) => r.error !== undefined)!.error;
      expect(refused).toBeInstanceOf(WrongExpectedRevisionError);
      expect([record, batch]).toContain((refused as WrongExpectedRevisionError).stream);
      const landed = [(await a!.readStream(record)).length, (await a!.readStream(batch)).length];
      expect(landed.sort()).toEqual([0, 1]);
    } finally {
      await raw.query('ROLLBACK').catch(() => undefined);
      await raw.end();
    }
  });
});

if (!serverUrl) {
  console.log(
    '[ledger] PGlite is a single connection: transactions cannot interleave there, so the concurrent-writer and ' +
      'out-of-order-commit tests run only against a PostgreSQL server (set DATABASE_URL).',
  );
}

describe.skipIf(!serverUrl)('postgres ledger (postgres) › when transactions commit out of sequence order › readers never skip', () => {
  let store: Store;
  let ledger: PostgresLedger;
  let drop: () => Promise<void>;
  let url: string;
  const WRITERS = 16;

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    url = fresh.url;
    store = await openStore({ migrations: MIGRATIONS, databaseUrl: fresh.url, maxConnections: WRITERS + 4 });
    ledger = new PostgresLedger(store.db);
  });
  afterAll(async () => {
    await store?.close();
    await drop?.();
  });

  /** Inserts a correctly hashed first event of `stream` on a raw connection (inside whatever transaction it has open). */
  const rawInsert = async (client: pg.Client, tenantId: string, stream: string): Promise<{ id: string; seq: number }> => {
    const envelope = {
      id: randomUUID(),
      tenantId,
      stream,
      revision: 0,
      type: 'Raw',
      data: { stream },
      metadata: {},
      recordedAt: new Date().toISOString(),
      prevHash: null,
    };
    const result = await client.query<{ global_position: string }>(
      `INSERT INTO ledger.events (event_id, tenant_id, stream_id, stream_revision, event_type, data, metadata, recorded_at, prev_hash, event_hash)
       VALUES ($1, $2, $3, 0, $4, $5::json, $6::json, $7, NULL, $8) RETURNING global_position`,
      [envelope.id, tenantId, stream, envelope.type, JSON.stringify(envelope.data), '{}', envelope.recordedAt, eventHash(envelope)],
    );
    return { id: envelope.id, seq: Number(result.rows[0]!.global_position) };
  };

  it('a naive reader (global_position > last) skips a row whose transaction commits late; readAll waits and answers both in (xid, seq) order', async () => {
    const tenantId = randomUUID();
    const [streamA, streamB] = [`late-${randomUUID()}`, `early-${randomUUID()}`];
    const a = new pg.Client({ connectionString: url });
    const b = new pg.Client({ connectionString: url });
    await a.connect();
    await b.connect();
    try {
      const base = (await ledger.headPosition()) ?? START;
      const naive = {
        last: (await sql<{ m: number | null }>`SELECT max(global_position) AS m FROM ledger.events`.execute(store.db)).rows[0]!.m ?? 0,
        seen: [] as string[],
      };
      const naiveRead = async () => {
        const rows = await sql<{ event_id: string; global_position: number }>`
          SELECT event_id, global_position FROM ledger.events WHERE global_position > ${naive.last} ORDER BY global_position`.execute(
          store.db,
        );
        for (const r of rows.rows) {
          naive.seen.push(r.event_id);
          naive.last = r.global_position;
        }
      };

      await a.query('BEGIN');
      const rowA = await rawInsert(a, tenantId, streamA);
      await b.query('BEGIN');
      const rowB = await rawInsert(b, tenantId, streamB);
      await b.query('COMMIT');
      expect(rowA.seq).toBeLessThan(rowB.seq);

      // A is still open: the naive reader sees B and moves past A's sequence number.
      await naiveRead();
      expect(naive.seen).toEqual([rowB.id]);
      // readAll answers nothing past A's position while A is open, B included.
      expect(await ledger.readAll(base, 100)).toEqual([]);

      await a.query('COMMIT');
      await naiveRead();
      expect(naive.seen, 'the naive reader never sees the row that committed late').toEqual([rowB.id]);

      const read = await readAllThrough(ledger, base, (await ledger.headPosition())!);
      expect(read.map((e) => e.id)).toEqual([rowA.id, rowB.id]);
      expect(read[0]!.position.commit).toBeLessThan(read[1]!.position.commit);
      expect(read.map((e) => e.position.prepare)).toEqual([rowA.seq, rowB.seq]);
      for (const s of [streamA, streamB]) expect(checkChain(await ledger.readStream(s))).toEqual([]);
    } finally {
      await a.query('ROLLBACK').catch(() => undefined);
      await a.end();
      await b.end();
    }
  });

  it('a transaction open in another database of the server holds nothing back: an append made after it is read while it stays open', async () => {
    const other = await freshDatabase();
    const holder = new pg.Client({ connectionString: other.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_current_xact_id()');
      const base = (await ledger.headPosition()) ?? START;
      const tenantId = randomUUID();
      const id = randomUUID();
      await ledger.append(
        [{ tenantId, stream: `raw-${tenantId}-${randomUUID()}`, expectedRevision: 'no_stream', events: [{ id, type: 'Raw', data: {} }] }],
        new Date(),
      );
      // Read while the other database's transaction stays open (and other files' transactions
      // begin and end beside it).
      expect((await ledger.readAll(base, 100)).map((e) => e.id)).toEqual([id]);
      expect(await ledger.countAfter(base, 100)).toBe(1);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
      await other.drop();
    }
  });

  it('a transaction of the snapshot that pg_stat_activity no longer shows: committed, the horizon is in doubt; aborted, passed over', async () => {
    // A snapshot holding only transaction x, so that other files' transactions cannot change the answer.
    const horizonOf = async (x: bigint, hold = false) =>
      (await sql<{ h: string }>`SELECT ledger.read_horizon_of(${`${x}:${x + 1n}:${x}`}::pg_snapshot, ${hold})::text AS h`.execute(store.db))
        .rows[0]!.h;
    const begin = async (client: pg.Client) => {
      await client.connect();
      await client.query('BEGIN');
      return BigInt((await client.query<{ x: string }>('SELECT pg_current_xact_id()::text AS x')).rows[0]!.x);
    };
    const other = await freshDatabase();
    const [elsewhere, aborted, here] = [other.url, other.url, url].map((u) => new pg.Client({ connectionString: u }));
    try {
      const x = await begin(elsewhere!);
      expect(await horizonOf(x), 'running in another database: holds nothing back').toBe(String(x + 1n));
      await elsewhere!.query('COMMIT');
      await expect(horizonOf(x), 'ended since the snapshot, where is not known').rejects.toMatchObject({ code: 'CLH01' });
      expect(await horizonOf(x, true), 'asked to hold in doubt: holds the read back').toBe(String(x));

      const y = await begin(aborted!);
      await aborted!.query('ROLLBACK');
      expect(await horizonOf(y), 'aborted: nobody will see its rows').toBe(String(y + 1n));

      const z = await begin(here!);
      expect(await horizonOf(z), 'running in this database: holds the read back').toBe(String(z));
    } finally {
      for (const c of [elsewhere, aborted, here]) await c!.end().catch(() => undefined);
      await other.drop();
    }
  });

  it('a read whose horizon is in doubt is made again with a snapshot of its own; the fifth holds the read back and never fails', async () => {
    const restore = await sql<{ d: string }>`
      SELECT pg_get_functiondef('ledger.read_horizon_of(pg_snapshot, boolean)'::regprocedure) AS d`.execute(store.db);
    // The horizon in doubt for the next `n` reads, as when a transaction ends in each one's window;
    // held, it holds everything back.
    const doubtNext = async (n: number) => {
      await sql.raw(`DROP SEQUENCE IF EXISTS public.doubts; CREATE SEQUENCE public.doubts`).execute(store.db);
      await sql
        .raw(
          `CREATE OR REPLACE FUNCTION ledger.read_horizon_of(s pg_snapshot, hold_in_doubt boolean) RETURNS xid8 LANGUAGE plpgsql AS $fn$
           BEGIN
             IF nextval('public.doubts') <= ${n} THEN
               IF hold_in_doubt THEN RETURN '3'::xid8; END IF;
               RAISE EXCEPTION 'in doubt' USING ERRCODE = 'CLH01';
             END IF;
             RETURN pg_snapshot_xmax(s);
           END $fn$`,
        )
        .execute(store.db);
    };
    try {
      const base = (await ledger.headPosition()) ?? START;
      const tenantId = randomUUID();
      const id = randomUUID();
      await ledger.append(
        [{ tenantId, stream: `doubt-${randomUUID()}`, expectedRevision: 'no_stream', events: [{ id, type: 'Raw', data: {} }] }],
        new Date(),
      );
      // Each doubt is told (the service counts them on /metrics), by what followed it.
      const told: string[] = [];
      const doubting = new PostgresLedger(store.db, { onHorizonDoubt: (outcome) => told.push(outcome) });
      await doubtNext(2);
      expect((await doubting.readAll(base, 100)).map((e) => e.id)).toEqual([id]);
      expect(told.splice(0)).toEqual(['read_again', 'read_again']);
      await doubtNext(4);
      expect(await doubting.countAfter(base, 100)).toBe(1);
      expect(told.splice(0)).toEqual(['read_again', 'read_again', 'read_again', 'held_back']);
      await doubtNext(5);
      expect(await doubting.readAll(base, 100)).toEqual([]);
      expect(told.splice(0)).toEqual(['read_again', 'read_again', 'read_again', 'held_back']);
      await doubtNext(5);
      expect(await ledger.countAfter(base, 100)).toBe(0);
    } finally {
      await sql.raw(restore.rows[0]!.d).execute(store.db);
      await sql.raw(`DROP SEQUENCE IF EXISTS public.doubts`).execute(store.db);
    }
  });

  it('takes no lock per new stream: 20 concurrent appends creating 1,001 streams each all land (a batch of 1,000 consents)', async () => {
    // Advisory locks live in a shared table sized max_locks_per_transaction × connections
    // (64 × ~120 by default); one lock per stream of every batch exhausts it ("out of shared memory").
    const tenantId = randomUUID();
    const batch = (): AppendRequest[] =>
      Array.from({ length: 1001 }, (_, i) => ({
        tenantId,
        stream: `batch-${randomUUID()}`,
        expectedRevision: 'no_stream' as const,
        events: [{ type: 'Item', data: { i } }],
      }));
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => ledger.append(batch(), new Date())));
    const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [String((o.reason as Error).message)] : []));
    expect(failures).toEqual([]);
    expect(outcomes).toHaveLength(20);
  });

  it(`a reader paging readAll alongside ${WRITERS} concurrent writers sees every acknowledged event exactly once, in order`, async () => {
    const APPENDS = 40;
    const tenants = Array.from({ length: 4 }, () => randomUUID());
    const shared = Array.from({ length: 3 }, () => `shared-${randomUUID()}`);
    const start = (await ledger.headPosition()) ?? START;
    const acknowledged: RecordedEvent[] = [];
    let requested = 0;
    let writersDone = false;
    let pagesWhileWriting = 0;

    const writer = async (w: number) => {
      const tenantId = tenants[w % tenants.length]!;
      const own = `writer-${w}-${randomUUID()}`;
      let revision: number | null = null;
      // Appends are committed in groups, so writers can be done before the reader's first page:
      // they go on (bounded) until it has read while they write.
      for (let k = 0; k < APPENDS || (pagesWhileWriting === 0 && k < 20 * APPENDS); k++) {
        const count = k % 3 === 0 ? 3 : 1;
        const requests: AppendRequest[] = [
          {
            tenantId,
            stream: own,
            expectedRevision: revision ?? 'no_stream',
            events: Array.from({ length: count }, (_, i) => ({ type: 'Wrote', data: { w, k, i } })),
          },
        ];
        if (k % 4 === 1) {
          requests.push({
            tenantId,
            stream: shared[(w + k) % shared.length]!,
            expectedRevision: 'any',
            events: [{ type: 'Shared', data: { w, k } }],
          });
        }
        requested += requests.reduce((n, r) => n + r.events.length, 0);
        const result = await ledger.append(requests, new Date());
        revision = (revision ?? -1) + count;
        acknowledged.push(...result.events);
      }
    };

    const reader = async () => {
      const seen: RecordedEvent[] = [];
      let from: LedgerPosition = start;
      let backwards = 0;
      let deadline = Infinity;
      for (;;) {
        const done = writersDone;
        if (done && deadline === Infinity) deadline = Date.now() + 20_000;
        const page = await ledger.readAll(from, 50);
        for (const e of page) {
          if (comparePositions(e.position, from) <= 0) backwards += 1;
          seen.push(e);
          from = e.position;
        }
        if (page.length > 0 && !done) pagesWhileWriting += 1;
        if (done && seen.length >= acknowledged.length) {
          // One more read: nothing may follow the acknowledged events.
          if ((await ledger.readAll(from, 50)).length === 0) break;
        }
        if (Date.now() > deadline) break;
        if (page.length === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      return { seen, backwards };
    };

    const reading = reader();
    const written = await Promise.allSettled(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    writersDone = true;
    const { seen, backwards } = await reading;
    for (const w of written) if (w.status === 'rejected') throw w.reason;

    expect(acknowledged.length).toBe(requested);
    expect(backwards, 'the reader was handed a position at or below one it had passed').toBe(0);
    expect(pagesWhileWriting, 'the reader must have read while writers were still writing').toBeGreaterThan(0);
    const counts = new Map<string, number>();
    for (const e of seen) counts.set(e.id, (counts.get(e.id) ?? 0) + 1);
    const missing = acknowledged.filter((e) => !counts.has(e.id));
    const repeated = [...counts].filter(([, n]) => n > 1);
    expect(
      missing.map((e) => `${e.stream}@${e.revision}`),
      'acknowledged events the reader skipped',
    ).toEqual([]);
    expect(repeated, 'events the reader saw more than once').toEqual([]);
    expect(seen.length).toBe(acknowledged.length);
    expect(new Set(seen.map((e) => e.id))).toEqual(new Set(acknowledged.map((e) => e.id)));

    // The reader's order is the ledger's order: one more pass from the start answers the same sequence.
    const again = await readAllThrough(ledger, start, seen[seen.length - 1]!.position);
    expect(again.map((e) => e.id)).toEqual(seen.map((e) => e.id));
    for (const s of shared) {
      const stored = await ledger.readStream(s);
      expect(checkChain(stored)).toEqual([]);
      expect(stored.map((e) => e.revision)).toEqual(stored.map((_, i) => i));
    }
  });
});

for (const engine of variants) {
  describe(`postgres ledger (${engine.name}) › signing with a key the key history retired`, () => {
    let t: TestStore;
    const publicKey = Buffer.alloc(32, 7).toString('base64');
    const authenticate: AuthenticateAppend = Object.assign((hashes: readonly string[]) => hashes.map(() => 'signed'), { publicKey });
    const tenantId = randomUUID();
    const stream = `keyed-${randomUUID()}`;
    const create = () => ({
      tenantId,
      stream: `keyed-${randomUUID()}`,
      expectedRevision: 'no_stream' as const,
      events: [{ type: 'A', data: {} }],
    });

    beforeAll(async () => {
      t = await engine.open();
      await sql`INSERT INTO transparency.key_history (public_key, vkey) VALUES (${publicKey}, 'test+00000000+key')`.execute(t.store.db);
    });
    afterAll(() => t?.dispose());

    it('appends while the key is current, and nothing once it is retired, on every path', async () => {
      const ledger = new PostgresLedger(t.store.db, { ...optionsOf(engine, t.store), authenticate });
      await ledger.append([{ ...create(), stream }], new Date());
      await ledger.append([{ tenantId, stream, expectedRevision: 0, events: [{ type: 'B', data: {} }] }], new Date());
      const before = await rowsOf(t.store.db);
      await sql`UPDATE transparency.key_history SET retired_at = clock_timestamp() WHERE public_key = ${publicKey}`.execute(t.store.db);
      // A new stream (one statement, or COPY), an existing one (a transaction), and a group of both.
      await expect(ledger.append([create()], new Date())).rejects.toThrow(AppendKeyRetiredError);
      await expect(
        ledger.append([{ tenantId, stream, expectedRevision: 1, events: [{ type: 'C', data: {} }] }], new Date()),
      ).rejects.toThrow(AppendKeyRetiredError);
      const group = await Promise.all([settle(ledger.append([create()], new Date())), settle(ledger.append([create()], new Date()))]);
      for (const { error } of group) expect(error).toBeInstanceOf(AppendKeyRetiredError);
      expect(await rowsOf(t.store.db)).toEqual(before);
    });
  });
}
