import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkChain, eventHash } from './event-hash.js';
import {
  comparePositions,
  readStreams,
  START,
  WrongExpectedRevisionError,
  type AppendRequest,
  type AppendResult,
  type Ledger,
  type LedgerPosition,
  type NewEvent,
  type RecordedEvent,
  type AuthenticateAppend,
} from './ledger.port.js';

/** A ledger adapter opened for the contract suite, with optional hooks only tests may use. */
export interface LedgerUnderTest {
  ledger: Ledger;
  /** Closes the adapter and removes what it stored. */
  dispose(): Promise<void>;
  /**
   * Rewrites the stored `data` of one event behind the ledger's back, as someone with raw access
   * to the storage could. Adapters whose storage cannot be rewritten leave it out.
   */
  tamper?(eventId: string, data: Record<string, unknown>): Promise<void>;
}

/** How long a read waits for appended events to become readable (readAll never passes open writes). */
const VISIBLE_WITHIN_MS = 10_000;

const newTenant = (): string => randomUUID();
/** A fresh stream of a tenant, named as every stream helper names them: `<kind>-<tenantId>-<id>`. */
const newStream = (tenantId: string, kind = 'contract'): string => `${kind}-${tenantId}-${randomUUID()}`;
const events = (n: number, type = 'Happened'): NewEvent[] =>
  Array.from({ length: n }, (_, i) => ({ type, data: { i }, metadata: { n: i } }));
const one = (tenantId: string, stream: string, expectedRevision: AppendRequest['expectedRevision'], n = 1): AppendRequest[] => [
  { tenantId, stream, expectedRevision, events: events(n) },
];

/**
 * Reads the whole ledger after `after`, page by page, until it has read `last` (waiting while
 * readAll holds back for writes still in flight, elsewhere on the same server). Fails after
 * VISIBLE_WITHIN_MS.
 */
export async function readAllThrough(
  ledger: Ledger,
  after: LedgerPosition,
  last: LedgerPosition,
  pageSize = 1000,
): Promise<RecordedEvent[]> {
  const seen: RecordedEvent[] = [];
  let from = after;
  const deadline = Date.now() + VISIBLE_WITHIN_MS;
  while (comparePositions(from, last) < 0) {
    const page = await ledger.readAll(from, pageSize);
    if (page.length > 0) {
      seen.push(...page);
      from = page[page.length - 1]!.position;
    } else if (Date.now() > deadline) {
      throw new Error(`readAll did not reach ${JSON.stringify(last)} within ${VISIBLE_WITHIN_MS} ms (stuck at ${JSON.stringify(from)})`);
    } else {
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return seen;
}

const expectWrongRevision = async (promise: Promise<unknown>, stream: string): Promise<void> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WrongExpectedRevisionError);
  expect((error as WrongExpectedRevisionError).stream).toBe(stream);
};

/**
 * The behaviour every Ledger adapter must show. Declares one describe block; run it once per
 * adapter (and per engine). Tests go through the Ledger port only, except the optional hooks.
 *
 * @example
 * ledgerContract('PostgresLedger on PGlite', async () => {
 *   const store = await openStore({ dataDir: 'memory://', migrations: MIGRATIONS });
 *   return { ledger: new PostgresLedger(store.db), dispose: () => store.close() };
 * });
 */
export function ledgerContract(name: string, open: (options?: { authenticate?: AuthenticateAppend }) => Promise<LedgerUnderTest>): void {
  describe(`ledger contract (${name}) › authenticators`, () => {
    // What the service's function would do, spelled so that each answer names its event's hash and
    // group: the adapter must call it once per group, over exactly the events it writes, in order.
    const calls: string[][] = [];
    const authenticate: AuthenticateAppend = (hashes) => {
      calls.push([...hashes]);
      return hashes.map((h, i) => `test:${calls.length}:${i}:${hashes.length}:${h}`);
    };
    let subject: LedgerUnderTest;
    const at = new Date('2026-03-01T12:34:56.789Z');
    beforeAll(async () => {
      subject = await open({ authenticate });
    });
    afterAll(() => subject?.dispose());

    it('stores each event with the authenticator made for it, and every read answers it', async () => {
      const tenantId = newTenant();
      const streams = [newStream(tenantId), newStream(tenantId)];
      const result = await subject.ledger.append(
        streams.map((stream) => ({
          tenantId,
          stream,
          expectedRevision: 'no_stream' as const,
          events: [
            { type: 'A', data: {} },
            { type: 'B', data: {} },
          ],
        })),
        at,
      );
      for (const e of result.events) expect(e.authenticator).toMatch(new RegExp(`^test:\\d+:\\d+:\\d+:${e.hash}$`));
      const group = calls.find((c) => c.includes(result.events[0]!.hash))!;
      expect(result.events.every((e) => group.includes(e.hash))).toBe(true);
      const read = [...(await subject.ledger.readStream(streams[0]!)), ...(await subject.ledger.readStream(streams[1]!))];
      expect(read.map((e) => e.authenticator)).toEqual(result.events.map((e) => e.authenticator));
      const all = await readAllThrough(subject.ledger, START, result.position);
      const mine = all.filter((e) => e.tenantId === tenantId);
      expect(mine.map((e) => e.authenticator)).toEqual(result.events.map((e) => e.authenticator));
    });
  });

  describe(`ledger contract (${name})`, () => {
    let subject: LedgerUnderTest;
    let ledger: Ledger;
    const at = new Date('2026-03-01T12:34:56.789Z');

    beforeAll(async () => {
      subject = await open();
      ledger = subject.ledger;
    });
    afterAll(() => subject?.dispose());

    describe('append › authenticators › a ledger given no authenticate function', () => {
      it('without a function, keeps an authenticator the event brings (a copy) and stores none otherwise', async () => {
        const tenantId = newTenant();
        const stream = newStream(tenantId);
        const result = await ledger.append(
          [
            {
              tenantId,
              stream,
              expectedRevision: 'no_stream',
              events: [
                { type: 'A', data: {}, authenticator: 'kept-as-is' },
                { type: 'B', data: {} },
              ],
            },
          ],
          at,
        );
        expect(result.events.map((e) => e.authenticator ?? null)).toEqual(['kept-as-is', null]);
        expect((await ledger.readStream(stream)).map((e) => e.authenticator ?? null)).toEqual(['kept-as-is', null]);
      });
    });

    describe('append › when the expected revision holds › writes the events', () => {
      it("appends to a new stream with 'no_stream', revisions from 0", async () => {
        const tenantId = newTenant();
        const stream = newStream(tenantId);
        const result = await ledger.append(one(tenantId, stream, 'no_stream', 3), at);
        expect(result.events.map((e) => e.revision)).toEqual([0, 1, 2]);
        expect(result.events.every((e) => e.tenantId === tenantId && e.stream === stream)).toBe(true);
        expect(result.position).toEqual(result.events[2]!.position);
        expect((await ledger.readStream(stream)).map((e) => e.id)).toEqual(result.events.map((e) => e.id));
      });

      it('reads several streams at once as one by one (readStreams), a missing one empty', async () => {
        const tenantId = newTenant();
        const [a, b, missing] = [newStream(tenantId), newStream(tenantId), newStream(tenantId)];
        await ledger.append([...one(tenantId, a, 'no_stream', 2), ...one(tenantId, b, 'no_stream', 1)], at);
        const read = await readStreams(ledger, [a, missing, b]);
        expect([...read.keys()].sort()).toEqual([a, b, missing].sort());
        for (const s of [a, b, missing]) expect(read.get(s)).toEqual(await ledger.readStream(s));
        expect(read.get(a)!.map((e) => e.revision)).toEqual([0, 1]);
        expect(read.get(missing)).toEqual([]);
      });

      it('appends with the numeric revision of the last event', async () => {
        const tenantId = newTenant();
        const stream = newStream(tenantId);
        await ledger.append(one(tenantId, stream, 'no_stream', 2), at);
        const second = await ledger.append(one(tenantId, stream, 1, 2), at);
        expect(second.events.map((e) => e.revision)).toEqual([2, 3]);
        const third = await ledger.append(one(tenantId, stream, 3), at);
        expect(third.events.map((e) => e.revision)).toEqual([4]);
        expect((await ledger.readStream(stream)).map((e) => e.revision)).toEqual([0, 1, 2, 3, 4]);
      });

      it("appends with 'any' to a missing stream and to an existing one", async () => {
        const tenantId = newTenant();
        const stream = newStream(tenantId);
        await ledger.append(one(tenantId, stream, 'any'), at);
        await ledger.append(one(tenantId, stream, 'any', 2), at);
        expect((await ledger.readStream(stream)).map((e) => e.revision)).toEqual([0, 1, 2]);
      });

      it('keeps the event ids it is given and makes up the others', async () => {
        const tenantId = newTenant();
        const stream = newStream(tenantId);
        const id = randomUUID();
        const result = await ledger.append(
          [
            {
              tenantId,
              stream,
              expectedRevision: 'no_stream',
              events: [
                { id, type: 'A', data: {} },
                { type: 'B', data: {} },
              ],
            },
          ],
          at,
        );
        expect(result.events[0]!.id).toBe(id);
        expect(result.events[1]!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        expect(result.events[1]!.id).not.toBe(id);
        expect(result.events[1]!.metadata).toEqual({});
      });
    });

    describe('append › when the expected revision does not hold › throws WrongExpectedRevisionError and writes nothing', () => {
      it('refuses a stale numeric revision', async () => {
        const tenantId = newTenant();
        const stream = newStream(tenantId);
        await ledger.append(one(tenantId, stream, 'no_stream', 3), at);
        await expectWrongRevision(ledger.append(one(tenantId, stream, 1), at), stream);
        await expectWrongRevision(ledger.append(one(tenantId, stream, 3), at), stream);
        expect((await ledger.readStream(stream)).map((e) => e.revision)).toEqual([0, 1, 2]);
      });

      it("refuses 'no_stream' on an existing stream", async () => {
        const tenantId = newTenant();
        const stream = newStream(tenantId);
        const first = await ledger.append(one(tenantId, stream, 'no_stream'), at);
        await expectWrongRevision(ledger.append(one(tenantId, stream, 'no_stream'), at), stream);
        expect((await ledger.readStream(stream)).map((e) => e.id)).toEqual([first.events[0]!.id]);
      });

      it('refuses a numeric revision on a missing stream', async () => {
        const tenantId = newTenant();
        const stream = newStream(tenantId);
        await expectWrongRevision(ledger.append(one(tenantId, stream, 0), at), stream);
        expect(await ledger.readStream(stream)).toEqual([]);
      });

      it('writes no stream of a multi-stream append when one expectation fails', async () => {
        const tenantId = newTenant();
        const [a, b, c] = [newStream(tenantId), newStream(tenantId), newStream(tenantId)];
        await ledger.append(one(tenantId, b, 'no_stream'), at);
        const headBefore = await ledger.headPosition(tenantId);
        await expectWrongRevision(
          ledger.append(
            [
              { tenantId, stream: a, expectedRevision: 'no_stream', events: events(2) },
              { tenantId, stream: b, expectedRevision: 'any', events: events(1) },
              { tenantId, stream: c, expectedRevision: 5, events: events(1) },
            ],
            at,
          ),
          c,
        );
        expect(await ledger.readStream(a)).toEqual([]);
        expect((await ledger.readStream(b)).map((e) => e.revision)).toEqual([0]);
        expect(await ledger.readStream(c)).toEqual([]);
        expect(await ledger.headPosition(tenantId)).toEqual(headBefore);
      });

      it('lands every stream of a multi-stream append together when all expectations hold', async () => {
        const tenantId = newTenant();
        const [a, b] = [newStream(tenantId), newStream(tenantId)];
        await ledger.append(one(tenantId, b, 'no_stream'), at);
        const result = await ledger.append(
          [
            { tenantId, stream: a, expectedRevision: 'no_stream', events: events(2) },
            { tenantId, stream: b, expectedRevision: 0, events: events(1) },
          ],
          at,
        );
        expect(result.events.map((e) => `${e.stream === a ? 'a' : 'b'}@${e.revision}`)).toEqual(['a@0', 'a@1', 'b@1']);
        expect(result.position).toEqual(result.events[2]!.position);
      });
    });

    describe('append › when writers race › keeps every stream consistent', () => {
      it('lets exactly one of several concurrent appends with the same expected revision win', async () => {
        const tenantId = newTenant();
        const stream = newStream(tenantId);
        await ledger.append(one(tenantId, stream, 'no_stream'), at);
        const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => ledger.append(one(tenantId, stream, 0), at)));
        const won = outcomes.filter((o) => o.status === 'fulfilled');
        const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
        expect(won).toHaveLength(1);
        for (const l of lost) {
          expect(l.reason).toBeInstanceOf(WrongExpectedRevisionError);
          expect((l.reason as WrongExpectedRevisionError).stream).toBe(stream);
        }
        expect((await ledger.readStream(stream)).map((e) => e.revision)).toEqual([0, 1]);
      });

      it("lets exactly one of several concurrent 'no_stream' appends create a stream, and names it to the others", async () => {
        const tenantId = newTenant();
        for (let round = 0; round < 5; round++) {
          const stream = newStream(tenantId);
          const own = Array.from({ length: 8 }, () => newStream(tenantId, 'own'));
          // Each append also creates a stream of its own, listed first: the error must name the contested one.
          const outcomes = await Promise.allSettled(
            own.map((o) =>
              ledger.append(
                [
                  { tenantId, stream: o, expectedRevision: 'no_stream', events: events(1) },
                  { tenantId, stream, expectedRevision: 'no_stream', events: events(2) },
                ],
                at,
              ),
            ),
          );
          const won = outcomes.filter((o): o is PromiseFulfilledResult<AppendResult> => o.status === 'fulfilled');
          const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
          expect(won).toHaveLength(1);
          for (const l of lost) {
            expect(l.reason).toBeInstanceOf(WrongExpectedRevisionError);
            expect((l.reason as WrongExpectedRevisionError).stream).toBe(stream);
            expect((l.reason as WrongExpectedRevisionError).expected).toBe('no_stream');
          }
          expect((await ledger.readStream(stream)).map((e) => e.id)).toEqual(won[0]!.value.events.slice(1).map((e) => e.id));
          const created = await Promise.all(own.map((o) => ledger.readStream(o)));
          expect(created.filter((c) => c.length > 0)).toHaveLength(1);
        }
      });

      it('answers WrongExpectedRevisionError, never a deadlock, when appends create the same streams in opposite orders', async () => {
        const tenantId = newTenant();
        for (let round = 0; round < 10; round++) {
          const [a, b] = [newStream(tenantId), newStream(tenantId)];
          const create = (first: string, second: string) =>
            ledger.append(
              [
                { tenantId, stream: first, expectedRevision: 'no_stream', events: events(20) },
                { tenantId, stream: second, expectedRevision: 'no_stream', events: events(20) },
              ],
              at,
            );
          const outcomes = await Promise.allSettled([create(a, b), create(b, a)]);
          const won = outcomes.filter((o): o is PromiseFulfilledResult<AppendResult> => o.status === 'fulfilled');
          const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
          expect(won).toHaveLength(1);
          expect(lost).toHaveLength(1);
          expect(lost[0]!.reason).toBeInstanceOf(WrongExpectedRevisionError);
          const winnerIds = new Set(won[0]!.value.events.map((e) => e.id));
          for (const s of [a, b]) {
            const stored = await ledger.readStream(s);
            expect(stored).toHaveLength(20);
            expect(stored.every((e) => winnerIds.has(e.id))).toBe(true);
          }
        }
      });

      it("lets 'any' land when it races the creation of the same stream", async () => {
        const tenantId = newTenant();
        for (let round = 0; round < 10; round++) {
          const stream = newStream(tenantId);
          const [created, anyway] = await Promise.allSettled([
            ledger.append(one(tenantId, stream, 'no_stream', 3), at),
            ledger.append(one(tenantId, stream, 'any', 3), at),
          ]);
          expect(anyway.status).toBe('fulfilled');
          const stored = await ledger.readStream(stream);
          expect(checkChain(stored)).toEqual([]);
          if (created.status === 'fulfilled') {
            expect(stored.map((e) => e.revision)).toEqual([0, 1, 2, 3, 4, 5]);
            expect(stored.slice(0, 3).map((e) => e.id)).toEqual(created.value.events.map((e) => e.id));
          } else {
            expect(created.reason).toBeInstanceOf(WrongExpectedRevisionError);
            expect(stored.map((e) => e.revision)).toEqual([0, 1, 2]);
          }
        }
      });

      it("never refuses concurrent appends with 'any', nor deadlocks on streams taken in opposite orders", async () => {
        const tenantId = newTenant();
        const [a, b] = [newStream(tenantId), newStream(tenantId)];
        const n = 12;
        await Promise.all(
          Array.from({ length: n }, (_, i) =>
            ledger.append(
              i % 2 === 0
                ? [
                    { tenantId, stream: a, expectedRevision: 'any', events: events(1) },
                    { tenantId, stream: b, expectedRevision: 'any', events: events(1) },
                  ]
                : [
                    { tenantId, stream: b, expectedRevision: 'any', events: events(1) },
                    { tenantId, stream: a, expectedRevision: 'any', events: events(1) },
                  ],
              at,
            ),
          ),
        );
        for (const s of [a, b]) {
          const stored = await ledger.readStream(s);
          expect(stored.map((e) => e.revision)).toEqual(Array.from({ length: n }, (_, i) => i));
          expect(checkChain(stored)).toEqual([]);
        }
      });
    });

    describe('append › when many appends arrive at once › answers each by its own expectations', () => {
      it('refuses only the appends whose expectations fail, writing none of their streams, and lands all the others', async () => {
        const tenantId = newTenant();
        const shared = newStream(tenantId);
        await ledger.append(one(tenantId, shared, 'no_stream'), at);
        const fresh = Array.from({ length: 12 }, () => newStream(tenantId));
        const [x, y] = [newStream(tenantId), newStream(tenantId)];
        const [wrong, partly, ...rest] = await Promise.allSettled([
          ledger.append(one(tenantId, shared, 7), at),
          ledger.append(
            [
              { tenantId, stream: x, expectedRevision: 'no_stream', events: events(2) },
              { tenantId, stream: y, expectedRevision: 3, events: events(1) },
            ],
            at,
          ),
          ...fresh.map((s) => ledger.append(one(tenantId, s, 'no_stream', 2), at)),
          ledger.append(one(tenantId, shared, 0), at),
        ]);
        expect(wrong!.status).toBe('rejected');
        expect((wrong as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
        expect(((wrong as PromiseRejectedResult).reason as WrongExpectedRevisionError).stream).toBe(shared);
        expect(partly!.status).toBe('rejected');
        expect(((partly as PromiseRejectedResult).reason as WrongExpectedRevisionError).stream).toBe(y);
        expect(await ledger.readStream(x)).toEqual([]);
        expect(await ledger.readStream(y)).toEqual([]);
        expect(rest.map((o) => o.status)).toEqual(rest.map(() => 'fulfilled'));
        for (const [i, s] of fresh.entries()) {
          const stored = await ledger.readStream(s);
          expect(stored.map((e) => e.id)).toEqual((rest[i] as PromiseFulfilledResult<AppendResult>).value.events.map((e) => e.id));
          expect(checkChain(stored)).toEqual([]);
        }
        expect((await ledger.readStream(shared)).map((e) => e.revision)).toEqual([0, 1]);
      });

      it('chains appends to the same stream that arrive together, and refuses the one that expected no stream', async () => {
        const tenantId = newTenant();
        for (let round = 0; round < 5; round++) {
          const stream = newStream(tenantId);
          await ledger.append(one(tenantId, stream, 'no_stream', 2), at);
          const [next, anyway, again] = await Promise.allSettled([
            ledger.append(one(tenantId, stream, 1, 2), at),
            ledger.append(one(tenantId, stream, 'any', 1), at),
            ledger.append(one(tenantId, stream, 'no_stream', 1), at),
          ]);
          expect(anyway.status).toBe('fulfilled');
          expect(again.status).toBe('rejected');
          expect((again as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
          const stored = await ledger.readStream(stream);
          expect(checkChain(stored)).toEqual([]);
          // 'any' may land before the numeric append, which is then refused; never both on one revision.
          const landed = [next, anyway].flatMap((o) => (o.status === 'fulfilled' ? o.value.events : []));
          expect(stored.length).toBe(2 + landed.length);
          for (const e of landed) expect(stored[e.revision]!.id).toBe(e.id);
          if (next.status === 'rejected') expect(next.reason).toBeInstanceOf(WrongExpectedRevisionError);
        }
      });

      it('takes a request without events as a condition: the append lands only while that stream is at the expected revision, and writes nothing to it', async () => {
        const tenantId = newTenant();
        const [policy, a, b] = [newStream(tenantId), newStream(tenantId), newStream(tenantId)];
        await ledger.append(one(tenantId, policy, 'no_stream', 2), at);
        const landed = await ledger.append(
          [
            { tenantId, stream: a, expectedRevision: 'no_stream', events: events(1) },
            { tenantId, stream: policy, expectedRevision: 1, events: [] },
          ],
          at,
        );
        expect(landed.events.map((e) => e.stream)).toEqual([a]);
        await ledger.append(one(tenantId, policy, 1), at);
        await expectWrongRevision(
          ledger.append(
            [
              { tenantId, stream: b, expectedRevision: 'no_stream', events: events(1) },
              { tenantId, stream: policy, expectedRevision: 1, events: [] },
            ],
            at,
          ),
          policy,
        );
        expect(await ledger.readStream(b)).toEqual([]);
        expect((await ledger.readStream(policy)).map((e) => e.revision)).toEqual([0, 1, 2]);
      });
    });

    describe('readStream › when a stream has events › answers them oldest first', () => {
      it('answers revisions 0..n in order, with what was appended', async () => {
        const tenantId = newTenant();
        const stream = newStream(tenantId);
        for (let i = 0; i < 5; i++) {
          await ledger.append(
            [
              {
                tenantId,
                stream,
                expectedRevision: i === 0 ? 'no_stream' : i - 1,
                events: [{ type: `T${i}`, data: { i }, metadata: { m: i } }],
              },
            ],
            at,
          );
        }
        const stored = await ledger.readStream(stream);
        expect(stored.map((e) => [e.revision, e.type, e.data, e.metadata])).toEqual(
          [0, 1, 2, 3, 4].map((i) => [i, `T${i}`, { i }, { m: i }]),
        );
        for (let i = 1; i < stored.length; i++) expect(comparePositions(stored[i - 1]!.position, stored[i]!.position)).toBeLessThan(0);
      });

      it('answers an empty list for a missing stream', async () => {
        expect(await ledger.readStream(newStream(newTenant(), 'missing'))).toEqual([]);
      });
    });

    describe('readAll › when events were appended › answers them in ledger order', () => {
      /** Appends 7 events over 4 appends (one multi-stream) for a fresh tenant; returns them in append order. */
      const appendSome = async (): Promise<{ before: LedgerPosition; tenantId: string; appended: RecordedEvent[] }> => {
        const tenantId = newTenant();
        const [a, b] = [newStream(tenantId), newStream(tenantId)];
        const before = (await ledger.headPosition()) ?? START;
        const appended: RecordedEvent[] = [];
        appended.push(...(await ledger.append(one(tenantId, a, 'no_stream', 2), at)).events);
        appended.push(...(await ledger.append(one(tenantId, b, 'no_stream'), at)).events);
        appended.push(
          ...(
            await ledger.append(
              [
                { tenantId, stream: a, expectedRevision: 1, events: events(1) },
                { tenantId, stream: b, expectedRevision: 0, events: events(2) },
              ],
              at,
            )
          ).events,
        );
        appended.push(...(await ledger.append(one(tenantId, a, 2), at)).events);
        return { before, tenantId, appended };
      };

      it('answers the events strictly after a position, in order, with the positions appends reported', async () => {
        const { before, tenantId, appended } = await appendSome();
        const read = await readAllThrough(ledger, before, appended[appended.length - 1]!.position);
        const mine = read.filter((e) => e.tenantId === tenantId);
        expect(mine.map((e) => e.id)).toEqual(appended.map((e) => e.id));
        expect(mine.map((e) => e.position)).toEqual(appended.map((e) => e.position));
        for (let i = 1; i < read.length; i++) expect(comparePositions(read[i - 1]!.position, read[i]!.position)).toBeLessThan(0);
        expect(comparePositions(read[0]!.position, before)).toBeGreaterThan(0);

        const afterSecond = await readAllThrough(ledger, appended[1]!.position, appended[appended.length - 1]!.position);
        expect(afterSecond.filter((e) => e.tenantId === tenantId).map((e) => e.id)).toEqual(appended.slice(2).map((e) => e.id));
        const afterLast = await ledger.readAll(appended[appended.length - 1]!.position, 100);
        expect(afterLast.filter((e) => e.tenantId === tenantId)).toEqual([]);
      });

      it('answers at most `limit` events, the first ones after the position', async () => {
        const { before, appended } = await appendSome();
        const all = await readAllThrough(ledger, before, appended[appended.length - 1]!.position);
        for (const limit of [1, 2, 5]) {
          const page = await ledger.readAll(before, limit);
          expect(page.map((e) => e.id)).toEqual(all.slice(0, limit).map((e) => e.id));
        }
      });

      it('visits every event exactly once when paging with the last position read', async () => {
        const { appended } = await appendSome();
        await readAllThrough(ledger, START, appended[appended.length - 1]!.position);
        const ids: string[] = [];
        let from = START;
        for (;;) {
          const page = await ledger.readAll(from, 3);
          expect(page.length).toBeLessThanOrEqual(3);
          if (page.length === 0) break;
          for (const e of page) expect(comparePositions(e.position, from)).toBeGreaterThan(0);
          ids.push(...page.map((e) => e.id));
          from = page[page.length - 1]!.position;
        }
        expect(new Set(ids).size).toBe(ids.length);
        const mine = new Set(appended.map((e) => e.id));
        expect(ids.filter((id) => mine.has(id))).toEqual(appended.map((e) => e.id));
        expect(comparePositions(from, appended[appended.length - 1]!.position)).toBeGreaterThanOrEqual(0);
      });
    });

    describe('headPosition › answers the newest position, overall or of one tenant', () => {
      it('answers null on an empty ledger', async () => {
        const fresh = await open();
        try {
          expect(await fresh.ledger.headPosition()).toBeNull();
          expect(await fresh.ledger.headPosition(newTenant())).toBeNull();
        } finally {
          await fresh.dispose();
        }
      });

      it('answers the last append overall, the last of each tenant, and null for a tenant without events', async () => {
        const [t1, t2] = [newTenant(), newTenant()];
        const first = await ledger.append(one(t1, newStream(t1), 'no_stream', 2), at);
        const second = await ledger.append(one(t2, newStream(t2), 'no_stream'), at);
        expect(await ledger.headPosition()).toEqual(second.position);
        expect(await ledger.headPosition(t1)).toEqual(first.position);
        expect(await ledger.headPosition(t2)).toEqual(second.position);
        expect(await ledger.headPosition(newTenant())).toBeNull();
        const third = await ledger.append(one(t1, newStream(t1), 'no_stream'), at);
        expect(await ledger.headPosition(t1)).toEqual(third.position);
        expect(await ledger.headPosition()).toEqual(third.position);
      });
    });

    describe('hashes › when events are stored › each event hashes its envelope and names its predecessor', () => {
      it('stores hash = eventHash(envelope) and chains prevHash within each stream', async () => {
        const tenantId = newTenant();
        const [a, b] = [newStream(tenantId), newStream(tenantId)];
        await ledger.append(one(tenantId, a, 'no_stream', 2), at);
        await ledger.append(one(tenantId, b, 'no_stream', 1), at);
        const mixed = await ledger.append(
          [
            { tenantId, stream: a, expectedRevision: 1, events: events(2) },
            { tenantId, stream: b, expectedRevision: 0, events: events(1) },
          ],
          at,
        );
        for (const e of mixed.events) expect(e.hash).toBe(eventHash(e));
        for (const s of [a, b]) {
          const stored = await ledger.readStream(s);
          expect(checkChain(stored)).toEqual([]);
          expect(stored[0]!.prevHash).toBeNull();
          for (let i = 1; i < stored.length; i++) expect(stored[i]!.prevHash).toBe(stored[i - 1]!.hash);
          for (const e of stored) expect(e.hash).toMatch(/^[0-9a-f]{64}$/);
        }
        // The multi-stream append chains each stream to its own predecessor, not to the other stream.
        const storedB = await ledger.readStream(b);
        expect(storedB[1]!.prevHash).toBe(storedB[0]!.hash);
      });

      it('reports a rewritten event through checkChain', async () => {
        const tenantId = newTenant();
        const stream = newStream(tenantId);
        const appended = await ledger.append(one(tenantId, stream, 'no_stream', 3), at);
        let stored: RecordedEvent[];
        if (subject.tamper) {
          // Rewritten in the storage itself, as someone with raw access could.
          await subject.tamper(appended.events[1]!.id, { i: 99 });
          stored = await ledger.readStream(stream);
        } else {
          // The storage cannot be rewritten from a test: rewrite what the adapter read instead.
          console.log(`[ledger contract] ${name} offers no tamper hook: the rewrite is applied to the events it read`);
          stored = (await ledger.readStream(stream)).map((e) => (e.id === appended.events[1]!.id ? { ...e, data: { i: 99 } } : e));
        }
        expect(stored[1]!.data).toEqual({ i: 99 });
        expect(checkChain(stored)).toEqual([`${stream}@1: hash does not match the event`]);
      });
    });

    describe('round trip › when events carry awkward values › answers them as given and their hashes still match', () => {
      it('keeps recordedAt to the millisecond, in ISO 8601 UTC', async () => {
        const tenantId = newTenant();
        const stream = newStream(tenantId);
        const when = new Date('2027-12-31T23:59:59.999Z');
        const result = await ledger.append(one(tenantId, stream, 'no_stream'), when);
        expect(result.events[0]!.recordedAt).toBe('2027-12-31T23:59:59.999Z');
        const [stored] = await ledger.readStream(stream);
        expect(stored!.recordedAt).toBe('2027-12-31T23:59:59.999Z');
        const late = await ledger.append(one(tenantId, stream, 0), new Date(Date.UTC(2026, 0, 1, 0, 0, 0, 1)));
        expect(late.events[0]!.recordedAt).toBe('2026-01-01T00:00:00.001Z');
        expect(checkChain(await ledger.readStream(stream))).toEqual([]);
      });

      it('keeps unicode, nested objects and numbers (0.1, 1e21, -0 as 0, large integers)', async () => {
        const tenantId = newTenant();
        const stream = newStream(tenantId);
        const data = {
          cjk: '同意します・개인정보 처리방침에 동의합니다・我同意',
          emoji: '👍🏽 👨‍👩‍👧‍👦 🇪🇺 📜',
          escapes: 'quote " backslash \\ newline \n tab \t bell \u0007 unit-sep \u001f del \u007f line-sep \u2028',
          nested: { a: [1, { b: null, c: [true, false, []] }], empty: {}, deep: { x: { y: { z: 'end' } } } },
          numbers: {
            tenth: 0.1,
            big: 1e21,
            negativeZero: -0,
            maxSafe: 9007199254740991,
            minSafe: -9007199254740991,
            tiny: 1e-7,
            huge: -1.5e300,
            whole: 123456789012,
          },
          keys: { é: 1, e: 2, '€': 3, '😀': 4, '': 5, Z: 6, a: 7 },
        };
        const metadata = { source: 'contract ✓', tags: ['α', 'β'] };
        const result = await ledger.append(
          [{ tenantId, stream, expectedRevision: 'no_stream', events: [{ type: 'Awkward', data, metadata }] }],
          at,
        );
        const [stored] = await ledger.readStream(stream);
        const expected = { ...data, numbers: { ...data.numbers, negativeZero: 0 } };
        expect(stored!.data).toEqual(expected);
        expect(Object.is((stored!.data.numbers as Record<string, number>).negativeZero, 0)).toBe(true);
        expect(stored!.metadata).toEqual(metadata);
        expect(result.events[0]!.data).toEqual(expected);
        expect(eventHash(stored!)).toBe(stored!.hash);
        expect(stored!.hash).toBe(result.events[0]!.hash);
        // readAll answers the same event, byte for byte as far as the hash can tell.
        const read = await readAllThrough(ledger, START, result.position);
        const viaAll = read.find((e) => e.id === stored!.id)!;
        expect(viaAll.data).toEqual(expected);
        expect(eventHash(viaAll)).toBe(stored!.hash);
      });
    });
  });
}
