import {
  BACKWARDS,
  END,
  FORWARDS,
  PersistentSubscriptionExistsError,
  STREAM_STATE,
  StreamNotFoundError,
  UnsupportedError,
  persistentSubscriptionToAllSettingsFromDefaults,
  streamNameFilter,
  type AllStreamResolvedEvent,
  type AppendRecordInput,
  type AppendStreamRequest,
  type AppendStreamState,
  type ConsistencyCheck,
  type KurrentDBClient,
  type ReadPosition,
} from '@kurrent/kurrentdb-client';
import { chainEvents } from '../event-hash.js';
import type {
  Closable,
  DurableFeed,
  DurableFeedLedger,
  DurableFeedMessage,
  PingableLedger,
  WatchableLedger,
  WatchLog,
} from '../ledger-feeds.js';
import {
  comparePositions,
  LedgerUnavailableError,
  WrongExpectedRevisionError,
  type AppendRequest,
  type AppendResult,
  type AuthenticateAppend,
  type ExpectedRevision,
  type LedgerPosition,
  type RecordedEvent,
} from '../ledger.port.js';
import {
  fromEsdbEvent,
  fromEsdbPosition,
  isEsdbUnavailable,
  ledgerStreamsRegex,
  mapEsdbError,
  unconfirmedAppend,
  streamCarriesTenant,
  streamStateFor,
  tenantStreamsRegex,
  toEsdbPosition,
  toEventData,
  type UnplacedEvent,
} from './eventstoredb.records.js';

export interface EventStoreLedgerOptions {
  /**
   * Prefix of every ESDB stream this ledger writes and reads, so that several ledgers can share
   * one cluster (each test run takes its own). Empty by default.
   */
  streamPrefix?: string;
  /** Attempts of one append whose 'any' streams moved between reading their heads and writing. */
  maxAppendAttempts?: number;
  /** Signs each append's events (the service gives the log's signing key); none: events carry no authenticator. */
  authenticate?: AuthenticateAppend;
}

/** Streams read at once when append looks up heads and positions. */
const READ_CONCURRENCY = 32;
/** Events per page when readAll or headPosition pass records that are not the ledger's. */
const SCAN_PAGE = 256;
/** How long `ping` waits for the server. */
const PING_TIMEOUT_MS = 3_000;

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

const jitter = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * Math.min(50, 2 ** attempt))));

/**
 * The ledger on EventStoreDB / KurrentDB (25.1 or later: appends to several streams are one
 * atomic multi-stream append). Hashes and per-stream chains are the PostgreSQL adapter's: the
 * same envelope, the same `eventHash` (docs/hashing.md); the stored form is in
 * `eventstoredb.records.ts` and docs/decisions/0005-eventstoredb-ledger.md.
 *
 * Chaining needs each stream's head hash, so append reads the heads first and appends with the
 * stream state pinned to the revisions it read: a concurrent writer makes ESDB refuse the append,
 * which is WrongExpectedRevisionError for a caller that expected a revision, and a new attempt
 * (bounded) for 'any'. Positions are ESDB's $all commit/prepare positions.
 *
 * @example
 * const client = KurrentDBClient.connectionString('kurrentdb://localhost:2113?tls=false');
 * const ledger = new EventStoreLedger(client);
 * await ledger.append([{ tenantId, stream: `consent-${tenantId}-${id}`, expectedRevision: 'no_stream', events }], new Date());
 */
export class EventStoreLedger implements WatchableLedger, DurableFeedLedger, PingableLedger {
  private readonly prefix: string;
  private readonly maxAttempts: number;
  private readonly authenticate: AuthenticateAppend | undefined;
  /** Whether the server has appendRecords (KurrentDB 26.1+), known after the first try. */
  private recordsApi: boolean | undefined;

  constructor(
    private readonly client: KurrentDBClient,
    options: EventStoreLedgerOptions = {},
  ) {
    this.prefix = options.streamPrefix ?? '';
    this.maxAttempts = options.maxAppendAttempts ?? 50;
    this.authenticate = options.authenticate;
  }

  private esdbStream(stream: string): string {
    return this.prefix + stream;
  }

  async append(requests: AppendRequest[], recordedAt: Date): Promise<AppendResult> {
    if (requests.length === 0 || requests.every((r) => r.events.length === 0)) {
      throw new Error('append needs at least one event');
    }
    const streams = requests.map((r) => r.stream);
    if (new Set(streams).size !== streams.length) throw new Error('append: a stream may appear once per call');
    for (const r of requests) {
      // headPosition(tenantId) finds a tenant's events by stream name.
      if (!streamCarriesTenant(r.stream, r.tenantId))
        throw new Error(`append: stream ${r.stream} does not carry its tenant (<kind>-${r.tenantId}-<id>)`);
    }
    const at = recordedAt.toISOString();
    const expectedOf = (stream: string): ExpectedRevision | undefined => requests.find((r) => r.stream === stream)?.expectedRevision;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.appendOnce(requests, at);
      } catch (error) {
        const mapped = unconfirmedAppend(error, mapEsdbError(error, this.prefix, expectedOf));
        if (mapped instanceof WrongExpectedRevisionError && expectedOf(mapped.stream) === 'any' && attempt < this.maxAttempts) {
          // Another writer moved a stream we append to with 'any' after we read its head: read again.
          await jitter(attempt);
          continue;
        }
        throw mapped;
      }
    }
  }

  /** The last event of a stream (revision and hash), or null when it does not exist. */
  private async head(stream: string): Promise<{ revision: number; hash: string } | null> {
    try {
      for await (const resolved of this.client.readStream(this.esdbStream(stream), {
        direction: BACKWARDS,
        fromRevision: END,
        maxCount: 1,
        requiresLeader: true,
      })) {
        const e = fromEsdbEvent(resolved.event, this.prefix, resolved.event?.position ?? { commit: 0n, prepare: 0n });
        if (!e) throw new Error(`stream ${stream}: its last event is not a ledger event`);
        return { revision: e.revision, hash: e.hash };
      }
      return null;
    } catch (error) {
      if (error instanceof StreamNotFoundError) return null;
      throw error;
    }
  }

  private async appendOnce(requests: AppendRequest[], at: string): Promise<AppendResult> {
    // A stream expected not to exist has no head to chain to: nothing to read, unless the request
    // is only a condition (no events), which ESDB cannot check atomically: it is checked here.
    const heads = await mapLimit(requests, READ_CONCURRENCY, (r) =>
      r.expectedRevision === 'no_stream' && r.events.length > 0 ? Promise.resolve(null) : this.head(r.stream),
    );
    const planned: { request: AppendRequest; first: number; events: UnplacedEvent[]; expectedState: AppendStreamState }[] = [];
    const batch: AppendStreamRequest[] = [];
    const checks: ConsistencyCheck[] = [];
    requests.forEach((request, i) => {
      const head = heads[i] ?? null;
      const actual = head?.revision ?? null;
      const expected = request.expectedRevision;
      // Refuse before writing what cannot hold; ESDB checks again at the append.
      if (typeof expected === 'number' && actual !== expected) throw new WrongExpectedRevisionError(request.stream, expected, actual);
      if (expected === 'no_stream' && actual !== null) throw new WrongExpectedRevisionError(request.stream, expected, actual);
      const first = actual === null ? 0 : actual + 1;
      // The canonical texts (json) are the PostgreSQL ledger's; EventStoreDB stores the envelope's objects.
      const events: UnplacedEvent[] = chainEvents(request, at, head ?? undefined).map(({ json: _texts, ...e }, k) => ({
        ...e,
        authenticator: request.events[k]!.authenticator ?? null,
      }));
      if (events.length > 0 || expected !== 'any') {
        checks.push({ type: STREAM_STATE, streamName: this.esdbStream(request.stream), expectedState: streamStateFor(expected, actual) });
      }
      if (events.length === 0) return;
      planned.push({ request, first, events, expectedState: streamStateFor(expected, actual) });
    });
    // One authenticator group per append: every event of this call, in the order written.
    if (this.authenticate) {
      const all = planned.flatMap((p) => p.events);
      this.authenticate(all.map((e) => e.hash)).forEach((a, i) => (all[i]!.authenticator = a));
    }
    for (const p of planned) {
      batch.push({ streamName: this.esdbStream(p.request.stream), expectedState: p.expectedState, events: p.events.map(toEventData) });
    }
    await this.write(batch, checks, planned.length < requests.length);
    // The append answers revisions, not each event's $all position: read the events back. They are
    // committed now, so a failure to read them is never "the ledger is unavailable" (nothing
    // written, try again): a read that failed for a moment is tried again, and one that keeps
    // failing is said as what it is.
    const placed = await mapLimit(planned, READ_CONCURRENCY, (p) =>
      committedReadBack(() => this.readBack(p.request.stream, p.request.expectedRevision, p.first, p.events)),
    );
    const events = placed.flat().sort((a, b) => comparePositions(a.position, b.position));
    return { events, position: events[events.length - 1]!.position };
  }

  /**
   * One atomic append. A request without events is a condition on its stream: KurrentDB 26.1+
   * checks it inside the append (appendRecords with consistency checks); on 25.x it was checked
   * when the heads were read, and the append is a multi-stream append.
   */
  private async write(batch: AppendStreamRequest[], checks: ConsistencyCheck[], hasConditions: boolean): Promise<void> {
    if (hasConditions && this.recordsApi !== false) {
      const records: AppendRecordInput[] = batch.flatMap((b) => b.events.map((record) => ({ streamName: b.streamName, record })));
      try {
        await this.client.appendRecords(records, checks);
        this.recordsApi = true;
        return;
      } catch (error) {
        if (!(error instanceof UnsupportedError)) throw error;
        this.recordsApi = false;
      }
    }
    await this.client.multiStreamAppend(batch);
  }

  private async readBack(stream: string, expected: ExpectedRevision, first: number, appended: UnplacedEvent[]): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    for await (const resolved of this.client.readStream(this.esdbStream(stream), {
      direction: FORWARDS,
      fromRevision: BigInt(first),
      maxCount: appended.length,
      requiresLeader: true,
    })) {
      const e = fromEsdbEvent(resolved.event, this.prefix);
      const mine = appended[out.length];
      if (e && mine && e.id === mine.id && e.hash !== mine.hash) {
        // ESDB took the append as a repeat of one it already holds (same event ids) and wrote
        // nothing: to this ledger, as to the PostgreSQL one, the stream had moved on.
        throw new WrongExpectedRevisionError(stream, expected, (await this.head(stream))?.revision ?? null);
      }
      if (!e || !mine || e.id !== mine.id) throw new Error(`stream ${stream}@${first + out.length}: the appended event did not read back`);
      // The data as the server stores it (JSON: -0 reads back as 0), with the position it was given.
      out.push(e);
    }
    if (out.length !== appended.length) throw new Error(`stream ${stream}: ${out.length} of ${appended.length} appended events read back`);
    return out;
  }

  async readStream(stream: string): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(this.esdbStream(stream), { direction: FORWARDS, fromRevision: 'start' })) {
        const e = fromEsdbEvent(resolved.event, this.prefix);
        if (e) out.push(e);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw mapEsdbError(error, this.prefix, () => undefined);
    }
    return out;
  }

  /**
   * Events strictly after `after`. ESDB reads $all from a position inclusively, and a page may
   * hold records that are not the ledger's (another application's streams): those are passed, and
   * reading goes on until `limit` events or the end.
   */
  async readAll(after: LedgerPosition, limit: number): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    let from: ReadPosition = toEsdbPosition(after);
    let floor = after;
    try {
      for (;;) {
        // One more than wanted: the record at `from` itself may come first.
        const pageSize = limit - out.length + 1;
        let read = 0;
        let last: AllStreamResolvedEvent | undefined;
        for await (const resolved of this.client.readAll({
          fromPosition: from,
          maxCount: pageSize,
          direction: FORWARDS,
          filter: streamNameFilter({ regex: ledgerStreamsRegex(this.prefix) }),
        })) {
          read += 1;
          last = resolved;
          const e = fromEsdbEvent(resolved.event, this.prefix);
          if (!e || comparePositions(e.position, floor) <= 0) continue;
          out.push(e);
          if (out.length >= limit) return out;
        }
        if (read < pageSize || !last?.event) return out;
        // The page held records that are not the ledger's: read on from its last record.
        const p = last.event.position;
        from = p;
        floor = fromEsdbPosition(p);
      }
    } catch (error) {
      throw mapEsdbError(error, this.prefix, () => undefined);
    }
  }

  /**
   * The newest ledger event's position, of one tenant when given: a backwards read of $all
   * filtered on the server by stream name (stream names carry their tenant).
   */
  async headPosition(tenantId?: string): Promise<LedgerPosition | null> {
    const regex = tenantId === undefined ? ledgerStreamsRegex(this.prefix) : tenantStreamsRegex(this.prefix, tenantId);
    let from: ReadPosition = END;
    try {
      for (;;) {
        let read = 0;
        let last: AllStreamResolvedEvent | undefined;
        for await (const resolved of this.client.readAll({
          fromPosition: from,
          maxCount: SCAN_PAGE,
          direction: BACKWARDS,
          filter: streamNameFilter({ regex }),
          requiresLeader: true,
        })) {
          read += 1;
          last = resolved;
          const e = fromEsdbEvent(resolved.event, this.prefix);
          if (e && (tenantId === undefined || e.tenantId === tenantId)) return e.position;
        }
        if (read < SCAN_PAGE || !last?.event) return null;
        from = last.event.position;
      }
    } catch (error) {
      throw mapEsdbError(error, this.prefix, () => undefined);
    }
  }

  /**
   * Answers when the server serves reads of $all (for `/ready`), within `timeoutMs`: reads go
   * through the client's native bridge, which does not take a deadline.
   */
  async ping(timeoutMs = PING_TIMEOUT_MS): Promise<void> {
    const read = (async () => {
      for await (const resolved of this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1 })) void resolved;
    })();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new LedgerUnavailableError(`EventStoreDB did not answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([read, timeout]);
    } catch (error) {
      read.catch(() => undefined);
      throw mapEsdbError(error, this.prefix, () => undefined);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A catch-up subscription to $all, from its end, filtered to the ledger's streams: each event
   * calls `onAppended`. When the subscription drops (server restart, leader change) it subscribes
   * again after a pause; followers poll in the meantime.
   */
  watch(onAppended: () => void, log?: WatchLog): Closable {
    let closed = false;
    let current: { unsubscribe(): Promise<void> } | undefined;
    let retry: NodeJS.Timeout | undefined;
    let backoff = 0;
    const start = () => {
      if (closed) return;
      const subscription = this.client.subscribeToAll({
        fromPosition: END,
        filter: streamNameFilter({ regex: ledgerStreamsRegex(this.prefix) }),
      });
      current = subscription;
      subscription.on('data', () => {
        backoff = 0;
        onAppended();
      });
      const again = (error?: Error) => {
        if (closed || current !== subscription) return;
        current = undefined;
        backoff = Math.min(5_000, backoff === 0 ? 100 : backoff * 2);
        if (error) log?.warn({ err: error, retryInMs: backoff }, 'EventStoreDB subscription dropped; followers poll until it is back');
        retry = setTimeout(start, backoff);
        retry.unref();
      };
      subscription.on('error', (error) => again(error));
      subscription.on('end', () => again());
    };
    start();
    return {
      close: async () => {
        closed = true;
        clearTimeout(retry);
        await current?.unsubscribe().catch(() => undefined);
        current = undefined;
      },
    };
  }

  /** The persistent subscription group's name on the server (prefixed like the streams). */
  groupName(group: string): string {
    return `${this.prefix}${group}`;
  }

  /**
   * Joins a persistent subscription to $all (filtered to the ledger's streams), creating the group
   * at the end of $all when it does not exist, so that it hands out only later events.
   */
  async openDurableFeed(group: string): Promise<DurableFeed> {
    const name = this.groupName(group);
    try {
      await this.client.createPersistentSubscriptionToAll(
        name,
        // 100 tries, the consumer pausing up to 5 s before each nack: minutes of a store outage before an event is parked.
        persistentSubscriptionToAllSettingsFromDefaults({ startFrom: END, maxRetryCount: 100, messageTimeout: 30_000 }),
        { filter: streamNameFilter({ regex: ledgerStreamsRegex(this.prefix) }) },
      );
    } catch (error) {
      if (!(error instanceof PersistentSubscriptionExistsError)) throw mapEsdbError(error, this.prefix, () => undefined);
    }
    const subscription = this.client.subscribeToPersistentSubscriptionToAll(name, { bufferSize: 64 });
    const prefix = this.prefix;
    async function* messages(): AsyncGenerator<DurableFeedMessage> {
      try {
        for await (const resolved of subscription) {
          yield {
            event: fromEsdbEvent(resolved.event, prefix),
            retryCount: resolved.retryCount,
            ack: () => subscription.ack(resolved),
            nack: (reason: string) => subscription.nack('retry', reason.slice(0, 500), resolved),
          };
        }
      } catch (error) {
        throw mapEsdbError(error, prefix, () => undefined);
      }
    }
    const iterator = messages();
    return {
      [Symbol.asyncIterator]: () => iterator,
      close: async () => {
        // Ends the server's stream, which ends the iteration in progress; `return` ends one not begun.
        await subscription.unsubscribe().catch(() => undefined);
        void iterator.return(undefined).catch(() => undefined);
      },
    };
  }
}

export { isEsdbUnavailable };

/** An error of the read back after a committed append: not the port's "nothing was written". */
export class CommittedReadBackError extends Error {
  override readonly name = 'CommittedReadBackError';
}

/**
 * Reads back what an append committed: an outage or a leader change during the read is waited out
 * (about 6 s in all); past that, or for any other failure but the ledger's own refusal of a repeat,
 * CommittedReadBackError, so that no caller takes the write for one that did not happen.
 */
export async function committedReadBack<T>(read: () => Promise<T>, tries = 6): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) throw error;
      if (isEsdbUnavailable(error) && attempt < tries) {
        await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
        continue;
      }
      throw new CommittedReadBackError('the append was committed, but its events could not be read back for their positions', {
        cause: error,
      });
    }
  }
}
