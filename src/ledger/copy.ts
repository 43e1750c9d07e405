import { isDeepStrictEqual } from 'node:util';
import { eventHash } from './event-hash.js';
import {
  comparePositions,
  START,
  WrongExpectedRevisionError,
  type AppendRequest,
  type Ledger,
  type LedgerPosition,
  type RecordedEvent,
} from './ledger.port.js';

/**
 * Copies a ledger into another (embedded → PostgreSQL → EventStoreDB, or back) through the
 * Ledger port only, and verifies the copy. See docs/scaling.md ("Moving up").
 *
 * - Order, event ids, `recordedAt` and so every hash are kept: each source transaction (events
 *   sharing a commit position and a time) becomes one atomic append at the destination, with the
 *   original ids and time, expecting the stream's previous revision.
 * - Resumable: a destination that already holds the first N source events gets the rest. A
 *   destination holding anything else is refused before a write.
 * - Verified: `verifyCopy` reads both ledgers side by side and checks every event, every hash,
 *   each stream's chain and the counts.
 */

/** Why a copy stopped: the destination holds events that are not this source's, or the check failed. */
/** A position the copy's verification did not pass: state written after it began (the source's service still runs). */
export class UnverifiedPositionError extends Error {
  override readonly name = 'UnverifiedPositionError';
}

export class LedgerCopyError extends Error {
  override readonly name = 'LedgerCopyError';
  constructor(
    readonly code: 'DESTINATION_DIVERGES' | 'COPY_MISMATCH' | 'COPY_VERIFY_FAILED' | 'SAME_LOCATION',
    message: string,
    readonly problems: string[] = [],
  ) {
    super(message);
  }
}

export interface CopyProgress {
  /** Events at the destination now (already there + copied by this run). */
  done: number;
  /** Events copied by this run. */
  copied: number;
}

export interface CopyOptions {
  /** Events read from the source per page (default 1,000). */
  batchSize?: number;
  /** Stop after this many events are copied by this run (whole transactions: it may copy a few more). */
  limit?: number;
  /** Asked after each append: true stops the run there, as `limit` does (Ctrl-C). */
  stop?: () => boolean;
  onProgress?(progress: CopyProgress): void;
}

export interface CopyResult {
  /** Events the destination held before this run (all of them from the source). */
  alreadyThere: number;
  /** Events appended by this run. */
  copied: number;
  /** Appends made (one per source transaction, or per part when a transaction interleaves streams). */
  appends: number;
  /** False when `limit` or `stop` stopped the run before the source's end. */
  complete: boolean;
  /** The source position of the newest event now at the destination (START when none): what `verifyCopy` checks up to. */
  through: LedgerPosition;
}

/** The fields of an event that a copy keeps: everything but the ledger position. */
const sameEvent = (a: RecordedEvent, b: RecordedEvent): string | undefined => {
  for (const field of ['id', 'tenantId', 'stream', 'revision', 'type', 'recordedAt', 'prevHash', 'hash'] as const) {
    if (a[field] !== b[field]) return field;
  }
  if (!isDeepStrictEqual(a.data, b.data)) return 'data';
  if (!isDeepStrictEqual(a.metadata, b.metadata)) return 'metadata';
  return undefined;
};

const describe = (e: RecordedEvent) => `${e.stream}@${e.revision} (${e.id})`;

/** How long a read waits for events below the head to become readable (transactions still open elsewhere). */
const VISIBLE_WITHIN_MS = 60_000;

/**
 * `readAll`, but a short page is only the end once it reaches the head position seen now. A
 * PostgreSQL ledger holds back events while an older transaction is open anywhere on the server
 * (readers must never skip one), so right after an append the last events may not be readable
 * yet: wait for them rather than take the ledger as shorter than it is.
 */
export async function readPage(ledger: Ledger, after: LedgerPosition, limit: number): Promise<RecordedEvent[]> {
  const deadline = Date.now() + VISIBLE_WITHIN_MS;
  for (;;) {
    const page = await ledger.readAll(after, limit);
    if (page.length >= limit) return page;
    const head = await ledger.headPosition();
    const reached = page.length > 0 ? page[page.length - 1]!.position : after;
    if (!head || comparePositions(reached, head) >= 0) return page;
    if (Date.now() > deadline) {
      throw new Error(
        `events up to position ${head.commit}/${head.prepare} stay unreadable after ${VISIBLE_WITHIN_MS / 1000} s: a transaction left open on the server?`,
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The newest event of a ledger, or null when empty. Reads just before the head position; when the
 * adapter does not take such a position (or answers something else), reads the whole ledger.
 */
export async function lastEvent(ledger: Ledger, batchSize = 1000): Promise<RecordedEvent | null> {
  const head = await ledger.headPosition();
  if (!head) return null;
  try {
    const [e] = await readPage(ledger, { commit: head.commit, prepare: head.prepare - 1 }, 1);
    if (e && comparePositions(e.position, head) === 0) return e;
  } catch {
    // fall back to a scan
  }
  let last: RecordedEvent | null = null;
  let after = START;
  for (;;) {
    const page = await readPage(ledger, after, batchSize);
    if (page.length === 0) return last;
    last = page[page.length - 1]!;
    after = last.position;
  }
}

/**
 * Where a copy into `destination` resumes in `source`: START for an empty destination, else the
 * source position of the destination's newest event. Refuses (DESTINATION_DIVERGES) a destination
 * whose first or newest event is not the source's event at the same place.
 */
export async function resumePoint(source: Ledger, destination: Ledger, batchSize = 1000): Promise<LedgerPosition> {
  const [firstDestination] = await readPage(destination, START, 1);
  if (!firstDestination) return START;
  const [firstSource] = await readPage(source, START, 1);
  const diverges = (message: string) =>
    new LedgerCopyError(
      'DESTINATION_DIVERGES',
      `the destination holds events that are not from this source: ${message}; copy into an empty ledger`,
    );
  if (!firstSource) throw diverges(`the source is empty and the destination is not`);
  const firstDiff = sameEvent(firstSource, firstDestination);
  if (firstDiff)
    throw diverges(`its first event ${describe(firstDestination)} differs from the source's ${describe(firstSource)} (${firstDiff})`);
  const newest = (await lastEvent(destination, batchSize))!;
  const inSource = (await source.readStream(newest.stream))[newest.revision];
  if (!inSource) throw diverges(`its newest event ${describe(newest)} is not in the source`);
  const diff = sameEvent(inSource, newest);
  if (diff) throw diverges(`its newest event ${describe(newest)} differs from the source's (${diff})`);
  return inSource.position;
}

/**
 * One source transaction as appends: events of one commit and one time, in order. A stream appears
 * once per append, so a transaction that interleaves streams (A, B, A) is cut where it would
 * reorder; each part is atomic.
 */
export function toAppends(group: readonly RecordedEvent[]): { requests: AppendRequest[]; recordedAt: Date; events: RecordedEvent[] }[] {
  const appends: { requests: AppendRequest[]; recordedAt: Date; events: RecordedEvent[] }[] = [];
  let current: { requests: AppendRequest[]; recordedAt: Date; events: RecordedEvent[] } | undefined;
  let streams = new Set<string>();
  for (const e of group) {
    const last = current?.requests[current.requests.length - 1];
    const sameTime = current !== undefined && current.events[0]!.recordedAt === e.recordedAt;
    if (current && last && sameTime && last.stream === e.stream) {
      last.events.push({ id: e.id, type: e.type, data: e.data, metadata: e.metadata });
      current.events.push(e);
      continue;
    }
    if (!current || !sameTime || streams.has(e.stream)) {
      current = { requests: [], recordedAt: new Date(e.recordedAt), events: [] };
      appends.push(current);
      streams = new Set();
    }
    streams.add(e.stream);
    current.requests.push({
      tenantId: e.tenantId,
      stream: e.stream,
      expectedRevision: e.revision === 0 ? 'no_stream' : e.revision - 1,
      events: [{ id: e.id, type: e.type, data: e.data, metadata: e.metadata, authenticator: e.authenticator ?? null }],
    });
    current.events.push(e);
  }
  return appends;
}

/**
 * Copies `source` into `destination` from where the destination stands. Verify with `verifyCopy`.
 *
 * @example
 * const result = await copyLedger(pglite, postgres, { onProgress: ({ done }) => bar.update(done) });
 * const check = await verifyCopy(pglite, postgres);
 */
export async function copyLedger(source: Ledger, destination: Ledger, options: CopyOptions = {}): Promise<CopyResult> {
  const batchSize = options.batchSize ?? 1000;
  const from = await resumePoint(source, destination, batchSize);
  const alreadyThere = comparePositions(from, START) === 0 ? 0 : await countUpTo(source, from, batchSize);
  let copied = 0;
  let appends = 0;
  let after = from;
  let through = from;
  // Events read but not appended yet: the last transaction of a full page may go on in the next.
  let pending: RecordedEvent[] = [];
  for (;;) {
    const page = await readPage(source, after, batchSize);
    const end = page.length < batchSize;
    if (page.length > 0) after = page[page.length - 1]!.position;
    pending = pending.concat(page);
    // Whole transactions only: hold back the last one unless the source ended.
    let cut = pending.length;
    if (!end && pending.length > 0) {
      const lastCommit = pending[pending.length - 1]!.position.commit;
      while (cut > 0 && pending[cut - 1]!.position.commit === lastCommit) cut--;
    }
    const ready = pending.slice(0, cut);
    pending = pending.slice(cut);
    let i = 0;
    while (i < ready.length) {
      let j = i + 1;
      while (j < ready.length && ready[j]!.position.commit === ready[i]!.position.commit) j++;
      for (const append of toAppends(ready.slice(i, j))) {
        let result;
        try {
          result = await destination.append(append.requests, append.recordedAt);
        } catch (error) {
          if (error instanceof WrongExpectedRevisionError) {
            throw new LedgerCopyError(
              'DESTINATION_DIVERGES',
              `the destination changed during the copy (${error.message}); is something else writing to it?`,
            );
          }
          throw error;
        }
        appends++;
        const problems: string[] = [];
        // By id: an adapter answers an append's events in ledger order, which across streams need
        // not be the order they were sent in (EventStoreDB's multi-stream append does not promise it).
        const placed = new Map(result.events.map((r) => [r.id, r]));
        append.events.forEach((e) => {
          const got = placed.get(e.id);
          if (!got || got.id !== e.id || got.hash !== e.hash) {
            problems.push(`${describe(e)}: hash ${got?.hash ?? 'missing'} at the destination, ${e.hash} at the source`);
          }
        });
        if (problems.length > 0) {
          throw new LedgerCopyError(
            'COPY_MISMATCH',
            `an appended event's hash differs from the source's (the source's events do not match their hashes, or the adapters hash differently)`,
            problems,
          );
        }
        copied += append.events.length;
        through = append.events[append.events.length - 1]!.position;
        options.onProgress?.({ done: alreadyThere + copied, copied });
      }
      i = j;
      const finished = end && pending.length === 0 && i === ready.length;
      if (!finished && ((options.limit !== undefined && copied >= options.limit) || options.stop?.()))
        return { alreadyThere, copied, appends, complete: false, through };
    }
    if (end && pending.length === 0) return { alreadyThere, copied, appends, complete: true, through };
  }
}

/** How many source events are at or before `position`. */
async function countUpTo(ledger: Ledger, position: LedgerPosition, batchSize: number): Promise<number> {
  let n = 0;
  let after = START;
  for (;;) {
    const page = await readPage(ledger, after, batchSize);
    for (const e of page) {
      if (comparePositions(e.position, position) > 0) return n;
      n++;
    }
    if (page.length < batchSize) return n;
    after = page[page.length - 1]!.position;
  }
}

export interface VerifyResult {
  ok: boolean;
  sourceEvents: number;
  destinationEvents: number;
  streams: number;
  /** What differs, at most `MAX_PROBLEMS` of them; `moreProblems` counts the rest. */
  problems: string[];
  moreProblems: number;
  /** A source position's place at the destination: the destination position of the last event at or before it. */
  translate(position: LedgerPosition): LedgerPosition;
}

const MAX_PROBLEMS = 20;

/**
 * Reads both ledgers in order, side by side, and checks that the destination holds exactly the
 * source's events: same count, and each event equal (id, stream, revision, type, data, metadata,
 * time, prevHash, hash), its hash recomputed from its content, and its stream's chain unbroken
 * (revisions from 0, each prevHash the previous event's hash).
 *
 * `positions` are source positions (checkpoints kept beside the ledger) that `translate` answers
 * for the destination afterwards. `upTo` (a copy's `through`) ends the source there: events
 * written to a live source since the copy are not the destination's to hold.
 *
 * @example
 * const check = await verifyCopy(source, destination);
 * if (!check.ok) console.error(check.problems.join('\n'));
 */
export async function verifyCopy(
  source: Ledger,
  destination: Ledger,
  options: { batchSize?: number; positions?: readonly LedgerPosition[]; upTo?: LedgerPosition; onProgress?(checked: number): void } = {},
): Promise<VerifyResult> {
  const batchSize = options.batchSize ?? 1000;
  const problems: string[] = [];
  let moreProblems = 0;
  const problem = (p: string) => (problems.length < MAX_PROBLEMS ? problems.push(p) : moreProblems++);
  const chains = new Map<string, { revision: number; hash: string }>();
  // Source positions to translate, in order; each resolves when the source passes it.
  const wanted = [...(options.positions ?? [])].sort(comparePositions);
  const translated = new Map<string, LedgerPosition>();
  const key = (p: LedgerPosition) => `${p.commit}/${p.prepare}`;
  let w = 0;
  let lastDestination: LedgerPosition = START;

  const reader = (ledger: Ledger) => {
    let buffer: RecordedEvent[] = [];
    let after = START;
    let ended = false;
    return async (): Promise<RecordedEvent | undefined> => {
      if (buffer.length === 0 && !ended) {
        buffer = await readPage(ledger, after, batchSize);
        if (buffer.length < batchSize) ended = true;
        if (buffer.length > 0) after = buffer[buffer.length - 1]!.position;
      }
      return buffer.shift();
    };
  };
  const readSource = reader(source);
  const upTo = options.upTo;
  let sourceEnded = false;
  const nextSource = async (): Promise<RecordedEvent | undefined> => {
    if (sourceEnded) return undefined;
    const e = await readSource();
    if (!e || (upTo && comparePositions(e.position, upTo) > 0)) sourceEnded = true;
    return sourceEnded ? undefined : e;
  };
  const nextDestination = reader(destination);
  let sourceEvents = 0;
  let destinationEvents = 0;
  for (;;) {
    const s = await nextSource();
    const d = await nextDestination();
    if (!s && !d) break;
    if (s) {
      sourceEvents++;
      while (w < wanted.length && comparePositions(wanted[w]!, s.position) < 0) translated.set(key(wanted[w++]!), lastDestination);
    }
    if (d) {
      destinationEvents++;
      if (eventHash(d) !== d.hash) problem(`${describe(d)}: its hash does not match its content at the destination`);
      const prev = chains.get(d.stream);
      const expectedRevision = prev ? prev.revision + 1 : 0;
      if (d.revision !== expectedRevision)
        problem(`${describe(d)}: revision ${d.revision} at the destination, expected ${expectedRevision}`);
      if (d.prevHash !== (prev?.hash ?? null))
        problem(`${describe(d)}: prevHash does not name the previous event of its stream at the destination`);
      chains.set(d.stream, { revision: d.revision, hash: d.hash });
      lastDestination = d.position;
    }
    if (s && d) {
      const diff = sameEvent(s, d);
      if (diff) problem(`event ${sourceEvents}: ${describe(d)} at the destination differs from ${describe(s)} at the source (${diff})`);
    }
    if ((sourceEvents % batchSize === 0 || !s || !d) && options.onProgress) options.onProgress(Math.max(sourceEvents, destinationEvents));
  }
  while (w < wanted.length) translated.set(key(wanted[w++]!), lastDestination);
  if (sourceEvents !== destinationEvents) problem(`the source holds ${sourceEvents} events, the destination ${destinationEvents}`);
  return {
    ok: problems.length === 0,
    sourceEvents,
    destinationEvents,
    streams: chains.size,
    problems,
    moreProblems,
    translate(position) {
      if (comparePositions(position, START) === 0) return START;
      const t = translated.get(key(position));
      if (!t) throw new UnverifiedPositionError(`position ${key(position)} was not given to verifyCopy`);
      return t;
    },
  };
}
