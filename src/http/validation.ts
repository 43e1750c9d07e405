import { isIP } from 'node:net';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function configure(ajv: Ajv): Ajv {
  addFormats.default(ajv, ['date', 'date-time', 'uuid', 'uri']);
  ajv.addFormat('ip', { type: 'string', validate: (s: string) => isIP(s) !== 0 });
  // A day (whole UTC day) or an instant.
  ajv.addFormat('date-or-date-time', {
    type: 'string',
    validate: (s: string) => (DATE.test(s) || /^\d{4}-\d{2}-\d{2}T/.test(s)) && !Number.isNaN(Date.parse(s)) && Date.parse(s) > -62135596800000,
  });
  ajv.addKeyword({ keyword: 'x-bytes', schemaType: 'number' });
  return ajv;
}

// Bodies are taken as sent: no type coercion (the string "true" is not a boolean) and unknown
// fields are refused, not silently dropped. Query strings and params are text, so they coerce.
const bodyAjv = configure(new Ajv({ coerceTypes: false, useDefaults: true, removeAdditional: false, allErrors: true, strict: false }));
const textAjv = configure(new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: false, allErrors: true, strict: false }));

/** Fastify validator compiler: a strict Ajv for bodies, a coercing one for query, params and headers. */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  const validate = ajv.compile(schema as object) as ValidateFunction;
  return (data: unknown) => (validate(data) ? { value: data } : { error: Object.assign(new Error('validation failed'), { validation: validate.errors }) });
};

export interface FieldError {
  field: string;
  message: string;
}

/** Names the offending field of an Ajv error: `consents[3].consentGiven`, `metadata`, `page`. */
export function fieldErrors(errors: readonly { instancePath: string; message?: string | undefined; keyword: string; params: Record<string, unknown> }[]): FieldError[] {
  return errors.map((e) => {
    const parts = e.instancePath.split('/').filter(Boolean).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (e.keyword === 'required') parts.push(String(e.params.missingProperty));
    if (e.keyword === 'additionalProperties') parts.push(String(e.params.additionalProperty));
    const field = parts.reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'additionalProperties') message = 'is not a known field';
    if (e.keyword === 'required') message = 'is required';
    if (e.keyword === 'enum') message = `must be one of: ${(e.params.allowedValues as unknown[]).join(', ')}`;
    return { field: field || '(body)', message };
  });
}

/**
 * Strings the ledger cannot hold faithfully: NUL characters (PostgreSQL text refuses them) and
 * lone UTF-16 surrogates (they would not survive UTF-8, so a hash could not be recomputed).
 * Walks iteratively, so deep input cannot exhaust the stack.
 */
export function findUnstorableString(value: unknown): string | null {
  const stack: { v: unknown; path: string }[] = [{ v: value, path: '' }];
  while (stack.length > 0) {
    const { v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000') || !v.isWellFormed()) return path || '(body)';
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push({ v: item, path: `${path}[${i}]` }));
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        if (k.includes('\u0000') || !k.isWellFormed()) return path || '(body)';
        stack.push({ v: item, path: path ? `${path}.${k}` : k });
      }
    }
  }
  return null;
}

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
