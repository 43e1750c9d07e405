import { createHash } from 'node:crypto';

/** A UTF-16 surrogate that is not half of a pair (in `u` mode a pair is one code point). */
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * RFC 8785 (JCS) canonical JSON of a value: sorted keys, no whitespace, ECMAScript number form.
 * The same strings as the npm package `canonicalize` (the test suite compares them), in about
 * half its time: every record hashes its canonical form twice (consentHash and eventHash).
 *
 * @example
 * canonicalJson({ b: 1, a: [true, null] }) // '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  const text = write(value, new Set());
  if (text === undefined) throw new TypeError('value has no JSON form');
  return text;
}

function write(value: unknown, seen: Set<object>): string | undefined {
  switch (typeof value) {
    case 'string':
      if (LONE_SURROGATE.test(value)) throw new Error('Lone surrogate is not allowed');
      return JSON.stringify(value);
    case 'number':
      if (Number.isNaN(value)) throw new Error('NaN is not allowed');
      if (!Number.isFinite(value)) throw new Error('Infinity is not allowed');
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      // undefined, functions and symbols have no JSON form; a bigint throws, as in JSON.stringify.
      return JSON.stringify(value);
  }
  if (value === null) return 'null';
  if (seen.has(value)) throw new Error('Circular reference detected');
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    seen.add(value);
    const text = write(toJSON.call(value), seen);
    seen.delete(value);
    return text;
  }
  seen.add(value);
  let text: string;
  if (Array.isArray(value)) {
    text = '[';
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (i > 0) text += ',';
      text += item === undefined || typeof item === 'symbol' ? 'null' : (write(item, seen) ?? '');
    }
    text += ']';
  } else {
    const record = value as Record<string, unknown>;
    text = '{';
    let first = true;
    for (const key of Object.keys(record).sort()) {
      const item = record[key];
      if (item === undefined || typeof item === 'symbol') continue;
      text += `${first ? '' : ','}${write(key, seen)!}:${String(write(item, seen))}`;
      first = false;
    }
    text += '}';
  }
  seen.delete(value);
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
