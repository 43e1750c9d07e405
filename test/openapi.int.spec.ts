import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument, CLIENT_TYPES_PATH, OPENAPI_PATH, renderClientTypes, renderOpenApi } from '../scripts/write-openapi.js';
import { client, startTestService, type TestService } from './support/service.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

const isObj = (v: Json | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** JSON Pointer (RFC 6901) lookup of a local `#/...` reference. */
function resolvePointer(doc: Json, ref: string): Json | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: Json | undefined = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObj(node)) node = Object.hasOwn(node, key) ? node[key] : undefined;
    else return undefined;
  }
  return node;
}

/** Every `$ref` in the document, with where it sits. */
function refsOf(node: Json, path = '#'): { at: string; ref: string }[] {
  if (Array.isArray(node)) return node.flatMap((v, i) => refsOf(v, `${path}/${i}`));
  if (!isObj(node)) return [];
  return Object.entries(node).flatMap(([k, v]) =>
    k === '$ref' && typeof v === 'string' ? [{ at: path, ref: v }] : refsOf(v, `${path}/${k}`),
  );
}

// The Schema Object of OpenAPI 3.0: these keywords and `x-` extensions, nothing else.
const SCHEMA_KEYWORDS = new Set([
  'title',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxProperties',
  'minProperties',
  'required',
  'enum',
  'type',
  'allOf',
  'oneOf',
  'anyOf',
  'not',
  'items',
  'properties',
  'additionalProperties',
  'description',
  'format',
  'default',
  'nullable',
  'discriminator',
  'readOnly',
  'writeOnly',
  'xml',
  'externalDocs',
  'example',
  'deprecated',
  '$ref',
]);
const SCHEMA_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

/** Problems of one schema (and its subschemas) against OpenAPI 3.0's Schema Object. */
function schemaProblems(schema: Json, at: string): string[] {
  if (!isObj(schema)) return [`${at}: a schema must be an object`];
  const problems: string[] = [];
  for (const key of Object.keys(schema)) {
    if (!SCHEMA_KEYWORDS.has(key) && !key.startsWith('x-')) problems.push(`${at}: "${key}" is not an OpenAPI 3.0 schema keyword`);
  }
  if ('$ref' in schema && Object.keys(schema).length > 1) problems.push(`${at}: $ref with siblings (ignored in 3.0)`);
  if ('type' in schema && !(typeof schema.type === 'string' && SCHEMA_TYPES.has(schema.type)))
    problems.push(`${at}: type ${JSON.stringify(schema.type)}`);
  if (schema.required !== undefined && !(Array.isArray(schema.required) && schema.required.length > 0))
    problems.push(`${at}: required must be a non-empty array`);
  if (isObj(schema.properties))
    for (const [k, v] of Object.entries(schema.properties)) problems.push(...schemaProblems(v, `${at}/properties/${k}`));
  if (schema.items !== undefined) problems.push(...schemaProblems(schema.items, `${at}/items`));
  if (isObj(schema.additionalProperties)) problems.push(...schemaProblems(schema.additionalProperties, `${at}/additionalProperties`));
  if (schema.not !== undefined) problems.push(...schemaProblems(schema.not, `${at}/not`));
  for (const k of ['allOf', 'oneOf', 'anyOf'] as const) {
    const list = schema[k];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.length === 0) problems.push(`${at}/${k}: must be a non-empty array`);
    else list.forEach((s, i) => problems.push(...schemaProblems(s, `${at}/${k}/${i}`)));
  }
  return problems;
}

/**
 * The rules of OpenAPI 3.0.3 that a generator gets wrong in practice: document shape, operations,
 * responses, parameters (path templates included), request bodies, security, tags and schemas.
 */
function openApiProblems(doc: Obj): string[] {
  const problems: string[] = [];
  if (typeof doc.openapi !== 'string' || !/^3\.0\.\d+$/.test(doc.openapi)) problems.push(`openapi: ${String(doc.openapi)}`);
  if (!isObj(doc.info) || typeof doc.info.title !== 'string' || typeof doc.info.version !== 'string')
    problems.push('info needs title and version');
  if (!isObj(doc.paths)) return [...problems, 'paths is missing'];
  const components = isObj(doc.components) ? doc.components : {};
  const schemes = isObj(components.securitySchemes) ? components.securitySchemes : {};
  const tags = new Set((Array.isArray(doc.tags) ? doc.tags : []).map((t) => (isObj(t) ? t.name : null)));
  if (isObj(components.schemas))
    for (const [name, s] of Object.entries(components.schemas)) problems.push(...schemaProblems(s, `#/components/schemas/${name}`));
  const operationIds = new Set<string>();

  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith('/')) problems.push(`${path}: must start with /`);
    if (!isObj(item)) {
      problems.push(`${path}: not an object`);
      continue;
    }
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!).sort();
    for (const [method, op] of Object.entries(item)) {
      const at = `${method.toUpperCase()} ${path}`;
      if (!METHODS.includes(method)) {
        if (!['summary', 'description', 'servers', 'parameters'].includes(method) && !method.startsWith('x-'))
          problems.push(`${at}: unknown key`);
        continue;
      }
      if (!isObj(op)) {
        problems.push(`${at}: not an object`);
        continue;
      }
      if (typeof op.operationId === 'string') {
        if (operationIds.has(op.operationId)) problems.push(`${at}: duplicate operationId ${op.operationId}`);
        operationIds.add(op.operationId);
      }
      for (const tag of Array.isArray(op.tags) ? op.tags : [])
        if (!tags.has(tag)) problems.push(`${at}: tag ${String(tag)} is not declared`);
      for (const req of Array.isArray(op.security) ? op.security : []) {
        for (const name of Object.keys(isObj(req) ? req : {}))
          if (!(name in schemes)) problems.push(`${at}: security scheme ${name} is not declared`);
      }
      const params = (Array.isArray(op.parameters) ? op.parameters : []).filter(isObj);
      const seen = new Set<string>();
      for (const p of params) {
        const where = `${at} parameter ${String(p.name)}`;
        if (typeof p.name !== 'string' || !['query', 'header', 'path', 'cookie'].includes(String(p.in)))
          problems.push(`${where}: needs name and a valid "in"`);
        if (seen.has(`${p.in}:${p.name}`)) problems.push(`${where}: declared twice`);
        seen.add(`${p.in}:${p.name}`);
        if (p.in === 'path' && p.required !== true) problems.push(`${where}: path parameters must be required`);
        if (p.schema === undefined && p.content === undefined) problems.push(`${where}: needs a schema`);
        if (p.schema !== undefined) problems.push(...schemaProblems(p.schema, `${where} schema`));
      }
      const declared = params
        .filter((p) => p.in === 'path')
        .map((p) => String(p.name))
        .sort();
      if (JSON.stringify(declared) !== JSON.stringify(templated))
        problems.push(`${at}: path parameters ${declared.join(',')} do not match the template ${templated.join(',')}`);
      if (op.requestBody !== undefined) {
        const body = op.requestBody;
        if (!isObj(body) || !isObj(body.content) || Object.keys(body.content).length === 0)
          problems.push(`${at}: requestBody needs content`);
        else
          for (const [type, media] of Object.entries(body.content))
            if (isObj(media) && media.schema !== undefined) problems.push(...schemaProblems(media.schema, `${at} body ${type}`));
      }
      if (!isObj(op.responses) || Object.keys(op.responses).length === 0) {
        problems.push(`${at}: needs responses`);
        continue;
      }
      for (const [status, res] of Object.entries(op.responses)) {
        if (!/^([1-5]\d\d|[1-5]XX|default)$/.test(status)) problems.push(`${at} ${status}: not a status code`);
        if (!isObj(res)) continue;
        if (typeof res.description !== 'string') problems.push(`${at} ${status}: a response needs a description`);
        // A Header Object holds its schema under `schema` (or `content`); a $ref names one in components.
        if (isObj(res.headers))
          for (const [name, h] of Object.entries(res.headers)) {
            if (!isObj(h) || typeof h.$ref === 'string') continue;
            if (h.schema === undefined && h.content === undefined) problems.push(`${at} ${status} header ${name}: needs a schema`);
            if (h.schema !== undefined) problems.push(...schemaProblems(h.schema, `${at} ${status} header ${name}`));
          }
        if (isObj(res.content))
          for (const [type, media] of Object.entries(res.content))
            if (isObj(media) && media.schema !== undefined) problems.push(...schemaProblems(media.schema, `${at} ${status} ${type}`));
      }
    }
  }
  for (const { at, ref } of refsOf(doc)) if (resolvePointer(doc, ref) === undefined) problems.push(`${at}: $ref ${ref} does not resolve`);
  return problems;
}

describe('OpenAPI document', () => {
  let generated: Obj;
  let t: TestService;
  beforeAll(async () => {
    generated = (await buildOpenApiDocument()) as Obj;
    t = await startTestService({ ADMIN_TOKEN: 'openapi-drift-test-admin-token' });
  }, 120_000);
  afterAll(() => t?.close());

  it('when the code changes › docs/openapi.json is regenerated (run `npm run openapi`)', async () => {
    const committed = await readFile(OPENAPI_PATH, 'utf8').catch(() => '');
    const expected = renderOpenApi(generated);
    if (committed !== expected) {
      // Name the first difference, and the fix.
      const a = committed.split('\n');
      const b = expected.split('\n');
      const line = a.findIndex((l, i) => l !== b[i]);
      expect.fail(
        `docs/openapi.json is out of date with the code: run \`npm run openapi\` and commit it.\n` +
          `first difference at line ${line + 1}:\n  committed: ${a[line] ?? '(end of file)'}\n  generated: ${b[line] ?? '(end of file)'}`,
      );
    }
    expect(committed.endsWith('}\n')).toBe(true);
  });

  it('when the code changes › the typed client (client/schema.ts) is regenerated with it (run `npm run openapi`)', async () => {
    const committed = await readFile(CLIENT_TYPES_PATH, 'utf8').catch(() => '');
    const expected = await renderClientTypes(generated as Record<string, unknown>);
    expect(committed === expected, 'client/schema.ts is out of date with docs/openapi.json: run `npm run openapi` and commit it').toBe(
      true,
    );
  });

  it('when generating a client › every operation has an operationId (unique), a tag, described responses, an example, its scopes, 429 and the rate-limit headers', () => {
    const paths = generated.paths as Record<string, Record<string, Obj>>;
    const ids = new Set<string>();
    const problems: string[] = [];
    for (const [path, operations] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const name = `${method.toUpperCase()} ${path}`;
        const id = op.operationId as string | undefined;
        if (!id || ids.has(id)) problems.push(`${name}: operationId ${id ?? 'missing'}`);
        ids.add(id ?? '');
        if (!Array.isArray(op.tags) || op.tags.length === 0) problems.push(`${name}: no tag`);
        const responses = op.responses as Record<string, Obj>;
        for (const [status, r] of Object.entries(responses)) {
          if (typeof r.description !== 'string' || r.description === 'Default Response') problems.push(`${name} ${status}: no description`);
        }
        const success = Object.entries(responses).find(([s]) => s.startsWith('2'));
        const content = (success?.[1].content ?? {}) as Record<string, Obj>;
        const body = ((op.requestBody as Obj | undefined)?.content ?? {}) as Record<string, Obj>;
        const json = content['application/json'] ?? body['application/json'];
        if (json && json.example === undefined) problems.push(`${name}: no example`);
        // Every route a budget limits (the tenant API, the receipt check, the public log, the SDK) says so.
        if (!['/api/v1/', '/verify/', '/ledger/', '/sdk/'].some((p) => path.startsWith(p))) continue;
        if (path.startsWith('/api/v1/') && !Array.isArray(op['x-scopes'])) problems.push(`${name}: no x-scopes`);
        if (!responses['429']) problems.push(`${name}: no 429`);
        for (const [status, r] of Object.entries(responses)) {
          if (!isObj(r.headers as Json) || !('X-RateLimit-Remaining' in (r.headers as Obj)))
            problems.push(`${name} ${status}: no rate-limit headers`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(paths['/api/v1/consent']!.post!.operationId).toBe('createConsent');
    expect(paths['/api/v1/consent/{id}']!.get!.operationId).toBe('getConsentById');
    expect(paths['/api/v1/consent/{id}/withdraw']!.post!.operationId).toBe('withdrawConsentById');
  });

  it('when a body can be sent › every POST, PUT and PATCH lists 413 and 415, and answers 415 to a body not JSON', async () => {
    const creds = await t.tenant('enterprise');
    const sample: Record<string, string> = { id: '00000000-0000-4000-8000-000000000000', userReference: 'someone', key: 'news' };
    const problems: string[] = [];
    for (const [path, item] of Object.entries(generated.paths as Record<string, Obj>)) {
      for (const method of Object.keys(item).filter((m) => ['post', 'put', 'patch'].includes(m))) {
        const name = `${method.toUpperCase()} ${path}`;
        const responses = (item[method] as Obj).responses as Obj;
        for (const status of ['413', '415']) if (!responses[status]) problems.push(`${name}: no ${status}`);
        const url = path.replace(/\{(\w+)\}/g, (_m, param: string) => sample[param] ?? 'x');
        const res = await t.app.inject({
          method: method.toUpperCase() as 'POST',
          url,
          headers: {
            'content-type': 'text/plain',
            'x-api-key': creds.apiKey,
            'x-api-secret': creds.apiSecret,
            authorization: 'Bearer openapi-drift-test-admin-token',
          },
          payload: 'x',
        });
        if (res.statusCode !== 415) problems.push(`${name}: answered ${res.statusCode} to text/plain`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('when a write meets a concurrent one › every write of the store lists 409 CONCURRENCY_CONFLICT, and every write’s 409 and every 503 Retry-After', () => {
    const problems: string[] = [];
    for (const [path, item] of Object.entries(generated.paths as Record<string, Obj>)) {
      for (const [method, op] of Object.entries(item)) {
        const responses = ((op as Obj).responses ?? {}) as Record<string, Obj>;
        const name = `${method.toUpperCase()} ${path}`;
        const store = path.startsWith('/api/v1/') || path.startsWith('/admin/v1/');
        const write = ['post', 'put', 'patch', 'delete'].includes(method);
        if (store && write && !String(responses['409']?.description).includes('CONCURRENCY_CONFLICT'))
          problems.push(`${name}: no 409 CONCURRENCY_CONFLICT`);
        for (const status of write ? ['409', '503'] : ['503'])
          if (responses[status] && !(responses[status]!.headers as Obj | undefined)?.['Retry-After'])
            problems.push(`${name} ${status}: no Retry-After`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('when an answer is a file or a replay › it declares Content-Disposition, and an erasure repeated Idempotent-Replayed', () => {
    const paths = generated.paths as Record<string, Record<string, { responses: Record<string, { headers?: Obj; content?: Obj }> }>>;
    const files = ['text/csv', 'application/x-ndjson', 'application/pdf', 'application/gzip'];
    const missing: string[] = [];
    for (const [path, item] of Object.entries(paths))
      for (const [method, op] of Object.entries(item))
        for (const [status, response] of Object.entries(op.responses ?? {}))
          if (
            status.startsWith('2') &&
            Object.keys(response.content ?? {}).some((t) => files.includes(t)) &&
            !response.headers?.['Content-Disposition']
          )
            missing.push(`${method.toUpperCase()} ${path} ${status}`);
    expect(missing).toEqual([]);
    for (const path of ['/api/v1/subjects/erase', '/api/v1/subjects/{userReference}/erase'])
      expect(paths[path]!.post!.responses['200']!.headers).toHaveProperty('Idempotent-Replayed');
  });

  it('when tried out › every request body example passes validation as it is (Swagger UI sends it unchanged)', async () => {
    const creds = await t.tenant('enterprise');
    // The examples name a purpose and a version by id: both exist, so that what is left to refuse is the example's shape.
    const api = client(t.app, creds);
    await api.post('/api/v1/purposes', { key: 'newsletter', name: 'Newsletter', description: 'News', legalBasis: 'consent' });
    for (const version of [{ policyType: 'custom', purpose: 'newsletter' }, { policyType: 'privacy_policy' }])
      expect((await api.post('/api/v1/policies', { ...version, version: '0.1.0', title: 'T', content: 'C' })).statusCode).toBe(201);
    const sample: Record<string, string> = { id: '00000000-0000-4000-8000-000000000000', userReference: 'user-42', key: 'newsletter' };
    const refused: string[] = [];
    for (const [path, item] of Object.entries(generated.paths as Record<string, Obj>)) {
      for (const [method, op] of Object.entries(item)) {
        const body = ((op as Obj).requestBody as Obj | undefined)?.content as Obj | undefined;
        const example = (body?.['application/json'] as Obj | undefined)?.example;
        if (example === undefined) continue;
        const res = await t.app.inject({
          method: method.toUpperCase() as 'POST',
          url: path.replace(/\{(\w+)\}/g, (_m, param: string) => sample[param] ?? 'x'),
          headers: {
            'x-api-key': creds.apiKey,
            'x-api-secret': creds.apiSecret,
            authorization: 'Bearer openapi-drift-test-admin-token',
          },
          payload: example as object,
        });
        if (res.statusCode === 400) refused.push(`${method.toUpperCase()} ${path}: ${res.json().error.message}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it('when walked › is a valid OpenAPI 3.0 document: every $ref resolves, every operation is well formed', () => {
    expect(openApiProblems(generated)).toEqual([]);
    expect(refsOf(generated).length).toBeGreaterThan(0);
  });

  it('when checking the checker › it catches a dangling $ref, a bad schema type and a missing path parameter', () => {
    const broken = structuredClone(generated) as Obj & { paths: Record<string, Record<string, Obj>> };
    const op = broken.paths['/api/v1/consent/{id}']!.get!;
    op.parameters = [];
    (op.responses as Obj)['404'] = { description: 'x', content: { 'application/json': { schema: { $ref: '#/components/schemas/Nope' } } } };
    (op.responses as Obj)['200'] = { description: 'x', content: { 'application/json': { schema: { type: 'null' } } } };
    const problems = openApiProblems(broken);
    expect(problems.some((p) => p.includes('#/components/schemas/Nope does not resolve'))).toBe(true);
    expect(problems.some((p) => p.includes('type "null"'))).toBe(true);
    expect(problems.some((p) => p.includes('do not match the template id'))).toBe(true);
  });

  it('when listing paths › documents /api/v1 and the admin API, and hides the /v1 duplicates', () => {
    const paths = Object.keys(generated.paths as Obj);
    expect(paths.filter((p) => p.startsWith('/v1/'))).toEqual([]);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/health',
        '/ready',
        '/api/v1/policies',
        '/api/v1/policies/{id}',
        '/api/v1/policies/active/{policyType}',
        '/api/v1/consent',
        '/api/v1/consent/batch',
        '/api/v1/consent/search',
        '/api/v1/consent/stats',
        '/api/v1/consent/export',
        '/api/v1/consent/verify',
        '/api/v1/consent/{id}',
        '/api/v1/consent/{id}/verify',
        '/api/v1/consent/{id}/withdraw',
        '/api/v1/consent/user/{userReference}',
        '/api/v1/consent/user/{userReference}/status',
        '/admin/v1/tenants',
      ]),
    );
    const policies = (generated.paths as Record<string, Obj>)['/api/v1/policies/{id}']!;
    expect(Object.keys(policies).sort()).toEqual(['delete', 'get', 'patch', 'put']);
    // API routes carry the key-and-secret security requirement; admin routes the bearer token.
    expect((policies.get as Obj).security).toEqual([{ apiKey: [], apiSecret: [] }]);
    // The one route a publishable key may call takes the key alone too; its replays say so.
    const record = (generated.paths as Record<string, Obj>)['/api/v1/consent']!.post as Obj;
    expect(record.security).toEqual([{ apiKey: [], apiSecret: [] }, { apiKey: [] }]);
    const created = (record.responses as Record<string, Obj>)['201']!;
    expect(created.headers).toHaveProperty('Idempotent-Replayed');
    expect(((generated.paths as Record<string, Obj>)['/admin/v1/tenants']!.post as Obj).security).toEqual([{ admin: [] }]);
  });

  it('when a documented /api/v1 path is called under /v1 › the route exists there too', async () => {
    const sample: Record<string, string> = {
      id: '00000000-0000-4000-8000-000000000000',
      policyType: 'privacy_policy',
      userReference: 'someone',
    };
    for (const [path, item] of Object.entries(generated.paths as Record<string, Obj>)) {
      if (!path.startsWith('/api/v1/')) continue;
      for (const method of Object.keys(item).filter((m) => METHODS.includes(m))) {
        const url = path.replace(/^\/api/, '').replace(/\{(\w+)\}/g, (_m, name: string) => sample[name] ?? 'x');
        // No credentials: a route that exists answers 401, one that does not 404.
        const res = await t.app.inject({ method: method.toUpperCase() as 'GET', url });
        expect(res.statusCode, `${method.toUpperCase()} ${url}`).toBe(401);
      }
    }
  });

  it('when served › /docs answers the UI and /docs/json the same document', async () => {
    const ui = await t.app.inject({ method: 'GET', url: '/docs' });
    const page = ui.statusCode === 302 ? await t.app.inject({ method: 'GET', url: ui.headers.location as string }) : ui;
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toMatch(/swagger-ui/i);

    const json = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-type']).toMatch(/application\/json/);
    expect(json.json()).toEqual(generated);
  });
});
