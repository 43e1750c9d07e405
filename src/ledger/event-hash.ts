import { randomUUID } from 'node:crypto';
import { hashCanonical } from '../common/hashing.js';
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
 * eventHash = lowercase hex SHA-256 of the RFC 8785 canonical JSON of the envelope. Each event
 * names its stream predecessor's hash, so changing or removing an event breaks the chain.
 *
 * @example
 * eventHash({ id, tenantId, stream: 'consent-…', revision: 0, type: 'ConsentRecorded',
 *   data, metadata: {}, recordedAt: '2026-01-01T00:00:00.000Z', prevHash: null })
 */
export const eventHash = (envelope: EventEnvelope): string =>
  hashCanonical({
    id: envelope.id,
    tenantId: envelope.tenantId,
    stream: envelope.stream,
    revision: envelope.revision,
    type: envelope.type,
    data: envelope.data,
    metadata: envelope.metadata,
    recordedAt: envelope.recordedAt,
    prevHash: envelope.prevHash,
  });

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

/** An event as hashed and chained for its stream: its envelope and its eventHash. */
export type ChainedEvent = EventEnvelope & { hash: string };

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
    const hash = eventHash(envelope);
    prevHash = hash;
    return { ...envelope, hash };
  });
}
