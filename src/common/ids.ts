import { hash, randomUUID } from 'node:crypto';

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
  let name = '';
  for (let i = 0; i < parts.length; i++) name += `${i > 0 ? '|' : ''}${parts[i]!.length}:${parts[i]!}`;
  const h = hash('sha1', Buffer.concat([NAMESPACE, Buffer.from(name, 'utf8')]), 'hex');
  // The first 16 bytes, version 5 in the 13th hex digit, the variant (0b10) in the 17th's top bits.
  const variant = ((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
export const isUuid = (s: string): boolean => new RegExp(UUID_PATTERN).test(s);
