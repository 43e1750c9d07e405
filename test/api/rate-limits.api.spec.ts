import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_LIMITS, PUBLIC_LOG_LIMITS, PUBLIC_VERIFY_LIMITS, UNAUTHENTICATED_LIMITS } from '../../src/limits/rate-limit.hooks.js';
import { PLAN_RULES } from '../../src/tenants/plans.js';
import { client, publishPolicy, startTestService, type TestService } from '../support/service.js';

/**
 * docs/contract.md "Rate limits", one process (counters in memory): every tenant is held to its
 * plan's per-minute and per-UTC-day budget, sees where it stands on every answer, and gets 429
 * RATE_LIMIT_EXCEEDED with Retry-After when either runs out. Requests without valid credentials
 * count against the client address. The limiter's clock is the test's, so windows are exact.
 */

const ADMIN_TOKEN = 'rate-limits-test-admin-token';
const START = Date.parse('2031-03-04T05:06:15Z');
const unix = (iso: string) => String(Date.parse(iso) / 1000);
const MINUTE_RESET = unix('2031-03-04T05:07:00Z');
const DAY_RESET = unix('2031-03-05T00:00:00Z');

const expectHeaders = (res: LightMyRequestResponse, minute: [number, number], day: [number, number], minuteReset = MINUTE_RESET) => {
  expect(
    {
      limit: res.headers['x-ratelimit-limit'],
      remaining: res.headers['x-ratelimit-remaining'],
      reset: res.headers['x-ratelimit-reset'],
      dailyLimit: res.headers['x-ratelimit-daily-limit'],
      dailyRemaining: res.headers['x-ratelimit-daily-remaining'],
      dailyReset: res.headers['x-ratelimit-daily-reset'],
    },
    `${res.statusCode} ${res.body.slice(0, 200)}`,
  ).toEqual({
    limit: String(minute[0]),
    remaining: String(minute[1]),
    reset: minuteReset,
    dailyLimit: String(day[0]),
    dailyRemaining: String(day[1]),
    dailyReset: DAY_RESET,
  });
};

const expect429 = (res: LightMyRequestResponse, retryAfter: number, window: 'minute' | 'day') => {
  expect(res.statusCode).toBe(429);
  expect(res.headers['retry-after']).toBe(String(retryAfter));
  expect(res.json()).toEqual({
    success: false,
    error: {
      code: 'RATE_LIMIT_EXCEEDED',
      message: expect.stringMatching(/rate limit/),
      details: { window, limit: expect.any(Number), retryAfter },
    },
    meta: { timestamp: expect.any(String) },
  });
};

describe('rate limits (one process)', () => {
  let t: TestService;
  let now = START;
  const admin = (method: 'GET' | 'PATCH' | 'POST', url: string, payload?: object, authorization = `Bearer ${ADMIN_TOKEN}`) =>
    t.app.inject({ method, url, headers: { authorization }, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await startTestService({ ADMIN_TOKEN }, { limits: { clock: () => now } });
  });
  afterAll(() => t?.close());

  describe('rate limits › when a starter tenant sends 61 requests in one minute › the 61st is a 429', () => {
    it('counts down on every answer, refuses the 61st with Retry-After, and lets requests through again next minute', async () => {
      now = START;
      const creds = await t.tenant('starter', { planLimits: true });
      const api = client(t.app, creds);
      for (let i = 1; i <= 60; i++) {
        const res = await api.get('/api/v1/policies');
        expect(res.statusCode).toBe(200);
        expectHeaders(res, [60, 60 - i], [1_000, 1_000 - i]);
      }
      const refused = await api.get('/api/v1/policies');
      expect429(refused, 45, 'minute');
      expectHeaders(refused, [60, 0], [1_000, 940]);
      // The OpenAPI document says so: this route lists 429, and the headers every answer carries.
      const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json() as {
        paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>>;
        components: { headers: Record<string, unknown> };
      };
      const documented = doc.paths['/api/v1/policies']!.get!.responses;
      expect(Object.keys(documented)).toEqual(expect.arrayContaining(['200', '429', '503']));
      const sent = (res: LightMyRequestResponse) =>
        Object.keys(res.headers)
          .filter((h) => h.startsWith('x-ratelimit-'))
          .sort();
      for (const status of ['200', '429']) {
        expect(
          Object.keys(documented[status]!.headers ?? {})
            .map((h) => h.toLowerCase())
            .filter((h) => h.startsWith('x-ratelimit-'))
            .sort(),
        ).toEqual(sent(refused));
      }
      expect(Object.keys(documented['429']!.headers ?? {})).toContain('Retry-After');
      // A success may also say it was read behind the ledger (docs/contract.md, read-your-writes).
      expect(Object.keys(documented['200']!.headers ?? {})).toContain('X-Read-Models-Behind');
      expect(doc.components.headers['X-Read-Models-Behind']).toBeDefined();
      for (const h of Object.keys(documented['429']!.headers ?? {})) expect(doc.components.headers[h], h).toBeDefined();
      // Under /v1 too, and writes as well as reads.
      expect429(await api.post('/v1/policies', { policyType: 'custom', version: '1.0.0', title: 't', content: 'c' }), 45, 'minute');

      now = Date.parse('2031-03-04T05:07:00Z');
      const next = await api.get('/v1/policies');
      expect(next.statusCode).toBe(200);
      expectHeaders(next, [60, 59], [1_000, 939], unix('2031-03-04T05:08:00Z'));
      now = START;
    });

    it('leaves other tenants untouched while one is refused', async () => {
      const busy = client(t.app, await t.tenant('free', { planLimits: true }));
      const quiet = client(t.app, await t.tenant('free', { planLimits: true }));
      for (let i = 0; i < 10; i++) expect((await busy.get('/api/v1/policies')).statusCode).toBe(200);
      expect429(await busy.get('/api/v1/policies'), 45, 'minute');
      const res = await quiet.get('/api/v1/policies');
      expect(res.statusCode).toBe(200);
      expectHeaders(res, [10, 9], [100, 99]);
    });
  });

  describe('rate limits › when the day budget runs out before the minute one › the day window trips on its own', () => {
    it('refuses with Retry-After up to UTC midnight and says the day is the window that ran out', async () => {
      const creds = await t.tenant('starter', { planLimits: true });
      await t.service.tenants.update(creds.tenantId, { limits: { perMinute: 1_000, perDay: 5 } });
      const api = client(t.app, creds);
      for (let i = 1; i <= 5; i++) expectHeaders(await api.get('/api/v1/policies'), [1_000, 1_000 - i], [5, 5 - i]);
      const refused = await api.get('/api/v1/policies');
      // 05:06:15 → midnight is 18h53m45s away.
      expect429(refused, 18 * 3600 + 53 * 60 + 45, 'day');
      expectHeaders(refused, [1_000, 995], [5, 0]);
      // A new minute does not help; a new UTC day does.
      now = Date.parse('2031-03-04T05:08:00Z');
      expect((await api.get('/api/v1/policies')).statusCode).toBe(429);
      now = Date.parse('2031-03-05T00:00:00Z');
      expect((await api.get('/api/v1/policies')).statusCode).toBe(200);
      now = START;
    });
  });

  describe('rate limits › when an answer is an error › it carries the headers too', () => {
    it('400, 404 (unknown record and unknown route), 409, 415, 422 and 201 all say where the tenant stands', async () => {
      const creds = await t.tenant('pro', { planLimits: true });
      const api = client(t.app, creds);
      const policyId = await publishPolicy(api, { version: '7.7.7' });
      const answers: [number, LightMyRequestResponse][] = [
        [400, await api.get('/api/v1/consent/not-a-uuid')],
        [404, await api.get('/api/v1/consent/00000000-0000-4000-8000-000000000000')],
        [404, await api.get('/api/v1/no-such-route')],
        [409, await api.post('/api/v1/policies', { policyType: 'privacy_policy', version: '7.7.7', title: 't', content: 'c' })],
        [415, await api.inject({ method: 'POST', url: '/api/v1/consent', payload: 'x', headers: { 'content-type': 'text/plain' } })],
        [201, await api.post('/api/v1/consent', { policyVersionId: policyId, userReference: 'u', consentGiven: true })],
      ];
      answers.forEach(([status, res], i) => {
        expect(res.statusCode).toBe(status);
        // The publish was the first request; these come after it.
        expectHeaders(res, [300, 300 - 2 - i], [50_000, 50_000 - 2 - i]);
      });
    });
  });

  describe('rate limits › when an operator changes the plan › the next request follows it', () => {
    it('upgrades and downgrades through the admin API take effect on the very next request', async () => {
      const creds = await t.tenant('free', { planLimits: true });
      const api = client(t.app, creds);
      for (let i = 0; i < 10; i++) await api.get('/api/v1/policies');
      expect((await api.get('/api/v1/policies')).statusCode).toBe(429);

      expect((await admin('PATCH', `/admin/v1/tenants/${creds.tenantId}`, { plan: 'starter' })).statusCode).toBe(200);
      const upgraded = await api.get('/api/v1/policies');
      expect(upgraded.statusCode).toBe(200);
      expectHeaders(upgraded, [60, 49], [1_000, 989]);

      expect(
        (await admin('PATCH', `/admin/v1/tenants/${creds.tenantId}`, { plan: 'enterprise', limits: { perMinute: 12, perDay: 20_000 } }))
          .statusCode,
      ).toBe(200);
      expectHeaders(await api.get('/api/v1/policies'), [12, 0], [20_000, 19_988]);
      expect((await api.get('/api/v1/policies')).statusCode).toBe(429);

      // Back to the plan's numbers: the limits follow the plan again.
      await admin('PATCH', `/admin/v1/tenants/${creds.tenantId}`, { plan: 'pro', limits: { perMinute: null, perDay: null } });
      expectHeaders(await api.get('/api/v1/policies'), [PLAN_RULES.pro.perMinute, 287], [PLAN_RULES.pro.perDay, 50_000 - 13]);
    });
  });

  describe('rate limits › when requests carry no valid credentials › they count against the client address', () => {
    const ip = (n: number) => `198.51.100.${n}`;
    const anonymous = (address: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: '/api/v1/policies', remoteAddress: address, headers });

    it('401s carry the address budget; once used up the address gets 429 even with a valid key, other addresses do not', async () => {
      const creds = await t.tenant('starter');
      const valid = { 'x-api-key': creds.apiKey, 'x-api-secret': creds.apiSecret };
      const wrong = { 'x-api-key': creds.apiKey, 'x-api-secret': 'cs_wrongwrongwrongwrongwrongwrongwrongwrong' };
      const { perMinute, perDay } = UNAUTHENTICATED_LIMITS;
      for (let i = 1; i <= perMinute; i++) {
        const res = await anonymous(ip(1), i % 2 ? {} : wrong);
        expect(res.statusCode).toBe(401);
        expectHeaders(res, [perMinute, perMinute - i], [perDay, perDay - i]);
      }
      expect429(await anonymous(ip(1), wrong), 45, 'minute');
      // The right secret from that address is not even looked at: a guess cannot be told right from wrong.
      const blocked = await anonymous(ip(1), valid);
      expect429(blocked, 45, 'minute');
      expectHeaders(blocked, [perMinute, 0], [perDay, perDay - perMinute]);
      // Unknown routes and the admin API share the address budget.
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/nowhere', remoteAddress: ip(1) })).statusCode).toBe(429);
      // So does the console's sign-in, right credentials or not, and a session cookie guessed.
      const signIn = (address: string) =>
        t.app.inject({
          method: 'POST',
          url: '/console/session',
          remoteAddress: address,
          payload: { apiKey: creds.apiKey, apiSecret: creds.apiSecret },
        });
      expect((await signIn(ip(1))).statusCode).toBe(429);
      const guessedCookie = { cookie: 'cl_session=0000000000000000000000000000000000000000000' };
      expect(
        (await t.app.inject({ method: 'GET', url: '/console/session', remoteAddress: ip(1), headers: guessedCookie })).statusCode,
      ).toBe(429);
      expect((await signIn(ip(3))).statusCode).toBe(201);
      expect(
        (await t.app.inject({ method: 'GET', url: '/admin/v1/tenants', remoteAddress: ip(1), headers: { authorization: 'Bearer guess' } }))
          .statusCode,
      ).toBe(429);

      const elsewhere = await anonymous(ip(2), valid);
      expect(elsewhere.statusCode).toBe(200);
      expect(elsewhere.headers['x-ratelimit-limit']).toBe('1000000000');

      now = Date.parse('2031-03-04T05:07:00Z');
      expect((await anonymous(ip(1), valid)).statusCode).toBe(200);
      now = START;
    });

    it('a wrong admin token counts against the address; a right one is not limited', async () => {
      const res = await admin('GET', '/admin/v1/tenants', undefined, 'Bearer wrong-token-wrong-token');
      expect(res.statusCode).toBe(401);
      expect(res.headers['x-ratelimit-limit']).toBe(String(UNAUTHENTICATED_LIMITS.perMinute));
      const ok = await admin('GET', '/admin/v1/tenants');
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['x-ratelimit-limit']).toBeUndefined();
    });

    it('an unknown route without credentials is a 404 counted against the address', async () => {
      const first = await t.app.inject({ method: 'GET', url: '/nowhere', remoteAddress: ip(3) });
      const second = await t.app.inject({ method: 'GET', url: '/api/v1/nowhere', remoteAddress: ip(3) });
      expect([first.statusCode, second.statusCode]).toEqual([404, 404]);
      expect(Number(first.headers['x-ratelimit-remaining']) - Number(second.headers['x-ratelimit-remaining'])).toBe(1);
    });

    it('the public receipt check has its own budget per address: the 61st check in a minute is a 429', async () => {
      const { perMinute, perDay } = PUBLIC_VERIFY_LIMITS;
      const check = (address: string) =>
        t.app.inject({
          method: 'GET',
          url: '/verify/00000000-0000-4000-8000-000000000000?hash=00',
          remoteAddress: address,
          headers: { accept: 'application/json' },
        });
      for (let i = 1; i <= perMinute; i++) {
        const res = await check(ip(5));
        expect(res.statusCode).toBe(200);
        expectHeaders(res, [perMinute, perMinute - i], [perDay, perDay - i]);
      }
      expect429(await check(ip(5)), 45, 'minute');
      // Another address, and the same address's API budget, are untouched.
      expect((await check(ip(6))).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/policies', remoteAddress: ip(5) })).headers['x-ratelimit-remaining']).toBe(
        String(UNAUTHENTICATED_LIMITS.perMinute - 1),
      );
    });

    it('the public log routes have their own budget per address, apart from the receipt check', async () => {
      const { perMinute } = PUBLIC_LOG_LIMITS;
      const read = (address: string) =>
        t.app.inject({ method: 'GET', url: '/ledger/00000000-0000-4000-8000-000000000000/events', remoteAddress: address });
      for (let i = 1; i <= perMinute; i++) {
        const res = await read(ip(7));
        expect(res.statusCode).toBe(200);
        if (i === 1 || i === perMinute) expect(res.headers['x-ratelimit-remaining']).toBe(String(perMinute - i));
      }
      expect((await read(ip(7))).statusCode).toBe(429);
      const page = await t.app.inject({
        method: 'GET',
        url: '/verify/00000000-0000-4000-8000-000000000000?hash=00',
        remoteAddress: ip(7),
        headers: { accept: 'application/json' },
      });
      expect(page.statusCode).toBe(200);
      expect(page.headers['x-ratelimit-limit']).toBe(String(PUBLIC_VERIFY_LIMITS.perMinute));
      // Browser collection has its own budget too: a monitor behind the same address does not stop it.
      const preflight = await t.app.inject({
        method: 'OPTIONS',
        url: '/api/v1/consent',
        remoteAddress: ip(7),
        headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST' },
      });
      expect(preflight.statusCode).not.toBe(429);
      expect(preflight.headers['x-ratelimit-limit']).toBe(String(BROWSER_LIMITS.perMinute));
      const sdk = await t.app.inject({ method: 'GET', url: '/sdk/consent-ledger.js', remoteAddress: ip(7) });
      expect(sdk.statusCode).toBe(200);
      expect(sdk.headers['x-ratelimit-remaining']).toBe(String(BROWSER_LIMITS.perMinute - 2));
    });

    it('health and readiness probes are never limited', async () => {
      for (let i = 0; i < UNAUTHENTICATED_LIMITS.perMinute + 5; i++) {
        const res = await t.app.inject({ method: 'GET', url: '/health', remoteAddress: ip(4) });
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      }
    });
  });
});

describe('rate limits › when behind a trusted proxy › the forwarded client address is the one counted', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ TRUST_PROXY: '127.0.0.1' }, { limits: { clock: () => START } });
  });
  afterAll(() => t?.close());

  it('counts per X-Forwarded-For client when the proxy is trusted, and per peer when it is not', async () => {
    const via = (peer: string, client: string) =>
      t.app.inject({ method: 'GET', url: '/api/v1/policies', remoteAddress: peer, headers: { 'x-forwarded-for': client } });
    const a = await via('127.0.0.1', '203.0.113.1');
    const b = await via('127.0.0.1', '203.0.113.2');
    const a2 = await via('127.0.0.1', '203.0.113.1');
    expect([a, b, a2].map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['99', '99', '98']);
    // An untrusted peer cannot pick its address by sending the header.
    const s1 = await via('192.0.2.7', '203.0.113.50');
    const s2 = await via('192.0.2.7', '203.0.113.51');
    expect([s1, s2].map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['99', '98']);
  });
});
