import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/process.js';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';

/**
 * Query parameters (docs/decisions/0004): a route refuses every parameter it does not document,
 * every integer parameter is bounded, and what Node's HTTP parser refuses is answered in the
 * error envelope too.
 */

interface Parameter {
  name: string;
  in: string;
  schema?: { type?: string; minimum?: number; maximum?: number };
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: unknown;
}
const openapi = JSON.parse(readFileSync(join(repoRoot, 'docs', 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
};
const operations = Object.entries(openapi.paths).flatMap(([path, methods]) =>
  Object.entries(methods)
    .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
    .map(([method, op]) => ({ method: method.toUpperCase() as 'GET', path, op })),
);
const integerQueries = operations.flatMap(({ method, path, op }) =>
  (op.parameters ?? []).filter((p) => p.in === 'query' && p.schema?.type === 'integer').map((p) => ({ method, path, parameter: p })),
);

let t: TestService;
let api: Client;
let policyId: string;
let consentId: string;

beforeAll(async () => {
  t = await startTestService({ ADMIN_TOKEN: 'query-parameters-admin-token-0123' });
  api = client(t.app, await t.tenant('enterprise'));
  policyId = await publishPolicy(api);
  const res = await api.post('/api/v1/consent', { policyVersionId: policyId, userReference: 'query-user', consentGiven: true });
  expect(res.statusCode, res.body).toBe(201);
  consentId = res.json().data.id;
});
afterAll(() => t?.close());

/** A path of the OpenAPI document with its parameters filled with values that exist. */
const fill = (path: string): string =>
  path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (name === 'id' && path.startsWith('/api/v1/policies')) return policyId;
    if (name === 'id' || name === 'consentId') return consentId;
    if (name === 'userReference') return 'query-user';
    if (name === 'type' || name === 'policyType') return 'privacy_policy';
    return randomUUID();
  });

function expectRefused(res: LightMyRequestResponse, field: string): void {
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json();
  expect(body.success).toBe(false);
  expect(body.error.code).toBe('VALIDATION_ERROR');
  expect(body.error.message).toContain(field);
  expect(body.error.details.errors.map((e: { field: string }) => e.field)).toContain(field);
}

const send = (method: string, url: string) => {
  // The operator's routes (the admin API, the metrics) take the admin token.
  const admin =
    url.startsWith('/admin/') || url.split('?')[0] === '/metrics' ? { authorization: 'Bearer query-parameters-admin-token-0123' } : {};
  return api.inject({ method: method as 'GET', url, headers: admin });
};

describe('query parameters › when a route is sent one it does not document › 400 naming it', () => {
  it('the two parameters a client could believe were honoured', async () => {
    expectRefused(await api.get('/api/v1/consent/search?policyVersion=1.0.0'), 'policyVersion');
    expectRefused(await api.get('/api/v1/consent/export?format=json'), 'format');
    expectRefused(await api.get('/v1/consent?policyVersion=1.0.0'), 'policyVersion');
    // A user's list is the user the path names: another user in the query would be silently dropped.
    expectRefused(await api.get('/api/v1/consent/user/user-42?userReference=someone-else'), 'userReference');
    // A metadata filter is a top-level key: a nested path is not one, and is refused, not ignored.
    const nested = await api.get('/api/v1/consent/search?metadata.campaign.zone=EU');
    expectRefused(nested, 'metadata.campaign.zone');
    // ... with the rule a metadata filter follows, not only "unknown".
    expect(nested.json().error.details.errors[0].message).toMatch(
      /a metadata filter names a top-level key .* nested values are not matched/,
    );
  });

  // The public verify page ignores what apps add to its link (test/api/receipts.api.spec.ts).
  const reads = operations.filter((o) => o.method === 'GET' && o.path !== '/verify/{consentId}');
  it.each(reads.map((o) => [o.path, o] as const))('GET %s?bogus=1', async (_path, o) => {
    expectRefused(await send('GET', `${fill(o.path)}?bogus=1`), 'bogus');
  });

  it('a write with an unknown parameter records nothing', async () => {
    const before = (await api.get('/api/v1/consent/stats')).json().data.totalConsents;
    const res = await api.post('/api/v1/consent?dryRun=true', {
      policyVersionId: policyId,
      userReference: 'query-user',
      consentGiven: true,
    });
    expectRefused(res, 'dryRun');
    expect((await api.get('/api/v1/consent/stats')).json().data.totalConsents).toBe(before);
  });

  it('a parameter spelt in another case is unknown too', async () => {
    expectRefused(await api.get('/api/v1/consent/search?UserReference=query-user'), 'UserReference');
  });

  it('an unknown route still answers 404, whatever its query', async () => {
    const res = await api.get('/api/v1/nowhere?bogus=1');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
  });

  it('a parameter name with a NUL is refused naming the query, not the body', async () => {
    const res = await api.get('/api/v1/consent/search?metadata.sou%00rce=web');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.errors).toEqual([{ field: '(query)', message: 'has a key with a NUL character or invalid Unicode' }]);
  });

  it('a path served under other methods answers 405 with Allow, and writes nothing', async () => {
    const before = (await api.get('/api/v1/consent/stats')).json().data.totalConsents;
    for (const [method, url, allow] of [
      ['DELETE', '/api/v1/consent/00000000-0000-4000-8000-000000000000', 'GET, HEAD'],
      ['POST', '/v1/consent/stats', 'GET, HEAD'],
      ['PUT', '/api/v1/consent', 'GET, HEAD, OPTIONS, POST'],
      ['GET', '/api/v1/consent/00000000-0000-4000-8000-000000000000/withdraw', 'POST'],
    ] as const) {
      const res = await api.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(405);
      expect(res.headers.allow, `${method} ${url}`).toBe(allow);
      expect(res.json()).toMatchObject({ success: false, error: { code: 'METHOD_NOT_ALLOWED' } });
      expect(res.json().error.message).toContain(`use ${allow}`);
    }
    expect((await api.get('/api/v1/consent/stats')).json().data.totalConsents).toBe(before);
  });
});

describe('query parameters › when a documented alias is used › it keeps working', () => {
  it.each([
    ['/api/v1/policies?type=privacy_policy&is_active=true', 1],
    ['/api/v1/policies?policyType=privacy_policy&isActive=true', 1],
    ['/api/v1/consent/search?consent_type=privacy_policy&granted=true', 1],
    ['/api/v1/consent/search?policyType=privacy_policy&consentGiven=true', 1],
    ['/api/v1/consent?policyType=privacy_policy&userReference=query-user', 1],
    ['/v1/consent?consent_type=privacy_policy&granted=false', 0],
  ])('GET %s', async (url, total) => {
    const res = await api.get(url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().pagination.total).toBe(total);
  });

  it('stats by either spelling, and verify by query', async () => {
    const a = await api.get('/api/v1/consent/stats?policyType=privacy_policy');
    const b = await api.get('/api/v1/consent/stats?consent_type=privacy_policy');
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json().data.totalConsents).toBe(1);
    expect(b.json().data.totalConsents).toBe(1);
    const v = await api.get(`/api/v1/consent/verify?consentId=${consentId}`);
    expect(v.statusCode, v.body).toBe(200);
    expect(v.json().data.valid).toBe(true);
  });
});

describe('query parameters › when one is given twice › 400 saying so, whatever its type', () => {
  it.each([
    ['/api/v1/consent/search?limit=5&limit=5', 'limit'],
    ['/api/v1/consent/search?startDate=2026-01-01&startDate=2026-01-02', 'startDate'],
    ['/api/v1/consent/search?metadata.source=a&metadata.source=b', 'metadata.source'],
    ['/api/v1/policies?purpose=x&purpose=y', 'purpose'],
  ])('GET %s', async (url, field) => {
    const res = await api.get(url);
    expectRefused(res, field);
    expect(res.json().error.details.errors).toEqual([{ field, message: 'is given more than once' }]);
  });
});

describe('query parameters › when a time range ends before it starts › 400 naming its start, not an empty answer', () => {
  it.each([
    ['/api/v1/consent/search?startDate=2026-12-01&endDate=2026-01-01', 'startDate'],
    ['/api/v1/consent/stats?startDate=2026-12-01T00:00:00Z&endDate=2026-11-30T23:59:59Z', 'startDate'],
    ['/api/v1/consent/export?startDate=2026-12-01&endDate=2026-01-01', 'startDate'],
    ['/api/v1/consent?userReference=query-user&startDate=2026-12-01&endDate=2026-01-01', 'startDate'],
    ['/api/v1/consent/stats/daily?startDate=2026-02-02&endDate=2026-02-01', 'startDate'],
    ['/api/v1/audit-log?from=2026-12-01&to=2026-01-01', 'from'],
  ])('GET %s', async (url, field) => {
    const res = await api.get(url);
    expectRefused(res, field);
    expect(res.json().error.details.errors[0].message).toMatch(/^must not be after (endDate|to)$/);
  });

  it('a range of one day, or of one millisecond, is no reversed range', async () => {
    expect((await api.get('/api/v1/consent/search?startDate=2026-01-01&endDate=2026-01-01')).statusCode).toBe(200);
    const at = '2026-01-01T10:00:00.000Z';
    expect((await api.get(`/api/v1/consent/search?startDate=${at}&endDate=${at}`)).statusCode).toBe(200);
    // Within one millisecond (records are stamped to it): empty, but not reversed.
    expect((await api.get('/api/v1/consent/search?startDate=2026-01-01T10:00:00.0009Z&endDate=2026-01-01T10:00:00.0005Z')).statusCode).toBe(
      200,
    );
    expect((await api.get('/api/v1/consent/search?startDate=2026-01-01T10:00:00.001Z&endDate=2026-01-01T10:00:00.000Z')).statusCode).toBe(
      400,
    );
    expect((await api.get('/api/v1/consent/stats/daily?startDate=2026-01-01&endDate=2026-01-01')).statusCode).toBe(200);
  });
});

describe('query parameters › when an integer is out of range › 400 naming it, never a 5xx', () => {
  it('every integer query parameter of the document has both bounds, at most a safe integer', () => {
    expect(integerQueries.length).toBeGreaterThan(5);
    for (const { path, parameter } of integerQueries) {
      expect(parameter.schema?.minimum, `${path} ${parameter.name}`).toBeTypeOf('number');
      expect(parameter.schema?.maximum, `${path} ${parameter.name}`).toBeTypeOf('number');
      expect(parameter.schema!.maximum!, `${path} ${parameter.name}`).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
    }
  });

  it('GET /ledger/events?after=1e19, the reported 500', async () => {
    expectRefused(await api.get('/api/v1/ledger/events?after=1e19'), 'after');
  });

  const values = [
    '1e19',
    '9223372036854775808',
    String(2 ** 53),
    '-2',
    '-9223372036854775809',
    '1.5',
    '0.5',
    '1e-3',
    '1e400',
    '1e1',
    '0x10',
    ' 1',
    '+1',
    '',
  ];
  it.each(integerQueries.map((q) => [`${q.method} ${q.path} ${q.parameter.name}`, q] as const))('%s', async (_name, q) => {
    for (const value of values) {
      // -2 is in range nowhere: every integer parameter starts at -1 or above.
      const others = q.path === '/api/v1/ledger/consistency' ? `&${q.parameter.name === 'from' ? 'to' : 'from'}=1` : '';
      const res = await send(q.method, `${fill(q.path)}?${q.parameter.name}=${encodeURIComponent(value)}${others}`);
      expect(res.statusCode, `${q.parameter.name}=${value}: ${res.body}`).toBe(400);
      expect(
        res.json().error.details.errors.map((e: { field: string }) => e.field),
        value,
      ).toContain(q.parameter.name);
    }
  });

  it('an integer in decimal digits within range is taken', async () => {
    const res = await api.get('/api/v1/ledger/events?after=-1&limit=10');
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('query parameters › when the HTTP parser refuses the request › the error envelope', () => {
  let url: URL;
  beforeAll(async () => {
    url = new URL(await t.app.listen({ host: '127.0.0.1', port: 0 }));
  });

  /** Sends raw bytes and answers everything the server wrote before it closed the connection. */
  const rawExchange = (bytes: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname);
      let out = '';
      socket.on('data', (d) => (out += d.toString('latin1')));
      socket.on('error', (e) => (out ? resolve(out) : reject(e)));
      socket.on('close', () => resolve(out));
      socket.write(bytes);
    });

  const envelopeOf = (response: string) => {
    const [head, body] = response.split('\r\n\r\n', 2) as [string, string];
    expect(head).toMatch(/content-type: application\/json/i);
    expect(head).toMatch(/connection: close/i);
    const parsed = JSON.parse(body);
    expect(parsed.success).toBe(false);
    expect(Number.isNaN(Date.parse(parsed.meta.timestamp))).toBe(false);
    return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), code: parsed.error.code as string };
  };

  it('headers too large: 431 HEADERS_TOO_LARGE', async () => {
    const response = await rawExchange(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(envelopeOf(response)).toEqual({ status: 431, code: 'HEADERS_TOO_LARGE' });
  });

  it('a malformed request line: 400 VALIDATION_ERROR', async () => {
    const response = await rawExchange('GARBAGE\r\n\r\n');
    expect(envelopeOf(response)).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
  });

  it('the service still answers after both', async () => {
    const res = await fetch(new URL('/health', url));
    expect(res.status).toBe(200);
  });
});
