import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveId, isUuid, newId, UUID_PATTERN } from './ids.js';

/** RFC 9562 §5.5 UUID v5, written out independently of ids.ts to check it against. */
function uuidV5(namespace: string, name: string): string {
  const b = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest()
    .subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return [h.slice(0, 8), h.slice(8, 12), h.slice(12, 16), h.slice(16, 20), h.slice(20)].join('-');
}

const pattern = new RegExp(UUID_PATTERN);

describe('deriveId › when deriving an id from a natural key', () => {
  it('gives the same id for the same parts, every time and in every release', () => {
    expect(deriveId('tenant-1', 'policy', 'privacy_policy', '1.0.0')).toBe(deriveId('tenant-1', 'policy', 'privacy_policy', '1.0.0'));
    // Pinned: ids already in ledgers were derived this way, so the derivation must never change.
    expect(deriveId('tenant-1', 'policy', 'privacy_policy', '1.0.0')).toBe('63997f93-0de4-58a2-902d-5087dbc86658');
  });

  it('is the standard UUID v5 of the length-prefixed parts in the service namespace', () => {
    // The helper itself reproduces the RFC 9562 example (DNS namespace, "www.example.com").
    expect(uuidV5('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
    expect(deriveId('tenant-1', 'policy', 'privacy_policy', '1.0.0')).toBe(
      uuidV5('6f1c2b0e-8a5d-4c3b-9e7f-1a2b3c4d5e6f', '8:tenant-1|6:policy|14:privacy_policy|5:1.0.0'),
    );
  });

  it('agrees with the standard construction for 2,000 generated keys, non-ASCII included', () => {
    for (let i = 0; i < 2_000; i++) {
      const parts = [`t-${i}`, i % 3 === 0 ? 'é€😀' : 'consent', (i * 7919).toString(36).repeat(i % 5)];
      const name = parts.map((p) => `${p.length}:${p}`).join('|');
      expect(deriveId(...parts), name).toBe(uuidV5('6f1c2b0e-8a5d-4c3b-9e7f-1a2b3c4d5e6f', name));
    }
  });

  it('gives distinct ids for distinct parts', () => {
    const ids = [
      deriveId('tenant-1', 'policy', 'privacy_policy', '1.0.0'),
      deriveId('tenant-2', 'policy', 'privacy_policy', '1.0.0'),
      deriveId('tenant-1', 'policy', 'privacy_policy', '1.0.1'),
      deriveId('tenant-1', 'policy', 'cookie_policy', '1.0.0'),
      deriveId('tenant-1', 'consent', 'privacy_policy', '1.0.0'),
    ];
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps apart parts that concatenate to the same text', () => {
    const groups = [
      [deriveId('a', 'bc'), deriveId('ab', 'c'), deriveId('abc'), deriveId('a', 'b', 'c')],
      [deriveId('a|b'), deriveId('a', 'b')],
      [deriveId('1:a'), deriveId('a')],
      [deriveId('1:a|1:b'), deriveId('a', 'b')],
      [deriveId(''), deriveId('', ''), deriveId()],
    ];
    for (const ids of groups) expect(new Set(ids).size).toBe(ids.length);
  });

  it('sets the version 5 and RFC variant bits and matches UUID_PATTERN', () => {
    for (const parts of [['a'], ['tenant', 'key'], [''], ['ü', '😀'], ['x'.repeat(1000)]]) {
      const id = deriveId(...parts);
      expect(id).toMatch(pattern);
      expect(id[14]).toBe('5');
      expect(['8', '9', 'a', 'b']).toContain(id[19]);
      expect(id).toBe(id.toLowerCase());
    }
  });
});

describe('newId › when asked for a fresh id', () => {
  it('answers a version 4 UUID that differs on every call', () => {
    const ids = Array.from({ length: 100 }, newId);
    expect(new Set(ids).size).toBe(100);
    for (const id of ids) {
      expect(id).toMatch(pattern);
      expect(id[14]).toBe('4');
    }
  });
});

describe('isUuid › when checking text', () => {
  it('accepts UUIDs in either case and refuses anything else', () => {
    expect(isUuid('63997f93-0de4-58a2-902d-5087dbc86658')).toBe(true);
    expect(isUuid('63997F93-0DE4-58A2-902D-5087DBC86658')).toBe(true);
    for (const bad of [
      '',
      '63997f93-0de4-58a2-902d-5087dbc8665',
      '63997f930de458a2902d5087dbc86658',
      'x63997f93-0de4-58a2-902d-5087dbc86658',
      '63997f93-0de4-58a2-902d-5087dbc86658\n',
      'g3997f93-0de4-58a2-902d-5087dbc86658',
    ]) {
      expect(isUuid(bad)).toBe(false);
    }
  });
});
