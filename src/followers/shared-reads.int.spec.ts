import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultEngine, type TestStore } from '../../test/support/stores.js';
import { ledgerContract, readAllThrough } from '../ledger/ledger.contract.js';
import { START, type AppendRequest, type Ledger, type LedgerPosition, type RecordedEvent } from '../ledger/ledger.port.js';
import { PostgresLedger } from '../ledger/postgres/postgres.ledger.js';
import { SharedReads } from './shared-reads.js';

// A window of events answers readAll as the ledger does, for every case the contract tries.
ledgerContract('SharedReads over PostgresLedger', async (options) => {
  const t = await defaultEngine();
  return { ledger: new SharedReads(new PostgresLedger(t.store.db, options), { pageSize: 4, capacity: 8 }), dispose: () => t.dispose() };
});

/** The real ledger, counting the reads that reach it. */
class CountingReads extends PostgresLedger {
  reads = 0;
  override readAll(after: LedgerPosition, limit: number): Promise<RecordedEvent[]> {
    this.reads++;
    return super.readAll(after, limit);
  }
}

const ids = (events: readonly RecordedEvent[]) => events.map((e) => e.id);

/** A follower as the runner, sealer and webhook subscription are: read after its cursor, batch after batch. */
async function follow(ledger: Ledger, from: LedgerPosition, batch: number, until: LedgerPosition): Promise<RecordedEvent[]> {
  const seen: RecordedEvent[] = [];
  let at = from;
  for (;;) {
    const page = await ledger.readAll(at, batch);
    seen.push(...page);
    if (page.length > 0) at = page[page.length - 1]!.position;
    if (page.length < batch && seen.length > 0 && at.commit === until.commit && at.prepare === until.prepare) return seen;
    if (page.length === 0) await new Promise((r) => setImmediate(r));
  }
}

describe('shared reads › followers of one process', () => {
  let t: TestStore;
  let inner: CountingReads;
  const tenantId = randomUUID();
  const append = (n: number) =>
    inner.append(
      Array.from({ length: n }, (): AppendRequest => ({
        tenantId,
        stream: `s-${tenantId}-${randomUUID()}`,
        expectedRevision: 'no_stream',
        events: [{ type: 'T', data: { v: 1 } }],
      })),
      new Date(),
    );

  beforeAll(async () => {
    t = await defaultEngine();
    inner = new CountingReads(t.store.db);
  });
  afterAll(() => t?.dispose());

  it('hands each follower every event in ledger order, reading the ledger once for all of them', async () => {
    const before = (await inner.headPosition()) ?? START;
    const last = (await append(600)).position;
    const expected = ids(await readAllThrough(inner, before, last));
    inner.reads = 0;
    const shared = new SharedReads(inner, { pageSize: 100, capacity: 400 });
    const [runner, sealer, webhooks] = await Promise.all([
      follow(shared, before, 50, last),
      follow(shared, before, 100, last),
      follow(shared, before, 20, last),
    ]);
    expect(ids(runner)).toEqual(expected);
    expect(ids(sealer)).toEqual(expected);
    expect(ids(webhooks)).toEqual(expected);
    // 600 events in pages of 100, plus the reads that find the end: not 12 + 6 + 30 + 3.
    expect(inner.reads).toBeLessThanOrEqual(10);
  });

  it('reaches events appended after the window was read, and one read serves the callers waiting at its end', async () => {
    const shared = new SharedReads(inner, { pageSize: 100, capacity: 400 });
    const head = (await inner.headPosition())!;
    expect(await shared.readAll(head, 10)).toEqual([]);
    const appended = await append(5);
    inner.reads = 0;
    const [a, b, c] = await Promise.all([shared.readAll(head, 10), shared.readAll(head, 10), shared.readAll(head, 3)]);
    expect(ids(a)).toEqual(ids(appended.events));
    expect(ids(b)).toEqual(ids(appended.events));
    expect(ids(c)).toEqual(ids(appended.events.slice(0, 3)));
    expect(inner.reads).toBe(1);
  });

  it('tells its listeners when a read brings events after a caller was answered by a read begun before it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    /** Its first read runs, then waits at the gate before answering. */
    class HeldReads extends PostgresLedger {
      held = false;
      override async readAll(after: LedgerPosition, limit: number): Promise<RecordedEvent[]> {
        const page = await super.readAll(after, limit);
        if (!this.held) {
          this.held = true;
          await gate;
        }
        return page;
      }
    }
    const held = new HeldReads(t.store.db);
    const shared = new SharedReads(held, { pageSize: 100, capacity: 400 });
    let grew = 0;
    shared.onGrow(() => grew++);
    const head = (await inner.headPosition())!;
    const early = shared.readAll(head, 10);
    // The read above has run (held at the gate) when this append commits.
    while (!held.held) await new Promise((r) => setImmediate(r));
    const appended = await append(2);
    const late = shared.readAll(head, 10);
    release();
    expect(await early).toEqual([]);
    expect(await late).toEqual([]);
    expect(grew).toBe(0);
    // The follower, poked again, reads: the events come, and the listeners hear of it.
    expect(ids(await shared.readAll(head, 10))).toEqual(ids(appended.events));
    expect(grew).toBe(1);
  });

  it('sends a follower behind the window to the ledger, and answers it the same events', async () => {
    const from = (await inner.headPosition())!;
    const last = (await append(300)).position;
    const shared = new SharedReads(inner, { pageSize: 50, capacity: 100 });
    const lead = await follow(shared, from, 50, last);
    expect(lead).toHaveLength(300);
    // The window now holds the last 100; a follower at the start is 200 behind it.
    inner.reads = 0;
    const behind = await shared.readAll(from, 50);
    expect(ids(behind)).toEqual(ids(lead.slice(0, 50)));
    expect(inner.reads).toBe(1);
    // Inside the window: no read.
    const inside = await shared.readAll(lead[249]!.position, 50);
    expect(ids(inside)).toEqual(ids(lead.slice(250)));
    expect(inner.reads).toBe(1);
  });

  it('starts the window again where a follower ahead of it asks, and a read begun before lands nowhere', async () => {
    const from = (await inner.headPosition())!;
    const first = await append(10);
    const shared = new SharedReads(inner, { pageSize: 5, capacity: 10 });
    expect(ids(await shared.readAll(from, 5))).toEqual(ids(first.events.slice(0, 5)));
    // Ahead of the window's end (another process moved this follower's checkpoint).
    const ahead = first.events[7]!.position;
    const pending = shared.readAll(from, 10);
    expect(ids(await shared.readAll(ahead, 5))).toEqual(ids(first.events.slice(8)));
    expect(ids(await pending)).toEqual(ids(first.events.slice(0, 10)));
    expect(ids(await shared.readAll(first.events[8]!.position, 5))).toEqual(ids(first.events.slice(9)));
  });
});
