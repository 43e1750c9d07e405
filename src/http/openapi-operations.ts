/**
 * What makes the OpenAPI document enough to generate a client from (docs/client.md), added in one
 * place: each operation's `operationId` (from its method and path), a tag, a description of each
 * response, and an example of its request body and its success answer, built from their schemas.
 */

type Schema = Record<string, unknown>;
type MediaTypes = Record<string, { schema?: Schema; example?: unknown }>;
type Operation = {
  operationId?: string;
  tags?: string[];
  requestBody?: { content?: MediaTypes };
  responses?: Record<string, { description?: string; content?: MediaTypes }>;
};
type Paths = Record<string, Record<string, Operation>>;

export const STATUS_WORDS: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '204': 'No content',
  '400': 'Invalid input (VALIDATION_ERROR, details.errors names each field)',
  '401': 'Missing or invalid credentials (UNAUTHORIZED)',
  '403': "Outside the key's scope, origin or plan (FORBIDDEN, PLAN_RESTRICTED)",
  '404': 'Not found, or another tenant’s (NOT_FOUND)',
  '409': 'Conflict with the current state (see the error code)',
  '413': 'Body too large (PAYLOAD_TOO_LARGE)',
  '415': 'Not application/json (UNSUPPORTED_MEDIA_TYPE)',
  '422': 'Refused by a rule of the domain (see the error code)',
  '429': 'Rate limit exceeded (RATE_LIMIT_EXCEEDED)',
  '503': 'Unavailable; retry after Retry-After seconds',
};

const VERBS: Record<string, string> = { get: 'get', post: 'create', put: 'replace', patch: 'update', delete: 'delete', options: 'options' };

const pascal = (word: string): string =>
  word
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

/**
 * A verb from the method (or the action a POST path ends in), the path's words, and its
 * parameters: `GET /api/v1/consent/{id}` → `getConsentById`, `GET /api/v1/consent/{id}/proof` →
 * `getConsentProofById`, `POST /api/v1/consent/{id}/withdraw` → `withdrawConsentById`.
 */
export function operationIdOf(method: string, path: string): string {
  const segments = path.split('/').filter((s) => s && s !== 'api' && s !== 'v1');
  const words = segments.filter((s) => !s.startsWith('{'));
  const params = segments.filter((s) => s.startsWith('{')).map((s) => pascal(s.slice(1, -1)));
  const actions = new Set(['withdraw', 'verify', 'erase', 'test', 'pdf', 'batch', 'export', 'search', 'stats']);
  const action = method === 'post' && actions.has(words[words.length - 1]!) ? words.pop()! : undefined;
  const verb = action ?? VERBS[method] ?? method;
  return `${verb}${words.map(pascal).join('')}${params.length > 0 ? `By${params.join('And')}` : ''}`;
}

const resolve = (schema: Schema, components: Record<string, Schema>): Schema => {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  return resolve(components[ref.replace('#/components/schemas/', '')] ?? {}, components);
};

const STRING_FORMATS_UUID = '3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a2b';
const STRING_FORMATS: Record<string, string> = {
  uuid: STRING_FORMATS_UUID,
  'date-time': '2026-11-26T09:30:00.000Z',
  date: '2026-11-26',
  'date-or-date-time': '2026-11-26',
  ip: '203.0.113.7',
  uri: 'https://ledger.example.com/',
};

/**
 * Request bodies written out where one built from the schema would be refused (Swagger UI's "Try it
 * out" sends it as it is): fields that exclude each other (a version by id, purpose or type), a
 * duration, an expiry in the future, fields of publishable keys only.
 */
const KEY_EXAMPLE = { scope: 'read', name: 'auditor', expiresAt: '2030-01-01T00:00:00.000Z' };
const PURPOSE_EXAMPLE = {
  name: 'Newsletter',
  description: 'A monthly email about new products',
  legalBasis: 'consent',
  consentValidFor: 'P13M',
  dpv: 'dpv:Marketing',
};
const BODY_EXAMPLES: Record<string, unknown> = {
  'POST /api/v1/policies': {
    policyType: 'custom',
    purpose: 'newsletter',
    version: '1.0.0',
    title: 'Newsletter',
    content: 'One email a month. Unsubscribe any time.',
    effectiveDate: '2026-11-26T09:30:00.000Z',
    requiresReconsent: true,
  },
  'POST /api/v1/purposes': { key: 'newsletter', ...PURPOSE_EXAMPLE },
  'PUT /api/v1/purposes/{key}': PURPOSE_EXAMPLE,
  'PATCH /api/v1/purposes/{key}': { consentValidFor: 'P24M' },
  'POST /api/v1/consent': {
    policyVersionId: STRING_FORMATS_UUID,
    userReference: 'user-42',
    consentGiven: true,
    ipAddress: '203.0.113.7',
    userAgent: 'Mozilla/5.0',
    metadata: { source: 'signup' },
  },
  'POST /api/v1/consent/batch': {
    consents: [
      { policyType: 'privacy_policy', userReference: 'user-42', consentGiven: true, metadata: { source: 'signup' } },
      { purpose: 'newsletter', userReference: 'user-42', consentGiven: false },
    ],
  },
  'POST /api/v1/consent/{id}/withdraw': { reason: 'asked by email' },
  'POST /api/v1/consent/user/{userReference}/withdraw': { purpose: 'newsletter', reason: 'asked by email' },
  'POST /api/v1/consent/user/withdraw': { userReference: 'user-42', purpose: 'newsletter', reason: 'asked by email' },
  'POST /api/v1/subjects/erase': { userReference: 'user-42' },
  'POST /api/v1/keys': KEY_EXAMPLE,
  'POST /admin/v1/tenants/{id}/keys': KEY_EXAMPLE,
  'POST /api/v1/webhooks': {
    url: 'https://hooks.example.com/consent',
    events: ['consent.created', 'consent.withdrawn'],
    description: 'CRM sync',
  },
  'PUT /api/v1/webhooks/{id}': { isActive: true, events: ['consent.created'], description: 'CRM sync' },
  'PATCH /api/v1/webhooks/{id}': { isActive: false },
  'POST /admin/v1/tenants': { name: 'Acme Ltd', plan: 'starter' },
  'PATCH /admin/v1/tenants/{id}': { plan: 'pro', limits: { perMinute: 600, perDay: 100000 } },
};

/** A plausible value of a schema: its own example first, else one built from its type and format. */
export function exampleOf(input: Schema, components: Record<string, Schema>, depth = 0): unknown {
  const schema = resolve(input, components);
  if (depth > 12) return null;
  if ('example' in schema) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('default' in schema && schema.type !== 'object') return schema.default;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key] as Schema[] | undefined;
    if (options) {
      const chosen = options.map((o) => resolve(o, components)).find((o) => o.type !== 'null') ?? options[0]!;
      return exampleOf(chosen, components, depth + 1);
    }
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...schema.allOf.map((s) => exampleOf(s as Schema, components, depth + 1) as object));
  }
  switch (schema.type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      return Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, exampleOf(v, components, depth + 1)]));
    }
    case 'array':
      return schema.items ? [exampleOf(schema.items as Schema, components, depth + 1)] : [];
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? Math.max(schema.minimum, 1) : 1;
    case 'boolean':
      return true;
    case 'string': {
      if (typeof schema.format === 'string' && STRING_FORMATS[schema.format]) return STRING_FORMATS[schema.format];
      if (typeof schema.pattern === 'string' && schema.pattern.includes('{64}'))
        return 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
      if (typeof schema.pattern === 'string' && schema.pattern.startsWith('^[a-z0-9]')) return 'newsletter';
      return 'string';
    }
    default:
      return null;
  }
}

/**
 * Gives every operation its id, a tag, a description of each response, and examples, in place.
 *
 * @example
 * describeOperations(doc.paths, doc.components.schemas) // POST /api/v1/consent: operationId createConsent, …
 */
export function describeOperations(paths: Paths, components: Record<string, Schema>): void {
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(operations)) {
      op.operationId ??= operationIdOf(method, path);
      if (!op.tags || op.tags.length === 0) op.tags = [path.startsWith('/admin/') ? 'admin' : 'system'];
      const body = op.requestBody?.content?.['application/json'];
      if (body?.schema && body.example === undefined)
        body.example = BODY_EXAMPLES[`${method.toUpperCase()} ${path}`] ?? exampleOf(body.schema, components);
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (!response.description || response.description === 'Default Response') {
          response.description = STATUS_WORDS[status] ?? `HTTP ${status}`;
        }
        const json = response.content?.['application/json'];
        if (json?.schema && json.example === undefined && status.startsWith('2')) json.example = exampleOf(json.schema, components);
      }
    }
  }
}
