import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UNAUTHENTICATED_LIMITS } from '../../src/limits/rate-limit.hooks.js';
import { prng } from '../support/prng.js';
import { provisionTenant, repoRoot, startServiceProcess, tenantClient, type ServiceProcess } from '../support/process.js';
import { defaultFaultEngine, printFigures, writableRowCounts, type FaultEngine } from './support.js';

/**
 * Issue 7, fault suite: a seeded fuzzer sends thousands of malformed and hostile requests to every
 * route of docs/openapi.json (both prefixes) against the real service. Every request is built to be
 * refused: a body that breaks its schema, a path id that is malformed or exists nowhere, a hostile
 * query, no or wrong credentials. Expected: zero 5xx, the process alive, and not one row added to
 * any table a request can write (the read models and the sealer's own tables aside).
 * test/api/bad-input.api.spec.ts proves each rule in process; this throws volume and mixtures at
 * the whole surface over real HTTP. It also tries, on every route, query parameters no route
 * documents and integers out of bounds or not in decimal digits (each must be a 400 naming the
 * parameter), user references of up to 255 characters of any kind in paths (each must be
 * taken), and raw requests Node's HTTP parser refuses (headers too large, malformed request
 * lines); every error must be the envelope. FUZZ_SEED replays a run.
 */

const ADMIN_TOKEN = 'faults-fuzz-admin-token-0123456789';
/** The service's default body limit (src/http/app.ts); larger bodies are refused unread. */
const BODY_LIMIT = 2 * 1024 * 1024;
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3000);
// A fixed seed by default, so CI judges the same requests every run; set FUZZ_SEED to explore.
const SEED = Number(process.env.FUZZ_SEED ?? 1);

interface Operation {
  method: string;
  path: string;
  hasBody: boolean;
  /** Its integer query parameters, by name. */
  integers: string[];
}

interface OpenApiOperation {
  requestBody?: unknown;
  parameters?: { name: string; in: string; schema?: { type?: string } }[];
}
const openapi = JSON.parse(readFileSync(join(repoRoot, 'docs', 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, OpenApiOperation>>;
};
/** The operator's routes (the admin API, the metrics) take the admin token. */
const operatorRoute = (path: string) => path.startsWith('/admin/') || path === '/metrics';
const operations: Operation[] = Object.entries(openapi.paths).flatMap(([path, methods]) =>
  Object.entries(methods)
    .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
    .flatMap(([m, op]) => {
      const paths = path.startsWith('/api/v1/') ? [path, path.replace('/api/v1/', '/v1/')] : [path];
      const integers = (op.parameters ?? []).filter((p) => p.in === 'query' && p.schema?.type === 'integer').map((p) => p.name);
      return paths.map((p) => ({ method: m.toUpperCase(), path: p, hasBody: op.requestBody !== undefined, integers }));
    }),
);

/** Numbers no integer parameter takes: huge, negative, fractional, exponent and other forms. */
const badIntegers = [
  '1e19',
  '9223372036854775808',
  '-9223372036854775809',
  String(2 ** 53),
  '1e400',
  '-1e400',
  '-2',
  '-0.5',
  '1.5',
  '2.0',
  '1e3',
  '1e-7',
  '0x10',
  '+1',
  ' 1',
  '١',
];
/** Query parameters no route documents, some of them plausible. */
const unknownParameters = [
  'policyVersionId',
  'format',
  'sort',
  'fields',
  'UserReference',
  'user_reference',
  'apiSecret',
  '__proto__',
  'constructor',
  'page[]',
  'a'.repeat(300),
];

/** The error envelope: what every refusal must be. */
function isEnvelope(text: string): boolean {
  try {
    const body = JSON.parse(text) as { success?: unknown; error?: { code?: unknown; message?: unknown }; meta?: { timestamp?: unknown } };
    return (
      body.success === false &&
      typeof body.error?.code === 'string' &&
      typeof body.error.message === 'string' &&
      typeof body.meta?.timestamp === 'string'
    );
  } catch {
    return false;
  }
}

const hostile = [
  "' OR 1=1 --",
  '"; DROP TABLE ledger.events; --',
  '../../../../etc/passwd',
  '%00',
  '\u0000',
  '\ud800',
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '{{7*7}}',
  'a'.repeat(5000),
  '🙂'.repeat(300),
  '-1',
  '1e400',
  'NaN',
  'null',
  '[]',
  '__proto__',
  'constructor',
  '00000000-0000-0000-0000-00000000000g',
];

/** Sends raw bytes to the service and answers what it wrote before closing (or after 5 s of silence). */
function rawExchange(base: string, bytes: string): Promise<string> {
  const url = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    let out = '';
    socket.setTimeout(5_000, () => socket.destroy());
    socket.on('data', (d) => (out += d.toString('latin1')));
    socket.on('error', () => resolve(out));
    socket.on('close', () => resolve(out));
    socket.write(bytes);
  });
}

describe('faults › when a fuzzer sends thousands of malformed and hostile requests to every route › no 5xx, no crash, no write', () => {
  let engine: FaultEngine | undefined;
  let svc: ServiceProcess | undefined;
  afterAll(async () => {
    if (svc && !svc.exit()) await svc.kill('SIGKILL');
    await engine?.dispose();
  });

  it(`${REQUESTS} refused requests over ${operations.length} operations`, async () => {
    engine = await defaultFaultEngine();
    svc = await startServiceProcess({ ...engine.env, ADMIN_TOKEN });
    const creds = await provisionTenant(svc.url, ADMIN_TOKEN, 'fuzz');
    const api = tenantClient(svc.url, creds);
    const policy = await api.post('/api/v1/policies', { policyType: 'privacy_policy', version: '1.0.0', title: 'P', content: 'c' });
    const consent = await api.post('/api/v1/consent', {
      policyVersionId: policy.body.data.id,
      userReference: 'fuzz-user',
      consentGiven: true,
    });
    expect([policy.status, consent.status]).toEqual([201, 201]);

    const random = prng(SEED);
    /** Percent-encoding that survives lone surrogates (sent as U+FFFD). */
    const enc = (v: string) => encodeURIComponent(v.toWellFormed());
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const auth = { 'x-api-key': creds.apiKey, 'x-api-secret': creds.apiSecret };
    /** A path parameter that names nothing: malformed, hostile, or a well-formed id that exists nowhere. */
    const badParam = () => (random() < 0.05 ? '%E0%A4%A' : enc(random() < 0.3 ? randomUUID() : pick(hostile)));
    /** A body that breaks any schema: not an object, malformed JSON, wrong types, unknown or poisoned fields. */
    const badBody = (): { body: string; type: string } => {
      const choice = Math.floor(random() * 9);
      const json = (v: unknown) => ({ body: JSON.stringify(v), type: 'application/json' });
      switch (choice) {
        case 0:
          return json(pick([[], 'text', 42, null, true]));
        case 1:
          return { body: pick(['{', '{"a":', '{"a":1,}', "{'a':1}", '\u0000', '{"a":1}{"b":2}']), type: 'application/json' };
        case 2:
          return {
            body: 'policyVersionId=x&userReference=y',
            type: pick(['application/x-www-form-urlencoded', 'text/plain', 'application/xml']),
          };
        case 3:
          return json({
            unexpectedField: pick(hostile),
            policyVersionId: pick(hostile),
            consentGiven: 'yes',
            url: 'http://127.0.0.1/',
            events: 'all',
            isActive: 'maybe',
          });
        case 4:
          return { body: '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}},"consentGiven":1}', type: 'application/json' };
        case 5:
          return json({ consents: Array.from({ length: 1001 }, () => ({ userReference: 'x' })) });
        case 6:
          return { body: `{"metadata":${'['.repeat(20_000)}1${']'.repeat(20_000)}}`, type: 'application/json' };
        case 7:
          return json({ isActive: pick(hostile), is_active: 3, name: 42, plan: pick(hostile), limits: { perMinute: -1 } });
        default:
          return { body: 'x'.repeat(3 * 1024 * 1024), type: 'application/json' };
      }
    };
    const badQuery = (op: Operation) =>
      pick([
        `?${pick(unknownParameters)}=${enc(pick(hostile))}`,
        ...(op.integers.length > 0
          ? [`?${pick(op.integers)}=${enc(pick(badIntegers))}`, `?${op.integers.map((n) => `${n}=${enc(pick(badIntegers))}`).join('&')}`]
          : []),
        `?page=${pick(['0', '-1', 'abc', '1e400', '99999999999999999999'])}`,
        `?limit=${pick(['0', '101', 'many', '-5'])}`,
        `?startDate=${enc(pick(hostile))}&endDate=2020-13-45`,
        `?consentGiven=${enc(pick(hostile))}`,
        `?consentId=${enc(pick(hostile))}`,
        `?status=${enc(pick(hostile))}&page=1&page=2`,
        `?hash=${enc(pick(hostile))}`,
        `?from=${enc(pick(hostile))}&to=-1&first=x&second=y&after=${enc(pick(hostile))}`,
      ]);

    const store0 = engine.name === 'postgres' ? await engine.open() : undefined;
    const before = store0 ? await writableRowCounts(store0) : undefined;

    const statuses = new Map<number, number>();
    // Refused credentials count against the client address: kept under its budget, whatever the
    // seed and number of requests, so that no answer is a 429 that tests nothing else.
    let badCredentials = 0;
    const maxBadCredentials = UNAUTHENTICATED_LIMITS.perMinute / 2;
    const fiveHundreds: string[] = [];
    const notEnvelopes: string[] = [];
    const accepted: string[] = [];
    let sent = 0;
    const one = async () => {
      const op = pick(operations);
      const idParams = (op.path.match(/\{[^}]+\}/g) ?? []).length;
      let path = op.path.replace(/\{[^}]+\}/g, () => badParam());
      const headers: Record<string, string> = {};
      const drawn = random();
      // Refused credentials are a few percent of the requests, up to maxBadCredentials in all.
      const who = drawn >= 0.97 && badCredentials >= maxBadCredentials ? 0 : drawn;
      if (who >= 0.97) badCredentials += 1;
      const headerSafe = (v: string) =>
        pick(hostile)
          .slice(0, 200)
          .replace(/[^\x21-\x7e]/g, '?') + v;
      // A write whose path names a subject, not an id (POST /subjects/{userReference}/erase), is
      // valid for any string a user reference may be.
      const namesSubject = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(op.method) && /\{(?![^}]*[iI]d\})[^}]+\}/.test(op.path);
      // So it names one longer than a user reference may be (1..255): refused by validation.
      if (namesSubject) path = op.path.replace(/\{[^}]+\}/g, () => 'r'.repeat(256 + Math.floor(random() * 100)));
      if (operatorRoute(op.path))
        Object.assign(
          headers,
          who < 0.97 ? { authorization: `Bearer ${ADMIN_TOKEN}` } : who < 0.985 ? { authorization: `Bearer ${headerSafe('x')}` } : {},
        );
      else if (who < 0.97) Object.assign(headers, auth);
      else if (who < 0.985) Object.assign(headers, { 'x-api-key': creds.apiKey, 'x-api-secret': `cs_${'A'.repeat(40)}` });
      else Object.assign(headers, { 'x-api-key': headerSafe('') });
      let body: string | undefined;
      if (['POST', 'PUT', 'PATCH'].includes(op.method) && (op.hasBody || random() < 0.5)) {
        const b = badBody();
        body = b.body;
        headers['content-type'] = b.type;
      }
      // A write without a required body and without a bad id could be valid: give it a bad id.
      if (idParams === 0 && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(op.method) && body === undefined) return;
      if (random() < 0.3) path += badQuery(op);
      if (random() < 0.05) headers['idempotency-key'] = headerSafe('k');
      sent += 1;
      const res = await fetch(`${svc!.url}${path}`, { method: op.method, headers, ...(body === undefined ? {} : { body }) }).catch(
        (error: unknown) => {
          // A body over the limit is answered 413 before it is read, and the connection closed:
          // a client still sending may see the reset instead of the answer (HTTP allows it). The
          // process must still be alive, which is checked below; anything else is a failure.
          if (body !== undefined && Buffer.byteLength(body) > BODY_LIMIT) {
            statuses.set(0, (statuses.get(0) ?? 0) + 1);
            return undefined;
          }
          fiveHundreds.push(`${op.method} ${path.slice(0, 200)}: no answer (${String(error)})`);
          return undefined;
        },
      );
      if (!res) return;
      const text = await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status >= 500)
        fiveHundreds.push(`${op.method} ${path.slice(0, 200)} ${body?.slice(0, 100) ?? ''} → ${res.status} ${text.slice(0, 200)}`);
      if (res.status >= 400 && !isEnvelope(text))
        notEnvelopes.push(`${op.method} ${path.slice(0, 200)} → ${res.status} ${text.slice(0, 200)}`);
      if (res.status < 300 && op.method !== 'GET')
        accepted.push(`${op.method} ${path.slice(0, 200)} ${body?.slice(0, 100) ?? ''} → ${res.status}`);
    };
    // First, while no budget of the client address is spent (the fuzz below may spend the public
    // routes' own), every route with good credentials and ids that exist: an unknown query parameter is a 400
    // naming it, and each integer parameter out of its bounds or not in decimal digits a 400 naming it.
    const namedRefusals: string[] = [];
    const known = (path: string) =>
      path.replace(/\{(\w+)\}/g, (_m, name: string) =>
        name === 'userReference'
          ? 'fuzz-user'
          : name === 'type' || name === 'policyType'
            ? 'privacy_policy'
            : path.includes('/policies/')
              ? policy.body.data.id
              : consent.body.data.id,
      );
    const refusalNames = async (op: Operation, query: string, name: string) => {
      const headers: Record<string, string> = operatorRoute(op.path) ? { authorization: `Bearer ${ADMIN_TOKEN}` } : { ...auth };
      const res = await fetch(`${svc!.url}${known(op.path)}?${query}`, { method: op.method, headers });
      const text = await res.text();
      sent += 1;
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const fields = isEnvelope(text)
        ? ((JSON.parse(text) as { error: { details?: { errors?: { field: string }[] } } }).error.details?.errors ?? []).map((e) => e.field)
        : [];
      if (res.status !== 400 || !fields.includes(name))
        namedRefusals.push(`${op.method} ${op.path}?${query.slice(0, 100)} → ${res.status} ${text.slice(0, 200)}`);
    };
    // The public verify page ignores what apps add to its link (fbclid, utm_*): no unknown parameter there.
    for (const op of operations.filter((o) => o.method === 'GET' && o.path !== '/verify/{consentId}')) {
      const name = pick(unknownParameters.filter((n) => !n.includes('[')));
      await refusalNames(op, `${enc(name)}=1`, name);
      for (const integer of op.integers) await refusalNames(op, `${integer}=${enc(pick(badIntegers))}`, integer);
    }

    const fuzzFrom = sent;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (sent - fuzzFrom < REQUESTS && !svc!.exit()) await one();
      }),
    );

    // Any user reference a record may hold (1..255 characters of any kind), percent-encoded in a
    // path: the user list and status answer 200 for every one, whatever its length or characters.
    const referenceRefusals: string[] = [];
    const pieces = ['/', '?', '%', '#', ' ', '+', '&', '=', '..', '%2F', 'ü', '山', '🙂', 'a', 'Z', '0', '\\', '"', "'", '<'];
    for (let i = 0; i < 60; i++) {
      let reference = '';
      const length = i < 20 ? 200 + Math.floor(random() * 56) : 1 + Math.floor(random() * 255);
      while ([...reference].length < length) reference += pick(pieces);
      reference = [...reference].slice(0, length).join('');
      if (reference === '.' || reference === '..') reference += 'x';
      for (const suffix of ['', '/status']) {
        const res = await fetch(
          `${svc.url}${pick(['/api/v1', '/v1'])}/consent/user/${encodeURIComponent(reference).replace(/\./g, '%2E')}${suffix}`,
          { headers: auth },
        );
        sent += 1;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const text = await res.text();
        if (res.status !== 200)
          referenceRefusals.push(
            `${JSON.stringify(reference.slice(0, 40))} (${[...reference].length} chars)${suffix} → ${res.status} ${text.slice(0, 200)}`,
          );
      }
    }

    // What Node's HTTP parser refuses, over raw sockets: headers too large, malformed request lines.
    const rawAnswers = new Map<number, number>();
    for (let i = 0; i < 40; i++) {
      const request = pick([
        () => `GET /health HTTP/1.1\r\nHost: x\r\nX-Fuzz: ${'a'.repeat(16_500 + Math.floor(random() * 50_000))}\r\n\r\n`,
        () =>
          `GET /api/v1/policies HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 200 + Math.floor(random() * 200) }, (_, k) => `X-H${k}: ${'v'.repeat(100)}`).join('\r\n')}\r\n\r\n`,
        () => `${pick(['GARBAGE', 'GET', 'GET /health', 'GET /health HTTP/9.9', '\u0000\u0001', 'G\tE T / HTTP/1.1'])}\r\n\r\n`,
        () => `GET /health HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n`,
        () => `POST /api/v1/consent HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`,
      ])();
      const answer = await rawExchange(svc.url, request);
      sent += 1;
      const [head = '', text = ''] = answer.split('\r\n\r\n', 2);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      rawAnswers.set(status, (rawAnswers.get(status) ?? 0) + 1);
      if (status >= 500 || status === 0)
        fiveHundreds.push(`raw ${JSON.stringify(request.slice(0, 80))} → ${head.slice(0, 100) || 'no answer'}`);
      else if (status >= 400 && !isEnvelope(text))
        notEnvelopes.push(`raw ${JSON.stringify(request.slice(0, 80))} → ${status} ${text.slice(0, 200)}`);
    }

    const alive = svc.exit() === undefined && (await fetch(`${svc.url}/health`)).status === 200;

    let after: Record<string, number> | undefined;
    if (store0) {
      after = await writableRowCounts(store0);
      await store0.close();
    }
    await svc.kill('SIGTERM');
    if (!store0) {
      // The embedded store: counted once the service has let go of it, against what the setup wrote.
      const store = await engine.open();
      try {
        after = await writableRowCounts(store);
      } finally {
        await store.close();
      }
    }
    const expectedLedger = before ? before['ledger.events'] : after!['ledger.events'];
    const changed = before ? Object.keys(after!).filter((t) => after![t] !== before[t]) : [];
    printFigures(`fuzzer (seed ${SEED})`, {
      acknowledged: accepted.length,
      found: 0,
      lost: 0,
      duplicated: 0,
      fiveHundreds: fiveHundreds.length,
      requests: sent,
      statuses: JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0]))),
      'tables changed': changed.join(' ') || 'none',
      'raw HTTP answers': JSON.stringify(Object.fromEntries(rawAnswers)),
      'ledger events': after!['ledger.events'] ?? -1,
    });
    expect(alive, 'the service must survive').toBe(true);
    expect(fiveHundreds.slice(0, 10)).toEqual([]);
    expect(notEnvelopes.slice(0, 10), 'every error in the envelope').toEqual([]);
    expect(namedRefusals.slice(0, 10), 'unknown and out-of-range query parameters are 400s naming them').toEqual([]);
    expect(rawAnswers.get(431) ?? 0, 'headers too large answered').toBeGreaterThan(0);
    expect(referenceRefusals.slice(0, 10), 'every user reference of 1..255 characters is taken in a path').toEqual([]);
    expect(accepted.slice(0, 10), 'every fuzzed write must be refused').toEqual([]);
    expect(changed).toEqual([]);
    // The setup wrote 2 events (policy, consent); on the embedded store that is what the ledger holds.
    expect(after!['ledger.events']).toBe(expectedLedger ?? 2);
    if (!before) expect(after!['ledger.events']).toBe(2);
  }, 240_000);
});
