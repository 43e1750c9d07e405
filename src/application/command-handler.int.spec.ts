import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableEngines, type TestStore } from '../../test/support/stores.js';
import { DomainError } from '../domain/errors.js';
import { checkChain } from '../ledger/event-hash.js';
import type { AppendRequest, AppendResult, Ledger, LedgerPosition, RecordedEvent } from '../ledger/ledger.port.js';
import { PostgresLedger } from '../ledger/postgres/postgres.ledger.js';
import { asStored, eventDecoder, type Aggregate } from '../domain/events.js';
import { ConcurrencyError } from '../ledger/ledger.port.js';
import { answered, CommandHandler, unchanged, write } from './command-handler.js';

// A withdraw-like aggregate: given once, withdrawn at most once.
type NoteEvent =
  { type: 'Given'; data: { by: number } } | { type: 'Withdrawn'; data: { by: number } } | { type: 'Noted'; data: { by: number } };
interface NoteState {
  given: boolean;
  withdrawnBy: number | null;
  notes: number[];
}
const initial = (): NoteState => ({ given: false, withdrawnBy: null, notes: [] });
const evolve = (s: NoteState, e: NoteEvent): NoteState => {
  switch (e.type) {
    case 'Given':
      return { ...s, given: true };
    case 'Withdrawn':
      return { ...s, withdrawnBy: e.data.by };
    case 'Noted':
      return { ...s, notes: [...s.notes, e.data.by] };
  }
};
const notes: Aggregate<NoteState, NoteEvent> = {
  initialState: initial,
  evolve,
  decode: eventDecoder<NoteEvent>({ Given: asStored(), Withdrawn: asStored(), Noted: asStored() }),
};
const withdraw =
  (by: number) =>
  (s: NoteState): NoteEvent[] => {
    if (!s.given) throw new DomainError('NOT_FOUND', 'nothing to withdraw');
    if (s.withdrawnBy !== null) throw new DomainError('CONSENT_NOT_WITHDRAWABLE', 'already withdrawn');
    return [{ type: 'Withdrawn', data: { by } }];
  };
const note = (by: number) => (): NoteEvent[] => [{ type: 'Noted', data: { by } }];

/** Passes every call through; counts appends refused for a stale revision. */
class CountingLedger implements Ledger {
  reads = 0;
  constructor(protected readonly inner: Ledger) {}
  async readStream(stream: string): Promise<RecordedEvent[]> {
    this.reads += 1;
    return this.inner.readStream(stream);
  }
  append(requests: AppendRequest[], recordedAt: Date): Promise<AppendResult> {
    return this.inner.append(requests, recordedAt);
  }
  readAll(after: LedgerPosition, limit: number): Promise<RecordedEvent[]> {
    return this.inner.readAll(after, limit);
  }
  headPosition(tenantId?: string): Promise<LedgerPosition | null> {
    return this.inner.headPosition(tenantId);
  }
}

/**
 * Another writer gets in between: after each of the first `times` reads of the stream, it appends
 * an event of its own (a real append, on the real store), so the reader's revision is stale.
 */
class InterferingLedger extends CountingLedger {
  constructor(
    inner: Ledger,
    private readonly tenantId: string,
    private readonly times: number,
  ) {
    super(inner);
  }
  override async readStream(stream: string): Promise<RecordedEvent[]> {
    const read = await super.readStream(stream);
    if (this.reads <= this.times) {
      await this.inner.append(
        [{ tenantId: this.tenantId, stream, expectedRevision: 'any', events: [{ type: 'Noted', data: { by: -1 } }] }],
        new Date(),
      );
    }
    return read;
  }
}

/**
 * Makes the race certain: the first `n` reads of the stream return only once all `n` have been
 * read, so `n` commands decide on the same state and all but one append with a stale revision.
 */
class StartingLineLedger extends CountingLedger {
  private arrived = 0;
  private release!: () => void;
  private readonly allArrived = new Promise<void>((resolve) => (this.release = resolve));
  constructor(
    inner: Ledger,
    private readonly n: number,
  ) {
    super(inner);
  }
  override async readStream(stream: string): Promise<RecordedEvent[]> {
    const read = await super.readStream(stream);
    if (this.arrived < this.n) {
      this.arrived += 1;
      if (this.arrived === this.n) this.release();
      await this.allArrived;
    }
    return read;
  }
}

for (const engine of availableEngines) {
  describe(`command handler (${engine.name})`, () => {
    let t: TestStore;
    let ledger: PostgresLedger;
    beforeAll(async () => {
      t = await engine.open();
      ledger = new PostgresLedger(t.store.db);
    });
    afterAll(() => t?.dispose());

    /** One single-stream command through the production handler, on `on` (a ledger in between). */
    const handle = (
      on: Ledger,
      tenantId: string,
      stream: string,
      decide: (s: NoteState) => NoteEvent[],
      options: { maxAttempts?: number } = {},
    ) => new CommandHandler(on, options).handle(tenantId, notes, stream, (s) => decide(s));
    const given = async (tenantId: string, stream: string) =>
      ledger.append([{ tenantId, stream, expectedRevision: 'no_stream', events: [{ type: 'Given', data: { by: 0 } }] }], new Date());

    describe('command handler › when the stream changes under every attempt › gives up with ConcurrencyError', () => {
      it('tries exactly maxAttempts times, then throws ConcurrencyError and appends nothing of its own', async () => {
        const tenantId = randomUUID();
        const stream = `note-${randomUUID()}`;
        const interfering = new InterferingLedger(ledger, tenantId, Infinity);
        const error = await handle(interfering, tenantId, stream, note(1), { maxAttempts: 3 }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ConcurrencyError);
        expect(interfering.reads).toBe(3);
        const stored = await ledger.readStream(stream);
        expect(stored.map((e) => e.data.by)).toEqual([-1, -1, -1]);
      });

      it('tries 5 times when maxAttempts is not given', async () => {
        const tenantId = randomUUID();
        const stream = `note-${randomUUID()}`;
        const interfering = new InterferingLedger(ledger, tenantId, Infinity);
        await expect(handle(interfering, tenantId, stream, note(1))).rejects.toBeInstanceOf(ConcurrencyError);
        expect(interfering.reads).toBe(5);
        expect(await ledger.readStream(stream)).toHaveLength(5);
      });
    });

    describe('command handler › when the stream changes under some attempts › retries on the new state and appends once', () => {
      it('succeeds on the third attempt after two conflicts, deciding on the stream as it then is', async () => {
        const tenantId = randomUUID();
        const stream = `note-${randomUUID()}`;
        const interfering = new InterferingLedger(ledger, tenantId, 2);
        const result = await handle(interfering, tenantId, stream, note(1), { maxAttempts: 3 });
        expect(interfering.reads).toBe(3);
        expect(result.appended.map((e) => e.revision)).toEqual([2]);
        expect(result.state.notes).toEqual([-1, -1, 1]);
        expect((await ledger.readStream(stream)).map((e) => e.data.by)).toEqual([-1, -1, 1]);
      });

      it('does not retry when the decider refuses', async () => {
        const tenantId = randomUUID();
        const stream = `note-${randomUUID()}`;
        const counting = new CountingLedger(ledger);
        await expect(handle(counting, tenantId, stream, withdraw(1))).rejects.toMatchObject({ code: 'NOT_FOUND' });
        expect(counting.reads).toBe(1);
        expect(await ledger.readStream(stream)).toEqual([]);
      });
    });

    describe('command handler › when commands race on one stream › the ledger decides who wins', () => {
      const N = 8;

      it(`lets exactly one of ${N} concurrent withdrawals win; the others are refused by the decider on the new state`, async () => {
        const tenantId = randomUUID();
        const stream = `consent-like-${randomUUID()}`;
        await given(tenantId, stream);
        const racing = new StartingLineLedger(ledger, N);
        const outcomes = await Promise.allSettled(Array.from({ length: N }, (_, i) => handle(racing, tenantId, stream, withdraw(i + 1))));
        const won = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [i + 1] : []));
        const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
        expect(won).toHaveLength(1);
        for (const r of refused) {
          expect(r).toBeInstanceOf(DomainError);
          expect((r as DomainError).code).toBe('CONSENT_NOT_WITHDRAWABLE');
        }
        // Every loser read once, lost the append, then read again and was refused.
        expect(racing.reads).toBe(N + (N - 1));
        const stored = await ledger.readStream(stream);
        expect(stored.map((e) => [e.revision, e.type, e.data.by])).toEqual([
          [0, 'Given', 0],
          [1, 'Withdrawn', won[0]],
        ]);
      });

      it(`lands all ${N} concurrent commands whose decider always appends, with revisions 0..${N - 1}`, async () => {
        const tenantId = randomUUID();
        const stream = `note-${randomUUID()}`;
        const racing = new StartingLineLedger(ledger, N);
        const results = await Promise.all(
          Array.from({ length: N }, (_, i) => handle(racing, tenantId, stream, note(i + 1), { maxAttempts: N })),
        );
        expect(racing.reads).toBeGreaterThanOrEqual(N + (N - 1));
        const stored = await ledger.readStream(stream);
        expect(stored.map((e) => e.revision)).toEqual(Array.from({ length: N }, (_, i) => i));
        expect(stored.map((e) => e.data.by as number).sort((a, b) => a - b)).toEqual(Array.from({ length: N }, (_, i) => i + 1));
        expect(checkChain(stored)).toEqual([]);
        // Each command's answer is its own event, at the revision the ledger gave it.
        const byRevision = new Map(stored.map((e) => [e.revision, e.data.by]));
        results.forEach((r, i) => {
          expect(r.appended).toHaveLength(1);
          expect(byRevision.get(r.appended[0]!.revision)).toBe(i + 1);
        });
      });

      it(`with maxAttempts 1, lets one of ${N} racing commands land and throws ConcurrencyError for the rest`, async () => {
        const tenantId = randomUUID();
        const stream = `note-${randomUUID()}`;
        const racing = new StartingLineLedger(ledger, N);
        const outcomes = await Promise.allSettled(
          Array.from({ length: N }, (_, i) => handle(racing, tenantId, stream, note(i + 1), { maxAttempts: 1 })),
        );
        expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
        for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(ConcurrencyError);
        expect(await ledger.readStream(stream)).toHaveLength(1);
      });
    });

    describe('command handler › when a command writes several streams › one atomic append', () => {
      it('appends to every stream, a condition adds nothing to its stream, and the answer sees the result', async () => {
        const tenantId = randomUUID();
        const [a, b, c] = [`note-${randomUUID()}`, `note-${randomUUID()}`, `note-${randomUUID()}`];
        await given(tenantId, c);
        const counting = new CountingLedger(ledger);
        const revisions = await new CommandHandler(counting).run(tenantId, async (attempt) => {
          const [sa, sb, sc] = await Promise.all([attempt.load(notes, a), attempt.create(notes, b), attempt.load(notes, c)]);
          return {
            writes: [
              write(sa, [{ type: 'Noted', data: { by: 1 } }]),
              write(sb, [{ type: 'Noted', data: { by: 2 } }]),
              unchanged(c, sc.recorded.length - 1),
            ],
            answer: (appended) => appended!.events.map((e) => [e.stream, e.revision]),
          };
        });
        expect(revisions).toEqual([
          [a, 0],
          [b, 0],
        ]);
        // `create` read nothing on the first attempt: a and c were read, b was not.
        expect(counting.reads).toBe(2);
        expect(await ledger.readStream(c)).toHaveLength(1);
      });

      it('writes nothing of an attempt whose condition failed, and decides again on the moved stream', async () => {
        const tenantId = randomUUID();
        const [a, c] = [`note-${randomUUID()}`, `note-${randomUUID()}`];
        await given(tenantId, c);
        // The first read of each stream (c, then a) is followed by another writer's append to it.
        const interfering = new InterferingLedger(ledger, tenantId, 2);
        const seen: number[] = [];
        await new CommandHandler(interfering).run(tenantId, async (attempt) => {
          const sc = await attempt.load(notes, c);
          const sa = await attempt.load(notes, a);
          seen.push(sc.state.notes.length);
          return {
            writes: [write(sa, [{ type: 'Noted', data: { by: attempt.number } }]), unchanged(c, sc.recorded.length - 1)],
            answer: () => undefined,
          };
        });
        // Attempt 1 decided on c before the interference; attempt 2 saw it, and landed.
        expect(seen).toEqual([0, 1]);
        expect((await ledger.readStream(a)).map((e) => [e.type, e.data.by])).toEqual([
          ['Noted', -1],
          ['Noted', 2],
        ]);
      });

      it('reads a created stream after a conflict on it, and answers from what it finds there', async () => {
        const tenantId = randomUUID();
        const stream = `note-${randomUUID()}`;
        await given(tenantId, stream);
        const counting = new CountingLedger(ledger);
        const outcome = await new CommandHandler(counting).run(tenantId, async (attempt) => {
          const created = await attempt.create(notes, stream);
          if (created.state.given) return answered(`found at attempt ${attempt.number}, after a conflict on ${attempt.conflict?.stream}`);
          return { writes: [write(created, [{ type: 'Given', data: { by: 1 } }])], answer: () => 'created' };
        });
        expect(outcome).toBe(`found at attempt 2, after a conflict on ${stream}`);
        expect(counting.reads).toBe(1);
        expect(await ledger.readStream(stream)).toHaveLength(1);
      });
    });
  });
}
