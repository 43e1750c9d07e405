import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { chainEvents, eventCanonical, eventHash, type EventEnvelope } from './event-hash.js';

/** The hash as docs/hashing.md defines it, with the npm package `canonicalize` writing the envelope. */
const reference = (envelope: object) => createHash('sha256').update(canonicalize(envelope)!, 'utf8').digest('hex');

const texts = ['', 'a', 'é€😀', '"q"', 'back\\slash', 'tab\tnew\nline', '\u0000', '\u2028', 'דּ', '10', 'consent-ledger/x'];
const values = [0, -0, 1.5, 1e21, 2 ** 53, true, false, null, ...texts, [1, 'two', null], { z: 1, a: { c: [], b: {} } }];

const envelope = (i: number): EventEnvelope => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  tenantId: '11111111-1111-4111-8111-111111111111',
  stream: `consent-${texts[i % texts.length]}`,
  revision: i % 7,
  type: i % 2 ? 'ConsentRecorded' : `T${texts[(i + 3) % texts.length]}`,
  data: Object.fromEntries(texts.slice(0, i % texts.length).map((t, k) => [t, values[(i + k) % values.length]])),
  metadata: i % 3 ? {} : { actor: { type: 'cli' }, [texts[i % texts.length]!]: values[i % values.length] },
  recordedAt: '2026-11-27T09:00:00.000Z',
  prevHash: i % 4 ? 'ab'.repeat(32) : null,
});

describe('eventHash › the envelope written from its parts', () => {
  it('is the SHA-256 of the envelope as the canonicalize package writes it, for 200 envelopes', () => {
    for (let i = 0; i < 200; i++) {
      const e = envelope(i);
      expect(eventHash(e), `envelope #${i}`).toBe(reference(e));
      const { data, metadata } = eventCanonical(e);
      expect(data).toBe(canonicalize(e.data));
      expect(metadata).toBe(canonicalize(e.metadata));
    }
  });

  it('leaves a field that is undefined out, as RFC 8785 does, rather than writing it', () => {
    const e = { ...envelope(5), prevHash: undefined, metadata: undefined } as unknown as EventEnvelope;
    expect(eventHash(e)).toBe(reference(e));
    expect(eventCanonical(e).text).not.toContain('prevHash');
  });

  it('chains events with the data and metadata texts their hashes were made from', () => {
    const chained = chainEvents(
      {
        tenantId: '11111111-1111-4111-8111-111111111111',
        stream: 's',
        expectedRevision: 'no_stream',
        events: [
          { type: 'A', data: { b: 1, a: 'x\ty' } },
          { type: 'B', data: {}, metadata: { z: [1], y: null } },
        ],
      },
      '2026-11-27T09:00:00.000Z',
      undefined,
    );
    expect(chained.map((e) => e.json)).toEqual([
      { data: '{"a":"x\\ty","b":1}', metadata: '{}' },
      { data: '{}', metadata: '{"y":null,"z":[1]}' },
    ]);
    expect(chained[1]!.prevHash).toBe(chained[0]!.hash);
    for (const e of chained) expect(e.hash).toBe(reference({ ...e, hash: undefined, json: undefined }));
  });
});
