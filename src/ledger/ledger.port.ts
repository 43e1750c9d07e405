/**
 * The ledger: an append-only, hashed log of events, the service's only source of truth.
 * Adapters: PostgreSQL (server or embedded PGlite) and EventStoreDB / KurrentDB (`eventstoredb/`).
 * All run one contract suite (`ledger.contract.ts`). Optional capabilities beside the port (push,
 * durable feeds, ping) are in `ledger-feeds.ts`.
 */

/** Where an event sits in the whole ledger. Ordered by `commit`, then `prepare`. */
export interface LedgerPosition {
  /** PostgreSQL: the appending transaction's id. EventStoreDB: the commit position. */
  commit: number;
  /** PostgreSQL: the row's sequence number. EventStoreDB: the prepare position. */
  prepare: number;
}

export const START: LedgerPosition = { commit: 0, prepare: 0 };

export const comparePositions = (a: LedgerPosition, b: LedgerPosition): number =>
  a.commit !== b.commit ? a.commit - b.commit : a.prepare - b.prepare;

/** `no_stream`: the stream must not exist; `any`: no check; a number: the revision of the stream's last event. */
export type ExpectedRevision = number | 'no_stream' | 'any';

export interface NewEvent {
  /** Event id; generated when absent. */
  id?: string;
  type: string;
  data: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  /**
   * An authenticator made when this very event was first appended (`ledger copy`: the hash is the
   * same, so it still verifies): stored as is by a ledger given no authenticate function.
   */
  authenticator?: string | null;
}

export interface AppendRequest {
  tenantId: string;
  /**
   * The stream, named `<kind>-<tenantId>-<id>` as every stream helper names them: an adapter may
   * find a tenant's events by stream name (the EventStoreDB one does, for `headPosition`).
   */
  stream: string;
  expectedRevision: ExpectedRevision;
  /**
   * The events to append. Empty makes the request a condition: nothing is written to the stream,
   * but the whole append is refused unless the stream is at `expectedRevision` when the append
   * reads the heads (a check, not a lock: a writer may move the stream before the append commits).
   */
  events: NewEvent[];
}

export interface RecordedEvent {
  id: string;
  tenantId: string;
  stream: string;
  /** 0-based index of the event in its stream. */
  revision: number;
  type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  /** ISO 8601 UTC with milliseconds. */
  recordedAt: string;
  /** `hash` of the stream's previous event; null for the first. */
  prevHash: string | null;
  /** eventHash: hex SHA-256 of the JCS of the event envelope (see docs/hashing.md). */
  hash: string;
  /**
   * The appender's signature covering `hash` (src/transparency/append-authenticator.ts), outside
   * the hashed envelope; null for events appended before authenticators existed, or by a ledger
   * given no authenticate function.
   */
  authenticator?: string | null;
  position: LedgerPosition;
}

/**
 * Signs one append group: given its events' hashes in insert order, answers an authenticator for
 * each. Adapters call it once per transaction they commit, and store each answer with its event.
 */
export interface AuthenticateAppend {
  (eventHashes: readonly string[]): string[];
  /**
   * The signing key's raw Ed25519 public key, base64. A ledger in the database that keeps the key
   * history appends only while it is the log's current key, checked in the append's transaction.
   */
  readonly publicKey?: string;
}

export interface AppendResult {
  events: RecordedEvent[];
  /** Position of the last appended event. */
  position: LedgerPosition;
}

/** Thrown when a stream's revision is not the expected one. Command handlers retry on it. */
export class WrongExpectedRevisionError extends Error {
  override readonly name = 'WrongExpectedRevisionError';
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | null,
  ) {
    super(`stream ${stream}: expected revision ${String(expected)}, found ${actual ?? 'no stream'}`);
  }
}

/**
 * Thrown by a command whose streams kept changing under every attempt: nothing was written, and a
 * retry may land (409 CONCURRENCY_CONFLICT).
 */
export class ConcurrencyError extends Error {
  override readonly name = 'ConcurrencyError';
}

/**
 * Thrown when the ledger cannot be reached: answer 503. `unconfirmed`: an append that was sent
 * lost its answer (a connection lost or a deadline passed around its commit), so it may have
 * been recorded; otherwise nothing was written.
 */
export class LedgerUnavailableError extends Error {
  override readonly name = 'LedgerUnavailableError';
  readonly unconfirmed: boolean;

  constructor(message: string, options?: ErrorOptions & { unconfirmed?: boolean }) {
    super(message, options);
    this.unconfirmed = options?.unconfirmed ?? false;
  }
}

/**
 * Thrown when the key that signs appends is no longer the log's current key (`keys rotate-signing`
 * ran while this process ran): nothing was written, and nothing will be until it is restarted.
 */
export class AppendKeyRetiredError extends Error {
  override readonly name = 'AppendKeyRetiredError';
}

/**
 * Thrown when the ledger refuses an append as larger than it takes at once (EventStoreDB's
 * MaxAppendSize, 1 MiB by default): nothing was written, answer 413.
 */
export class LedgerAppendTooLargeError extends Error {
  override readonly name = 'LedgerAppendTooLargeError';
}

export interface Ledger {
  /**
   * Appends events to one or more streams, atomically: all requests land, or none. Once it
   * resolves, the events are committed. Concurrent calls are answered each by its own
   * expectations (an adapter may commit them together).
   *
   * @example
   * await ledger.append([{ tenantId, stream: 'consent-t-1', expectedRevision: 'no_stream',
   *   events: [{ type: 'ConsentRecorded', data: { consentId: '1' } }] }], new Date());
   */
  append(requests: AppendRequest[], recordedAt: Date): Promise<AppendResult>;

  /** All events of a stream, oldest first; empty when the stream does not exist. */
  readStream(stream: string): Promise<RecordedEvent[]>;

  /**
   * The events of several streams at once, each as `readStream` answers it (a stream that does
   * not exist: empty). Optional: without it, callers read the streams one by one.
   */
  readStreams?(streams: readonly string[]): Promise<Map<string, RecordedEvent[]>>;

  /**
   * Events strictly after `after`, in ledger order, at most `limit`. Never skips an event that a
   * later call could return: positions of events still being committed are never passed.
   */
  readAll(after: LedgerPosition, limit: number): Promise<RecordedEvent[]>;

  /** Position of the newest event visible now (of one tenant when given), or null. */
  headPosition(tenantId?: string): Promise<LedgerPosition | null>;

  /**
   * How many events `readAll(after, cap)` would answer, without reading them. Optional: without
   * it, callers count a read (a follower's lag on /metrics).
   */
  countAfter?(after: LedgerPosition, cap: number): Promise<number>;
  /**
   * The events appended after `after`, whether readers may pass them yet or not (committed
   * behind a transaction still open, which `readAll` waits for): how many, up to `cap`, and when
   * the first was appended. What a follower still has to pass, for its lag. Optional: without
   * it, its lag is what `readAll` and `countAfter` see.
   */
  appendedAfter?(after: LedgerPosition, cap: number): Promise<{ events: number; firstAt: string | null }>;
}

/** Events after `after`, counted up to `cap`: with one count where the ledger can, else by reading them. */
export async function countAfter(ledger: Pick<Ledger, 'readAll' | 'countAfter'>, after: LedgerPosition, cap: number): Promise<number> {
  if (ledger.countAfter) return ledger.countAfter(after, cap);
  return (await ledger.readAll(after, cap)).length;
}

/** Several streams' events: with one read where the ledger can (`readStreams`), else one by one. */
export async function readStreams(
  ledger: Pick<Ledger, 'readStream' | 'readStreams'>,
  streams: readonly string[],
): Promise<Map<string, RecordedEvent[]>> {
  if (ledger.readStreams) return ledger.readStreams(streams);
  return new Map(await Promise.all(streams.map(async (s) => [s, await ledger.readStream(s)] as const)));
}
