import {
  AppendConsistencyViolationError,
  AppendRecordSizeExceededError,
  DeadlineExceededError,
  MaxAppendSizeExceededError,
  NotLeaderError,
  TimeoutError,
  UnavailableError,
  TransactionMaxSizeExceededError,
  UnsupportedError,
  WrongExpectedVersionError,
  type AppendStreamState,
  type EventData,
  type Position,
  type ReadPosition,
  type RecordedEvent as EsdbRecordedEvent,
} from '@kurrent/kurrentdb-client';
import {
  LedgerAppendTooLargeError,
  LedgerUnavailableError,
  START,
  WrongExpectedRevisionError,
  type ExpectedRevision,
  type LedgerPosition,
  type RecordedEvent,
} from '../ledger.port.js';
import { isObject } from '../../common/objects.js';

/**
 * How a ledger event sits in EventStoreDB (docs/decisions/0005-eventstoredb-ledger.md).
 *
 * - ESDB event id = our event id, event type = our type, stream = (prefix +) our stream,
 *   stream revision = our revision, $all position = our position.
 * - The JSON data of the ESDB event is this envelope: the event's own data and metadata, and what
 *   the ledger adds (tenant, time, chain). ESDB's metadata is left empty: multi-stream appends
 *   take string values only there, and our metadata is any JSON.
 */
export interface StoredEnvelope {
  tenantId: string;
  recordedAt: string;
  prevHash: string | null;
  hash: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  /** The appender's signature covering `hash` (outside it); absent before authenticators existed. */
  authenticator?: string;
}

/** What append computed for one event: the whole recorded event but its position. */
export type UnplacedEvent = Omit<RecordedEvent, 'position'>;

const HASH = /^[0-9a-f]{64}$/;
/** Largest position this port carries exactly (ESDB positions are byte offsets: 8 PiB). */
const MAX_POSITION = BigInt(Number.MAX_SAFE_INTEGER);

/** The ESDB event for one ledger event (always JSON). */
export function toEventData(event: UnplacedEvent): EventData {
  const envelope: StoredEnvelope = {
    tenantId: event.tenantId,
    recordedAt: event.recordedAt,
    prevHash: event.prevHash,
    hash: event.hash,
    data: event.data,
    metadata: event.metadata,
    ...(event.authenticator ? { authenticator: event.authenticator } : {}),
  };
  return { id: event.id, contentType: 'application/json', type: event.type, data: { ...envelope }, metadata: undefined };
}

/** Our position of an ESDB position. Throws past 2^53 (a log of 8 PiB), where numbers stop being exact. */
export function fromEsdbPosition(p: Position): LedgerPosition {
  if (p.commit > MAX_POSITION || p.prepare > MAX_POSITION || p.commit < 0n || p.prepare < 0n) {
    throw new RangeError(`EventStoreDB position ${p.commit}/${p.prepare} is outside what the ledger port carries`);
  }
  return { commit: Number(p.commit), prepare: Number(p.prepare) };
}

/** The ESDB read position of ours: START for the ledger's start, else the exact log position. */
export function toEsdbPosition(p: LedgerPosition): ReadPosition {
  if (p.commit === START.commit && p.prepare === START.prepare) return 'start';
  return { commit: BigInt(p.commit), prepare: BigInt(p.prepare) };
}

/** A tenant's id as stream names carry it. */
const TENANT_ID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/**
 * A ledger stream's name, as every stream helper builds it: `<kind>-<tenantId>-<id>`, its kind in
 * lowercase letters. Checked after the prefix, so that another ledger's streams on the cluster
 * (`eu.consent-…` under another prefix, seen from one without) are not taken for this one's.
 */
const LEDGER_STREAM_NAME = `[a-z]+-${TENANT_ID}-`;
const LEDGER_STREAM = new RegExp(`^${LEDGER_STREAM_NAME}`);

/** A stream this ledger wrote (an append's error names it) without its prefix. */
const withoutPrefix = (esdbStream: string, prefix: string): string | null =>
  esdbStream.startsWith(prefix) ? esdbStream.slice(prefix.length) : null;

/** The ledger's stream name of an ESDB stream, or null when the stream is not one of the ledger's under `prefix`. */
export function ledgerStreamOf(esdbStream: string, prefix: string): string | null {
  const stream = withoutPrefix(esdbStream, prefix);
  return stream !== null && LEDGER_STREAM.test(stream) ? stream : null;
}

/**
 * The ledger event an ESDB event holds, or null when it is not one of ours (system events, other
 * applications' streams, another prefix). `position` is taken from the event when it has one.
 */
export function fromEsdbEvent(event: EsdbRecordedEvent | undefined, prefix: string, position?: Position): RecordedEvent | null {
  if (!event) return null;
  const stream = ledgerStreamOf(event.streamId, prefix);
  if (stream === null || event.type.startsWith('$')) return null;
  let body: unknown = event.data;
  if (body instanceof Uint8Array) {
    try {
      body = JSON.parse(Buffer.from(body).toString('utf8'));
    } catch {
      return null;
    }
  }
  if (!isObject(body)) return null;
  const { tenantId, recordedAt, prevHash, hash, data, metadata, authenticator } = body;
  if (typeof tenantId !== 'string' || typeof recordedAt !== 'string' || typeof hash !== 'string' || !HASH.test(hash)) return null;
  if (!(prevHash === null || typeof prevHash === 'string') || !isObject(data) || !isObject(metadata)) return null;
  const at = position ?? event.position;
  if (!at) throw new Error(`EventStoreDB answered event ${event.id} without its log position (the server must be 22.6 or later)`);
  return {
    id: event.id,
    tenantId,
    stream,
    revision: Number(event.revision),
    type: event.type,
    data,
    metadata,
    recordedAt,
    prevHash,
    hash,
    authenticator: typeof authenticator === 'string' ? authenticator : null,
    position: fromEsdbPosition(at),
  };
}

/**
 * The ESDB stream state to append with. `any` pins the head that was read (the new events chain
 * to it): a writer that lands in between makes the append fail, and append reads again.
 */
export function streamStateFor(expected: ExpectedRevision, head: number | null): AppendStreamState {
  if (expected === 'no_stream') return 'no_stream';
  if (expected === 'any') return head === null ? 'no_stream' : BigInt(head);
  return BigInt(expected);
}

/** The revision ESDB says a stream is at, from a wrong-expected-version error. */
const actualOf = (e: WrongExpectedVersionError): number | null =>
  typeof e.actualState === 'bigint' && e.actualState >= 0n ? Number(e.actualState) : null;

/** Whether ESDB could not be reached or could not serve now (the write did not happen, or may be retried). */
export function isEsdbUnavailable(error: unknown): boolean {
  if (error instanceof LedgerUnavailableError) return true;
  if (
    error instanceof UnavailableError ||
    error instanceof DeadlineExceededError ||
    error instanceof NotLeaderError ||
    error instanceof TimeoutError
  )
    return true;
  // Appends go through grpc-js, which may throw its own error: status 14 UNAVAILABLE, 4 DEADLINE_EXCEEDED.
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 14 || code === 4) return true;
  if (notLeaderRefusal(error)) return true;
  const message = error instanceof Error ? error.message : '';
  return /ECONNREFUSED|ECONNRESET|ETIMEDOUT|client error \(Connect\)|connection refused|failed to connect|Name resolution|No connection established/i.test(
    message,
  );
}

/**
 * A follower refusing the multi-stream append: FAILED_PRECONDITION (9) whose status details are
 * NotLeaderNodeErrorDetails, which the client does not recognise and hands on as UnknownError.
 * Nothing was written; the next request finds the leader (reads ask for it).
 */
function notLeaderRefusal(error: unknown): boolean {
  const raw = ((error as { _raw?: unknown } | null)?._raw ?? error) as {
    code?: unknown;
    metadata?: { get?(key: string): unknown[] };
  } | null;
  if (raw?.code !== 9 || typeof raw.metadata?.get !== 'function') return false;
  return raw.metadata.get('grpc-status-details-bin').some((v) => Buffer.isBuffer(v) && v.includes('NotLeaderNode'));
}

/**
 * Maps a client error to the port's: wrong expected version → WrongExpectedRevisionError (naming
 * the stream as the ledger knows it), unreachable → LedgerUnavailableError, over the server's
 * MaxAppendSize → LedgerAppendTooLargeError, an old server →
 * an error saying which version is needed. Anything else is returned as it is.
 */
export function mapEsdbError(error: unknown, prefix: string, expectedOf: (stream: string) => ExpectedRevision | undefined): unknown {
  if (error instanceof WrongExpectedVersionError) {
    const stream = withoutPrefix(error.streamName ?? '', prefix) ?? error.streamName ?? 'unknown stream';
    return new WrongExpectedRevisionError(stream, expectedOf(stream) ?? 'any', actualOf(error));
  }
  if (error instanceof AppendConsistencyViolationError && error.violations.length > 0) {
    // appendRecords' checks (KurrentDB 26.1+): the first stream that was not as expected.
    const v = error.violations[0]!;
    const stream = withoutPrefix(v.streamName, prefix) ?? v.streamName;
    const actual = typeof v.actualState === 'bigint' && v.actualState >= 0n ? Number(v.actualState) : null;
    return new WrongExpectedRevisionError(stream, expectedOf(stream) ?? 'any', actual);
  }
  // The server's MaxAppendSize (1 MiB by default), for the append or one of its events: nothing was written.
  if (error instanceof TransactionMaxSizeExceededError || error instanceof MaxAppendSizeExceededError) {
    return new LedgerAppendTooLargeError('the ledger (EventStoreDB) refuses an append this large (its MaxAppendSize)', { cause: error });
  }
  if (error instanceof AppendRecordSizeExceededError) {
    return new LedgerAppendTooLargeError('the ledger (EventStoreDB) refuses an event this large (its MaxAppendSize)', { cause: error });
  }
  if (error instanceof UnsupportedError) {
    return new Error('EventStoreDB refused a multi-stream append: the ledger needs KurrentDB 25.1 or later', { cause: error });
  }
  if (isEsdbUnavailable(error)) {
    return error instanceof LedgerUnavailableError
      ? error
      : new LedgerUnavailableError('the ledger (EventStoreDB) is unavailable', { cause: error });
  }
  return error;
}

/**
 * An append's error as mapped (`mapped`), marked unconfirmed when the append may have landed: the
 * server unreachable or past a deadline after the append was sent. A follower's NotLeader refusal
 * wrote nothing.
 */
export function unconfirmedAppend(error: unknown, mapped: unknown): unknown {
  if (!(mapped instanceof LedgerUnavailableError) || mapped.unconfirmed) return mapped;
  if (error instanceof NotLeaderError || notLeaderRefusal(error)) return mapped;
  return new LedgerUnavailableError(mapped.message, { cause: mapped.cause ?? error, unconfirmed: true });
}

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/-]/g;
/** `text` as a literal inside a .NET regular expression (ESDB filters are server-side .NET regexes). */
export const regexLiteral = (text: string): string => text.replace(REGEX_SPECIAL, '\\$&');

/** Stream names of the ledger's events: under the prefix, named as a ledger stream (LEDGER_STREAM); no system stream, no other ledger's. */
export const ledgerStreamsRegex = (prefix: string): string => `^${regexLiteral(prefix)}${LEDGER_STREAM_NAME}`;

/**
 * Stream names of one tenant's events. Every stream name carries its tenant as
 * `<kind>-<tenantId>-<id>` (see `streamCarriesTenant`).
 */
export const tenantStreamsRegex = (prefix: string, tenantId: string): string =>
  `^${regexLiteral(prefix)}[^$-][^-]*-${regexLiteral(tenantId)}-`;

/** Whether a stream name carries its tenant as `<kind>-<tenantId>-<id>`, as every stream helper builds it. */
export const streamCarriesTenant = (stream: string, tenantId: string): boolean => {
  const dash = stream.indexOf('-');
  return dash > 0 && !stream.startsWith('$') && stream.startsWith(`-${tenantId}-`, dash);
};
