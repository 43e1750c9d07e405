import { isUtf8 } from 'node:buffer';
import { isIP } from 'node:net';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { isDate, isDateTime } from '../../common/dates.js';

// Canonical textual UUIDs only: ajv-formats' `uuid` also takes a `urn:uuid:` prefix.
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

function configure(ajv: Ajv): Ajv {
  addFormats.default(ajv, ['uri']);
  ajv.addFormat('uuid', { type: 'string', validate: (s: string) => UUID.test(s) });
  ajv.addFormat('date', { type: 'string', validate: isDate });
  ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
  ajv.addFormat('ip', { type: 'string', validate: (s: string) => isIP(s) !== 0 });
  // A day (whole UTC day) or an instant.
  ajv.addFormat('date-or-date-time', { type: 'string', validate: (s: string) => isDate(s) || isDateTime(s) });
  ajv.addKeyword({ keyword: 'x-bytes', schemaType: 'number' });
  // What a value failing this schema's pattern, format or bounds must be, in words: the answer
  // names it instead of the regular expression (see `messageOf`).
  ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
  // The same for the pattern alone: its bounds are then said as bounds.
  ajv.addKeyword({ keyword: 'x-pattern-message', schemaType: 'string' });
  return ajv;
}

// Bodies are taken as sent: no type coercion (the string "true" is not a boolean) and unknown
// fields are refused, not silently dropped. Query strings and params are text, so they coerce.
// `verbose` gives each error its schema, for the schema's own `x-message`.
const bodyAjv = configure(
  new Ajv({ coerceTypes: false, useDefaults: true, removeAdditional: false, allErrors: true, strict: false, verbose: true }),
);
const textAjv = configure(
  new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: false, allErrors: true, strict: false, verbose: true }),
);

/**
 * A query string's schema refuses the parameters it does not name (docs/decisions/0004): a
 * misspelt or unsupported filter must not silently widen a search or change an export's format.
 */
const closedQuery = (schema: object): object =>
  (schema as { type?: unknown }).type === 'object' && !('additionalProperties' in schema)
    ? { ...schema, additionalProperties: false }
    : schema;

/** An integer in a query string or path is written in decimal digits: no exponent, fraction, hex or sign but `-`. */
const DECIMAL_INTEGER = /^-?\d+$/;

/**
 * The properties of an object schema that are integers, so that their text can be checked before
 * Ajv coerces it (Ajv reads `1e3`, `0x10` and ` 7` as numbers).
 */
const integerProperties = (schema: object): string[] =>
  Object.entries((schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {})
    .filter(([, p]) => p.type === 'integer')
    .map(([name]) => name);

/** Fastify validator compiler: a strict Ajv for bodies, a coercing one for query, params and headers. */
export const validatorCompiler: FastifySchemaCompiler<unknown> = (route) => {
  // Compiled on a route's first request, not at start: compiling every route's schemas up front
  // took ~0.5 s of each start (a restart after a crash waits for it).
  let validate: ReturnType<FastifySchemaCompiler<unknown>> | undefined;
  return (data: unknown) => (validate ??= compileNow(route))(data);
};

const compileNow: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  if (httpPart === 'body') return compiled(bodyAjv.compile(schema as object) as ValidateFunction, []);
  const integers = httpPart === 'querystring' || httpPart === 'params' ? integerProperties(schema as object) : [];
  return compiled(
    textAjv.compile(httpPart === 'querystring' ? closedQuery(schema as object) : (schema as object)) as ValidateFunction,
    integers,
  );
};

function compiled(validate: ValidateFunction, integers: string[]) {
  return (data: unknown) => {
    const text = data as Record<string, unknown>;
    const notDecimal = integers.filter((name) => typeof text[name] === 'string' && !DECIMAL_INTEGER.test(text[name]));
    if (notDecimal.length > 0) {
      const errors = notDecimal.map((name) => ({
        instancePath: `/${name}`,
        keyword: 'type',
        message: 'must be an integer in decimal digits',
        params: {},
      }));
      return { error: Object.assign(new Error('validation failed'), { validation: errors }) };
    }
    return validate(data) ? { value: data } : { error: Object.assign(new Error('validation failed'), { validation: validate.errors }) };
  };
}

export interface FieldError {
  field: string;
  message: string;
}

interface AjvError {
  instancePath: string;
  schemaPath?: string;
  message?: string | undefined;
  keyword: string;
  params: Record<string, unknown>;
  parentSchema?: unknown;
}

const fieldOf = (e: AjvError): string => {
  const parts = e.instancePath
    .split('/')
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (e.keyword === 'required') parts.push(String(e.params.missingProperty));
  if (e.keyword === 'additionalProperties') parts.push(String(e.params.additionalProperty));
  return parts.reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '') || '(body)';
};

export const UNKNOWN_FIELD = 'is not a known field';
export const UNKNOWN_QUERY_PARAMETER = 'is not a query parameter of this route';

/** What a value of each format must be, in words (Ajv says only `must match format "date-time"`). */
const FORMAT_RULES: Record<string, string> = {
  'date-time': 'must be an RFC 3339 date-time with a time zone, such as 2026-01-31T12:00:00Z',
  date: 'must be a calendar date, YYYY-MM-DD, such as 2026-01-31',
  'date-or-date-time': 'must be a date (2026-01-31) or an RFC 3339 date-time with a time zone (2026-01-31T12:00:00Z)',
  uuid: 'must be a UUID, such as 0b7e4c8a-5f2d-4e1b-9c3a-7d6e5f4a3b2c',
  ip: 'must be an IPv4 or IPv6 address',
  uri: 'must be an absolute URI, such as https://example.com/hooks',
};

const messageOf = (e: AjvError): string => {
  if (e.keyword === 'additionalProperties') return UNKNOWN_FIELD;
  if (e.keyword === 'required') return 'is required';
  if (e.keyword === 'enum') return `must be one of: ${(e.params.allowedValues as unknown[]).join(', ')}`;
  if (e.keyword === 'const') return `must be ${JSON.stringify(e.params.allowedValue)}`;
  const patternOwn = (e.parentSchema as { 'x-pattern-message'?: unknown } | undefined)?.['x-pattern-message'];
  if (e.keyword === 'pattern' && typeof patternOwn === 'string') return patternOwn;
  const own = (e.parentSchema as { 'x-message'?: unknown } | undefined)?.['x-message'];
  if (e.keyword !== 'type' && typeof own === 'string') return own;
  if (e.keyword === 'minLength')
    return e.params.limit === 1 ? 'must not be empty' : `must be at least ${String(e.params.limit)} characters long`;
  if (e.keyword === 'maxLength') return `must be at most ${String(e.params.limit)} characters long`;
  if (e.keyword === 'minItems') return `must have at least ${String(e.params.limit)} item${e.params.limit === 1 ? '' : 's'}`;
  if (e.keyword === 'maxItems') return `must have at most ${String(e.params.limit)} items`;
  if (e.keyword === 'minimum') return `must be at least ${String(e.params.limit)}`;
  if (e.keyword === 'maximum') return `must be at most ${String(e.params.limit)}`;
  if (e.keyword === 'exclusiveMinimum') return `must be more than ${String(e.params.limit)}`;
  if (e.keyword === 'exclusiveMaximum') return `must be less than ${String(e.params.limit)}`;
  if (e.keyword === 'format') return FORMAT_RULES[String(e.params.format)] ?? e.message ?? 'is invalid';
  return e.message ?? 'is invalid';
};

/**
 * One message for a value that matched no branch of a union (`anyOf`): the branch's own complaint
 * when it got past the type ("must be an IPv4 or IPv6 address"), else the list of what it may be.
 */
function unionMessage(branches: AjvError[]): string {
  const specific = branches.filter((b) => b.keyword !== 'type' && b.keyword !== 'const');
  if (specific.length > 0) return [...new Set(specific.map(messageOf))].join('; ');
  const consts = branches.filter((b) => b.keyword === 'const').map((b) => String(b.params.allowedValue));
  if (consts.length > 0) return `must be one of: ${consts.join(', ')}`;
  const types = [...new Set(branches.flatMap((b) => String(b.params.type).split(',')))];
  return `must be ${types.join(' or ')}`;
}

/**
 * Names the offending field of each Ajv error (`consents[3].consentGiven`, `metadata`, `page`),
 * one entry per field and complaint.
 */
export function fieldErrors(errors: readonly AjvError[]): FieldError[] {
  const byField = new Map<string, AjvError[]>();
  for (const e of errors) {
    const field = fieldOf(e);
    byField.set(field, [...(byField.get(field) ?? []), e]);
  }
  const out: FieldError[] = [];
  for (const [field, errs] of byField) {
    const union = errs.find((e) => e.keyword === 'anyOf');
    if (union) {
      const prefix = `${union.schemaPath ?? ''}/`;
      const branches = errs.filter((e) => e !== union && (e.schemaPath ?? '').startsWith(prefix));
      const rest = errs.filter((e) => e !== union && !branches.includes(e));
      out.push({ field, message: unionMessage(branches) });
      for (const message of new Set(rest.map(messageOf))) out.push({ field, message });
    } else {
      for (const message of new Set(errs.map(messageOf))) out.push({ field, message });
    }
  }
  return out;
}

/**
 * The first value the ledger cannot hold faithfully, with the field it sits in: NUL characters
 * (PostgreSQL text and jsonb refuse them), lone UTF-16 surrogates (they do not survive UTF-8, so
 * a hash could not be recomputed), and numbers JSON cannot write (1e400 parses to Infinity).
 * Walks iteratively, so deep input cannot exhaust the stack.
 *
 * @example
 * findUnstorable({ metadata: { note: 'a\u0000b' } }) // { field: 'metadata.note', message: '…' }
 */
export function findUnstorable(value: unknown, root = '(body)'): FieldError | null {
  const stack: { v: unknown; path: string }[] = [{ v: value, path: '' }];
  const badText = (s: string) => s.includes('\u0000') || !s.isWellFormed();
  // A path 100,000 levels deep is no use in an answer: name its start; the top level by its part.
  const name = (path: string) => (path.length > 200 ? `${path.slice(0, 200)}…` : path || root);
  while (stack.length > 0) {
    const { v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (badText(v)) return { field: name(path), message: 'contains a NUL character or invalid Unicode' };
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v)) return { field: name(path), message: 'is a number out of range' };
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push({ v: item, path: `${path}[${i}]` }));
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        if (badText(k)) return { field: name(path), message: 'has a key with a NUL character or invalid Unicode' };
        stack.push({ v: item, path: path ? `${path}.${k}` : k });
      }
    }
  }
  return null;
}

/**
 * The first query parameter whose percent-encoded bytes are not UTF-8 text (a lone surrogate's
 * `%ED%A0%80`, a stray `%FF`), or null. The query parser turns such bytes into U+FFFD, which
 * would match nothing instead of being refused as the path and the body refuse them.
 *
 * @example
 * invalidQueryText('/api/v1/consent/search?userReference=%FF') // { field: 'userReference', … }
 */
export function invalidQueryText(url: string): FieldError | null {
  const start = url.indexOf('?');
  if (start < 0 || !url.includes('%', start)) return null;
  // The URL arrives as one character per byte (latin1): escapes and literal bytes alike become bytes.
  const bytes = (part: string): Buffer =>
    Buffer.from(
      part.replaceAll('+', ' ').replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    );
  for (const pair of url.slice(start + 1).split('&')) {
    const at = pair.indexOf('=');
    const key = bytes(at < 0 ? pair : pair.slice(0, at));
    const value = at < 0 ? Buffer.alloc(0) : bytes(pair.slice(at + 1));
    if (isUtf8(key) && isUtf8(value)) continue;
    return { field: isUtf8(key) ? key.toString() : '(query)', message: 'is not valid UTF-8 once percent-decoded' };
  }
  return null;
}

/** The field of the first unstorable value (see `findUnstorable`), or null. */
export const findUnstorableString = (value: unknown): string | null => findUnstorable(value)?.field ?? null;

/** Nesting depth of a JSON value: a scalar is 0, `{}` is 1, `{"a":{}}` is 2. Stops counting past `limit`. */
export function jsonDepth(value: unknown, limit: number): number {
  let max = 0;
  const stack: { v: unknown; d: number }[] = [{ v: value, d: 0 }];
  while (stack.length > 0) {
    const { v, d } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    const depth = d + 1;
    if (depth > max) max = depth;
    if (max > limit) return max;
    for (const item of Object.values(v)) stack.push({ v: item, d: depth });
  }
  return max;
}
