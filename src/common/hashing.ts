import { hash } from 'node:crypto';

/** A UTF-16 surrogate that is not half of a pair (in `u` mode a pair is one code point). */
const LONE_SURROGATE = /\p{Surrogate}/u;
/** What JSON.stringify escapes in a string, and every surrogate: a string without any is quoted as it is. */
const NEEDS_ESCAPING = /["\\\u0000-\u001f\ud800-\udfff]/;
/** Object keys as written, cached: records have few distinct keys and many of each. */
const quotedKeys = new Map<string, string>();
const MAX_QUOTED_KEYS = 1024;

/**
 * RFC 8785 (JCS) canonical JSON of a value: sorted keys, no whitespace, ECMAScript number form.
 * The same strings as the npm package `canonicalize` (the test suite compares them), in about a
 * quarter of its time: every record hashes its canonical form twice (consentHash and eventHash),
 * so a string is copied only when it needs escaping and keys already in order are not sorted.
 *
 * @example
 * canonicalJson({ b: 1, a: [true, null] }) // '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  const text = write(value, []);
  if (text === undefined) throw new TypeError('value has no JSON form');
  return text;
}

function quote(value: string): string {
  if (!NEEDS_ESCAPING.test(value)) return `"${value}"`;
  if (LONE_SURROGATE.test(value)) throw new Error('Lone surrogate is not allowed');
  return JSON.stringify(value);
}

function quoteKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = quote(key);
    if (quotedKeys.size < MAX_QUOTED_KEYS) quotedKeys.set(key, quoted);
  }
  return quoted;
}

/** An object's keys in UTF-16 code unit order (RFC 8785 §3.2.3), sorted only when they are not already. */
function sortedKeys(record: object): string[] {
  const keys = Object.keys(record);
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]! > keys[i]!) return keys.sort();
  return keys;
}

/** `open` holds the objects being written (their ancestors): one met again is a cycle. */
function write(value: unknown, open: object[]): string | undefined {
  switch (typeof value) {
    case 'string':
      return quote(value);
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
  if (open.includes(value)) throw new Error('Circular reference detected');
  open.push(value);
  let text: string | undefined;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    text = write(toJSON.call(value), open);
  } else if (Array.isArray(value)) {
    text = '[';
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (i > 0) text += ',';
      text += item === undefined || typeof item === 'symbol' ? 'null' : (write(item, open) ?? '');
    }
    text += ']';
  } else {
    const record = value as Record<string, unknown>;
    const keys = sortedKeys(record);
    text = '{';
    let first = true;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const item = record[key];
      if (item === undefined || typeof item === 'symbol') continue;
      text += (first ? '' : ',') + quoteKey(key) + ':' + String(write(item, open));
      first = false;
    }
    text += '}';
  }
  open.pop();
  return text;
}

/** Lowercase hex SHA-256 of a string's UTF-8 bytes, or of raw bytes. */
export function sha256Hex(input: string | Uint8Array): string {
  return hash('sha256', input, 'hex');
}

/** Lowercase hex SHA-256 of the canonical JSON of a value. */
export function hashCanonical(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
