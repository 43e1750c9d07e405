import { randomUUID } from 'node:crypto';
import {
  AppendConsistencyViolationError,
  AppendRecordSizeExceededError,
  MaxAppendSizeExceededError,
  TransactionMaxSizeExceededError,
  UnavailableError,
  UnknownError,
  WrongExpectedVersionError,
  type RecordedEvent as EsdbRecordedEvent,
} from '@kurrent/kurrentdb-client';
import { describe, expect, it } from 'vitest';
import { eventHash } from '../event-hash.js';
import { LedgerAppendTooLargeError, LedgerUnavailableError, START, WrongExpectedRevisionError } from '../ledger.port.js';
import {
  fromEsdbEvent,
  fromEsdbPosition,
  isEsdbUnavailable,
  ledgerStreamOf,
  ledgerStreamsRegex,
  mapEsdbError,
  regexLiteral,
  streamCarriesTenant,
  streamStateFor,
  tenantStreamsRegex,
  toEsdbPosition,
  toEventData,
  type UnplacedEvent,
} from './eventstoredb.records.js';

const tenantId = '6f1c2a7e-0a4b-4c59-9d1e-2b3c4d5e6f70';
const unplaced = (over: Partial<UnplacedEvent> = {}): UnplacedEvent => {
  const envelope = {
    id: randomUUID(),
    tenantId,
    stream: `consent-${tenantId}-c1`,
    revision: 3,
    type: 'ConsentRecorded',
    data: { consentId: 'c1', n: 0.1, nested: { a: [1, 'é'] } },
    metadata: { requestId: 'r-1' },
    recordedAt: '2026-03-01T12:34:56.789Z',
    prevHash: 'a'.repeat(64),
    ...over,
  };
  return { ...envelope, hash: eventHash(envelope) };
};

/** What the client hands back for an event written with toEventData (the JSON data parsed, as the client does). */
const asRead = (e: UnplacedEvent, prefix = '', position = { commit: 1200n, prepare: 1100n }): EsdbRecordedEvent => {
  const written = toEventData(e);
  return {
    streamId: prefix + e.stream,
    id: written.id,
    isJson: true,
    revision: BigInt(e.revision),
    type: written.type,
    created: new Date(),
    data: JSON.parse(JSON.stringify(written.data)) as Record<string, unknown>,
    metadata: undefined,
    position,
  } as EsdbRecordedEvent;
};

describe('eventstoredb records › event mapping › a ledger event survives the round trip through ESDB', () => {
  it('writes one JSON event whose id and type are the ledger’s, with the envelope as data and no ESDB metadata', () => {
    const e = unplaced();
    const written = toEventData(e);
    expect(written).toMatchObject({ id: e.id, type: 'ConsentRecorded', contentType: 'application/json', metadata: undefined });
    expect(written.data).toEqual({
      tenantId,
      recordedAt: e.recordedAt,
      prevHash: e.prevHash,
      hash: e.hash,
      data: e.data,
      metadata: e.metadata,
    });
  });

  it('reads back every field, the stream without its prefix, the position as numbers, and the same hash', () => {
    const e = unplaced();
    const read = fromEsdbEvent(asRead(e, 'p1.'), 'p1.');
    expect(read).toEqual({ ...e, authenticator: null, position: { commit: 1200, prepare: 1100 } });
    expect(eventHash(read!)).toBe(e.hash);
  });

  it('keeps the authenticator beside the envelope, outside the hash', () => {
    const e = { ...unplaced(), authenticator: 'v1:0a0b0c0d:0:1:sig:' };
    expect(toEventData(e).data).toMatchObject({ authenticator: e.authenticator, hash: e.hash });
    const read = fromEsdbEvent(asRead(e), '');
    expect(read).toMatchObject({ authenticator: e.authenticator, hash: e.hash });
    expect(eventHash(read!)).toBe(e.hash);
  });

  it('reads a first event (prevHash null) and a binary-flagged JSON body alike', () => {
    const e = unplaced({ revision: 0, prevHash: null });
    const binary = { ...asRead(e), isJson: false, data: Buffer.from(JSON.stringify(toEventData(e).data)) } as unknown as EsdbRecordedEvent;
    expect(fromEsdbEvent(binary, '')).toMatchObject({ prevHash: null, revision: 0, hash: e.hash });
  });

  it('ignores what is not a ledger event: system types, other prefixes, foreign bodies, no event at all', () => {
    const e = unplaced();
    expect(fromEsdbEvent(undefined, '')).toBeNull();
    expect(fromEsdbEvent({ ...asRead(e), type: '$metadata' } as EsdbRecordedEvent, '')).toBeNull();
    expect(fromEsdbEvent(asRead(e, 'other.'), 'p1.')).toBeNull();
    expect(fromEsdbEvent({ ...asRead(e), data: { hello: 'world' } } as EsdbRecordedEvent, '')).toBeNull();
    expect(
      fromEsdbEvent({ ...asRead(e), data: { ...(asRead(e).data as object), hash: 'not-a-hash' } } as EsdbRecordedEvent, ''),
    ).toBeNull();
    expect(fromEsdbEvent({ ...asRead(e), isJson: false, data: Buffer.from('not json') } as unknown as EsdbRecordedEvent, '')).toBeNull();
  });

  it('refuses an event read without a position (a server older than 22.6)', () => {
    expect(() => fromEsdbEvent({ ...asRead(unplaced()), position: undefined } as EsdbRecordedEvent, '')).toThrow(
      /without its log position/,
    );
  });
});

describe('eventstoredb records › positions › converts exactly, both ways', () => {
  it('maps bigint positions to numbers and back', () => {
    const p = fromEsdbPosition({ commit: 9_007_199_254_740_991n, prepare: 42n });
    expect(p).toEqual({ commit: Number.MAX_SAFE_INTEGER, prepare: 42 });
    expect(toEsdbPosition(p)).toEqual({ commit: 9_007_199_254_740_991n, prepare: 42n });
  });

  it('reads from the start of $all for START', () => {
    expect(toEsdbPosition(START)).toBe('start');
    expect(toEsdbPosition({ commit: 0, prepare: 1 })).toEqual({ commit: 0n, prepare: 1n });
  });

  it('refuses positions a number cannot carry exactly', () => {
    expect(() => fromEsdbPosition({ commit: 9_007_199_254_740_992n, prepare: 0n })).toThrow(RangeError);
    expect(() => fromEsdbPosition({ commit: -1n, prepare: 0n })).toThrow(RangeError);
  });
});

describe('eventstoredb records › stream state › pins what append read', () => {
  it("maps 'no_stream', a revision, and 'any' on the head it read", () => {
    expect(streamStateFor('no_stream', null)).toBe('no_stream');
    expect(streamStateFor(4, 4)).toBe(4n);
    expect(streamStateFor('any', null)).toBe('no_stream');
    expect(streamStateFor('any', 7)).toBe(7n);
  });
});

describe('eventstoredb records › errors › maps the client’s errors to the port’s', () => {
  const conflict = (streamName: string, expected: bigint | 'no_stream', current: bigint | 'no_stream') =>
    new WrongExpectedVersionError(undefined, { streamName, expected, current });

  it('a wrong expected version names the ledger stream, what was expected and what is there', () => {
    const mapped = mapEsdbError(conflict('p1.consent-x', 2n, 5n), 'p1.', (s) => (s === 'consent-x' ? 2 : undefined));
    expect(mapped).toBeInstanceOf(WrongExpectedRevisionError);
    expect(mapped).toMatchObject({ stream: 'consent-x', expected: 2, actual: 5 });
    expect(mapEsdbError(conflict('consent-y', 'no_stream', 'no_stream'), '', () => 'no_stream')).toMatchObject({
      stream: 'consent-y',
      actual: null,
    });
  });

  it('an append over the server’s MaxAppendSize, whole or one event, is LedgerAppendTooLargeError: nothing written, a 413', () => {
    for (const refused of [
      new TransactionMaxSizeExceededError(undefined as never, { size: 2_000_000, maxSize: 1_048_576 }),
      new AppendRecordSizeExceededError(undefined as never, { stream: 'p1.policy-x', recordId: 'r', size: 1_100_000, maxSize: 1_048_576 }),
      MaxAppendSizeExceededError.fromMaxAppendSize(1_048_576),
    ]) {
      const mapped = mapEsdbError(refused, 'p1.', () => undefined);
      expect(mapped).toBeInstanceOf(LedgerAppendTooLargeError);
      expect((mapped as Error).message).toMatch(/MaxAppendSize/);
    }
  });

  it('a failed consistency check of appendRecords (a condition) is WrongExpectedRevisionError naming that stream', () => {
    const violation = (stream: string, expectedState: string, actualState: string) => ({
      checkIndex: 1,
      streamState: { stream, expectedState, actualState },
    });
    const error = new AppendConsistencyViolationError(
      undefined as never,
      { violationsList: [violation('p1.policy-t-v', '3', '4')] } as never,
    );
    expect(mapEsdbError(error, 'p1.', (s) => (s === 'policy-t-v' ? 3 : undefined))).toMatchObject({
      stream: 'policy-t-v',
      expected: 3,
      actual: 4,
    });
    const missing = new AppendConsistencyViolationError(
      undefined as never,
      { violationsList: [violation('policy-t-w', '0', '-1')] } as never,
    );
    expect(mapEsdbError(missing, '', () => 0)).toMatchObject({ stream: 'policy-t-w', expected: 0, actual: null });
  });

  it('unreachable servers are LedgerUnavailableError: the bridge’s errors and grpc-js status 14', () => {
    const grpc = Object.assign(
      new Error('14 UNAVAILABLE: No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:1'),
      { code: 14 },
    );
    for (const error of [new UnavailableError(), grpc]) {
      expect(isEsdbUnavailable(error)).toBe(true);
      expect(mapEsdbError(error, '', () => undefined)).toBeInstanceOf(LedgerUnavailableError);
    }
  });

  it('a node that is not the leader refusing an append (FAILED_PRECONDITION, NotLeaderNode details) is LedgerUnavailableError', () => {
    // What grpc-js hands the client for the v2 append on a follower: the details name the error type.
    const status = Buffer.concat([
      Buffer.from([0x08, 0x09, 0x1a, 0x40]),
      Buffer.from('type.googleapis.com/kurrentdb.protocol.v2.NotLeaderNodeErrorDetails'),
    ]);
    const raw = Object.assign(new Error('9 FAILED_PRECONDITION: not leader'), {
      code: 9,
      details: 'not leader',
      metadata: { get: (key: string) => (key === 'grpc-status-details-bin' ? [status] : []) },
    });
    const refused = new UnknownError(raw as never);
    expect(isEsdbUnavailable(refused)).toBe(true);
    expect(mapEsdbError(refused, '', () => undefined)).toBeInstanceOf(LedgerUnavailableError);
  });

  it('leaves other errors as they are', () => {
    const other = new UnknownError();
    expect(isEsdbUnavailable(new Error('bad request'))).toBe(false);
    expect(mapEsdbError(other, '', () => undefined)).toBe(other);
  });
});

describe('eventstoredb records › stream names › finds a tenant’s streams by name', () => {
  const match = (regex: string, s: string) => new RegExp(regex).test(s);

  it('knows which streams carry their tenant', () => {
    expect(streamCarriesTenant(`consent-${tenantId}-c1`, tenantId)).toBe(true);
    expect(streamCarriesTenant(`withdrawalkey-${tenantId}-k`, tenantId)).toBe(true);
    expect(streamCarriesTenant(`consent-c1-${tenantId}`, tenantId)).toBe(false);
    expect(streamCarriesTenant(`$consent-${tenantId}-c1`, tenantId)).toBe(false);
    expect(streamCarriesTenant(`-${tenantId}-c1`, tenantId)).toBe(false);
  });

  it('the tenant regex matches that tenant’s streams under the prefix, and nothing else', () => {
    const regex = tenantStreamsRegex('t1.x', tenantId);
    expect(match(regex, `t1.xconsent-${tenantId}-c1`)).toBe(true);
    expect(match(regex, `t1.xpolicy-${tenantId}-p`)).toBe(true);
    expect(match(regex, `t1yconsent-${tenantId}-c1`)).toBe(false);
    expect(match(regex, `t1.xconsent-${randomUUID()}-c1`)).toBe(false);
    expect(match(regex, `t1.x$$consent-${tenantId}-c1`)).toBe(false);
    expect(match(regex, `consent-${tenantId}-c1`)).toBe(false);
  });

  it('the ledger regex passes the prefix’s streams and no system stream', () => {
    expect(match(ledgerStreamsRegex(''), `consent-${tenantId}-b`)).toBe(true);
    expect(match(ledgerStreamsRegex(''), '$stats-0.0.0.0:2113')).toBe(false);
    expect(match(ledgerStreamsRegex('a.b'), `a.bconsent-${tenantId}-c1`)).toBe(true);
    expect(match(ledgerStreamsRegex('a.b'), `aXbconsent-${tenantId}-c1`)).toBe(false);
    expect(regexLiteral('a.b-c$')).toBe('a\\.b\\-c\\$');
  });

  it('a ledger without a prefix does not take another prefix’s streams on the same cluster for its own', () => {
    // The default prefix is none: another deployment's `eu.` streams are not this one's.
    expect(match(ledgerStreamsRegex(''), `eu.consent-${tenantId}-c1`)).toBe(false);
    expect(ledgerStreamOf(`eu.consent-${tenantId}-c1`, '')).toBeNull();
    expect(fromEsdbEvent(asRead(unplaced(), 'eu.'), '')).toBeNull();
    // Nor a stream of some other application that happens to start like one.
    expect(ledgerStreamOf('orders-42', '')).toBeNull();
    expect(ledgerStreamOf(`consent-${tenantId}-c1`, '')).toBe(`consent-${tenantId}-c1`);
    expect(ledgerStreamOf(`p1.consent-${tenantId}-c1`, 'p1.')).toBe(`consent-${tenantId}-c1`);
  });
});
