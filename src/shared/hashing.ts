import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/**
 * RFC 8785 (JCS) canonical JSON of a value: sorted keys, no whitespace, ECMAScript number form.
 *
 * @example
 * canonicalJson({ b: 1, a: [true, null] }) // '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('value has no JSON form');
  return text;
}

/** Lowercase hex SHA-256 of a string's UTF-8 bytes, or of raw bytes. */
export function sha256Hex(input: string | Uint8Array): string {
  return createHash('sha256').update(input).digest('hex');
}

/** Lowercase hex SHA-256 of the canonical JSON of a value. */
export function hashCanonical(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
