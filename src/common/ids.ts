import { createHash, randomUUID } from 'node:crypto';

/** A fresh random (version 4) UUID. */
export const newId = (): string => randomUUID();

// RFC 9562 name-based UUID namespace of this service (a fixed, random UUID).
const NAMESPACE = Buffer.from('6f1c2b0e8a5d4c3b9e7f1a2b3c4d5e6f', 'hex');

/**
 * A name-based (version 5) UUID: the same name always gives the same id. Used where an id
 * must follow from a natural key, such as a policy version's (type, version) or a client's
 * Idempotency-Key, so that the ledger's optimistic concurrency enforces uniqueness.
 *
 * @example
 * deriveId('tenant-1', 'policy', 'privacy_policy', '1.0.0') // always the same UUID
 */
export function deriveId(...parts: string[]): string {
  const hash = createHash('sha1')
    .update(NAMESPACE)
    .update(parts.map((p) => `${p.length}:${p}`).join('|'))
    .digest();
  const b = Buffer.from(hash.subarray(0, 16));
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
export const isUuid = (s: string): boolean => new RegExp(UUID_PATTERN).test(s);
