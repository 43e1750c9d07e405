import { hashCanonical } from '../shared/hashing.js';

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
