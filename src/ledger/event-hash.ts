import { randomUUID } from 'node:crypto';
import { canonicalJson, sha256Hex } from '../common/hashing.js';
import type { AppendRequest } from './ledger.port.js';

/** What an event's hash covers: everything recorded about it except its ledger position. */
export interface EventEnvelope {
  id: string;
  tenantId: string;
  stream: string;
  revision: number;
  type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  recordedAt: string;
  prevHash: string | null;
}

/**
 * An envelope's RFC 8785 canonical JSON, written from the canonical JSON of its data and of its
 * metadata, which it answers too: the PostgreSQL ledger stores those texts as they are, so that
 * an event's data is serialized once for its hash and its row.
 *
 * @example
 * eventCanonical(envelope) // { text: '{"data":{…},"id":"…",…,"type":"…"}', data: '{…}', metadata: '{}' }
 */
export function eventCanonical(envelope: EventEnvelope): { text: string; data: string; metadata: string } {
  const e = envelope as Partial<EventEnvelope>;
  if (
    e.id === undefined ||
    e.tenantId === undefined ||
    e.stream === undefined ||
    e.revision === undefined ||
    e.type === undefined ||
    e.data === undefined ||
    e.metadata === undefined ||
    e.recordedAt === undefined ||
    e.prevHash === undefined
  ) {
    // A field left out (an envelope read from elsewhere) is left out of the text, as RFC 8785 does.
    const { id, tenantId, stream, revision, type, data, metadata, recordedAt, prevHash } = envelope;
    const text = canonicalJson({ id, tenantId, stream, revision, type, data, metadata, recordedAt, prevHash });
    return { text, data: canonicalJson(data ?? null), metadata: canonicalJson(metadata ?? null) };
  }
  const data = canonicalJson(envelope.data);
  const metadata = canonicalJson(envelope.metadata);
  // The envelope's keys in RFC 8785 order: data, id, metadata, prevHash, recordedAt, revision, stream, tenantId, type.
  const text =
    `{"data":${data},"id":${canonicalJson(envelope.id)},"metadata":${metadata},"prevHash":${canonicalJson(envelope.prevHash)}` +
    `,"recordedAt":${canonicalJson(envelope.recordedAt)},"revision":${canonicalJson(envelope.revision)},"stream":${canonicalJson(envelope.stream)}` +
    `,"tenantId":${canonicalJson(envelope.tenantId)},"type":${canonicalJson(envelope.type)}}`;
  return { text, data, metadata };
}

/**
 * eventHash = lowercase hex SHA-256 of the RFC 8785 canonical JSON of the envelope. Each event
 * names its stream predecessor's hash, so changing or removing an event breaks the chain.
 *
 * @example
 * eventHash({ id, tenantId, stream: 'consent-…', revision: 0, type: 'ConsentRecorded',
 *   data, metadata: {}, recordedAt: '2026-01-01T00:00:00.000Z', prevHash: null })
 */
export const eventHash = (envelope: EventEnvelope): string => sha256Hex(eventCanonical(envelope).text);

/** Problems found in a stream's events: bad hashes, broken links, gaps. Empty when intact. */
export function checkChain(events: readonly (EventEnvelope & { hash: string })[]): string[] {
  const problems: string[] = [];
  let prev: string | null = null;
  events.forEach((e, i) => {
    if (e.revision !== i) problems.push(`${e.stream}@${i}: revision ${e.revision}`);
    if (e.prevHash !== prev) problems.push(`${e.stream}@${e.revision}: prevHash does not match the previous event`);
    if (eventHash(e) !== e.hash) problems.push(`${e.stream}@${e.revision}: hash does not match the event`);
    prev = e.hash;
  });
  return problems;
}

/** An event as hashed and chained for its stream: its envelope, its eventHash, and the canonical JSON of its data and metadata. */
export type ChainedEvent = EventEnvelope & { hash: string; json: { data: string; metadata: string } };

/**
 * Hashes a request's events and chains them after `head` (the stream's last event; undefined when
 * the stream starts here): revisions follow on, each names its predecessor's hash. Every adapter
 * writes what this answers, so a ledger hashes the same on any of them.
 *
 * @example
 * const chained = chainEvents(request, '2026-01-01T00:00:00.000Z', { revision: 4, hash: 'ab…' });
 * chained[0].revision // 5
 */
export function chainEvents(
  request: AppendRequest,
  recordedAt: string,
  head: { revision: number; hash: string } | undefined,
): ChainedEvent[] {
  let prevHash = head?.hash ?? null;
  let revision = head === undefined ? 0 : head.revision + 1;
  return request.events.map((e) => {
    const envelope: EventEnvelope = {
      id: e.id ?? randomUUID(),
      tenantId: request.tenantId,
      stream: request.stream,
      revision: revision++,
      type: e.type,
      data: e.data,
      metadata: e.metadata ?? {},
      recordedAt,
      prevHash,
    };
    const { text, data, metadata } = eventCanonical(envelope);
    const hash = sha256Hex(text);
    prevHash = hash;
    return { ...envelope, hash, json: { data, metadata } };
  });
}
