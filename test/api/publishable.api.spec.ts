import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../support/process.js';
import { browserClient, client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';

/**
 * Issue 19, collecting consent from the browser: a publishable key (`pk_…`, no secret) records
 * decisions only, only from the origins its tenant allows, within a budget of its own; it reads
 * nothing back but the record's id and verification link. CORS answers only those origins, only
 * on that route. The SDK is served as an ES module under 4 KB gzipped.
 */

const SHOP = 'https://shop.example.com';
const OTHER = 'https://evil.example.net';

let t: TestService;
let admin: Client;
let shop: Client;
let pk: string;

beforeAll(async () => {
  t = await startTestService({ PUBLIC_BASE_URL: 'https://ledger.example.com' });
  admin = client(t.app, await t.tenant('pro'));
  const purpose = { key: 'newsletter', name: 'Newsletter', description: 'Monthly news', legalBasis: 'consent' };
  expect((await admin.post('/api/v1/purposes', purpose)).statusCode).toBe(201);
  await publishPolicy(admin, { purpose: 'newsletter', policyType: 'marketing_consent' });
  const res = await admin.post('/api/v1/keys', {
    scope: 'publishable',
    name: 'signup form',
    origins: [SHOP, 'http://127.0.0.1:8080'],
    perMinute: 1000,
  });
  expect(res.statusCode, res.body).toBe(201);
  pk = res.json().data.apiKey as string;
  shop = browserClient(t.app, pk, SHOP);
}, 60_000);
afterAll(() => t?.close());

describe('publishable keys › issued by an admin key', () => {
  it('has no secret, lists its origins and budget, and is refused without origins or with a path', async () => {
    expect(pk).toMatch(/^pk_[0-9A-Za-z]{24}$/);
    const listed = ((await admin.get('/api/v1/keys')).json().data as { apiKey: string }[]).find((k) => k.apiKey === pk);
    expect(listed).toMatchObject({ scope: 'publishable', name: 'signup form', origins: [SHOP, 'http://127.0.0.1:8080'], perMinute: 1000 });
    for (const body of [
      { scope: 'publishable' },
      { scope: 'publishable', origins: ['https://shop.example.com/signup'] },
      { scope: 'publishable', origins: ['*'] },
      // Never sent by a browser: its default port, a port out of range.
      { scope: 'publishable', origins: ['https://shop.example.com:443'] },
      { scope: 'publishable', origins: ['http://shop.example.com:80'] },
      { scope: 'publishable', origins: ['https://shop.example.com:99999'] },
      { scope: 'publishable', origins: ['http://127.0.0.1:0'] },
      { scope: 'write', origins: [SHOP] },
    ]) {
      const res = await admin.post('/api/v1/keys', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.details.errors[0].field).toMatch(/origins/);
    }
  });
});

describe('publishable keys › from an allowed origin', () => {
  it('records a decision on the purpose in force, answered only its id and verification link, readable by the page', async () => {
    const res = await shop.post('/api/v1/consent', {
      purpose: 'newsletter',
      userReference: 'visitor-1',
      consentGiven: true,
      metadata: { form: 'footer' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(Object.keys(data).sort()).toEqual(['id', 'verifyUrl']);
    expect(res.headers['access-control-allow-origin']).toBe(SHOP);
    expect(String(res.headers.vary)).toMatch(/Origin/);
    // The link verifies on the public page.
    const url = new URL(data.verifyUrl);
    expect(url.origin).toBe('https://ledger.example.com');
    // (once the read models hold the record: within milliseconds)
    await waitUntil(
      async () => (await t.app.inject({ url: `${url.pathname}${url.search}`, headers: { accept: 'application/json' } })).json().data.valid,
      { what: 'the public page to verify the record' },
    );
    // The tenant sees it recorded by the publishable key, in the browser.
    const record = (await admin.get(`/api/v1/consent/${data.id}`)).json().data;
    expect(record).toMatchObject({
      userReference: 'visitor-1',
      recordedBy: { type: 'key', id: pk },
      collectedVia: 'browser',
      metadata: { form: 'footer' },
    });
  });

  it("takes the visitor's address and user agent from the request: a page stating its own is refused", async () => {
    const forged = await shop.post('/api/v1/consent', {
      purpose: 'newsletter',
      userReference: 'visitor-forging',
      consentGiven: true,
      ipAddress: '8.8.8.8',
      userAgent: 'ForgedAgent/1.0',
    });
    expect(forged.statusCode, forged.body).toBe(400);
    expect(forged.json().error.details.errors).toEqual([
      { field: 'ipAddress', message: 'is taken from the request with a publishable key: leave it out' },
      { field: 'userAgent', message: 'is taken from the request with a publishable key: leave it out' },
    ]);
    expect(forged.headers['access-control-allow-origin']).toBe(SHOP);
    const search = (await admin.get('/api/v1/consent/search?userReference=visitor-forging')).json();
    expect(search.data).toEqual([]);
  });

  it("keeps its Idempotency-Keys to itself: one a tenant's key used records anew, and never answers that key's record", async () => {
    const body = { purpose: 'newsletter', userReference: 'visitor-ik', consentGiven: true };
    const server = await admin.post('/api/v1/consent', body, { 'idempotency-key': 'signup-43' });
    expect(server.statusCode, server.body).toBe(201);
    const page = await shop.post('/api/v1/consent', body, { 'idempotency-key': 'signup-43' });
    expect(page.statusCode, page.body).toBe(201);
    expect(page.headers['idempotent-replayed']).toBeUndefined();
    expect(page.json().data.id).not.toBe(server.json().data.id);
    // Another body under the key is no probe either: a record of its own, not 422.
    const other = await shop.post('/api/v1/consent', { ...body, consentGiven: false }, { 'idempotency-key': 'signup-44' });
    await admin.post('/api/v1/consent', { ...body, consentGiven: true }, { 'idempotency-key': 'signup-44' });
    expect(other.statusCode).toBe(201);
    // Its own repeat is answered its own record.
    const again = await shop.post('/api/v1/consent', body, { 'idempotency-key': 'signup-43' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data.id).toBe(page.json().data.id);
    const repeat = await admin.post('/api/v1/consent', body, { 'idempotency-key': 'signup-43' });
    expect(repeat.json().data.id).toBe(server.json().data.id);
    // Nor does a tenant's key reach the page's by sending the key as it is kept.
    const posing = await admin.post('/api/v1/consent', body, { 'idempotency-key': `${pk}:signup-43` });
    expect(posing.statusCode, posing.body).toBe(201);
    expect(posing.headers['idempotent-replayed']).toBeUndefined();
    expect(posing.json().data.id).not.toBe(page.json().data.id);
  });

  it('names what to record on once: two of policyVersionId, purpose and policyType are refused, a purpose with no version in force is 404', async () => {
    const both = await shop.post('/api/v1/consent', {
      purpose: 'newsletter',
      policyType: 'custom',
      userReference: 'v',
      consentGiven: true,
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().error.details.errors).toEqual([
      { field: 'purpose', message: 'must not be given with policyType: name the version one way' },
    ]);
    const withId = await shop.post('/api/v1/consent', {
      policyVersionId: randomUUID(),
      purpose: 'newsletter',
      userReference: 'v',
      consentGiven: true,
    });
    expect(withId.statusCode).toBe(400);
    expect(withId.json().error.details.errors).toEqual([
      { field: 'policyVersionId', message: 'must not be given with purpose or policyType: name the version one way' },
    ]);
    const none = await shop.post('/api/v1/consent', { purpose: 'no-such-purpose', userReference: 'v', consentGiven: true });
    expect(none.statusCode).toBe(404);
    expect(none.json().error).toMatchObject({
      code: 'NO_ACTIVE_POLICY',
      message: 'no active version for purpose no-such-purpose: no such purpose is defined (GET /api/v1/purposes lists them)',
    });
    // A defined purpose, or a policy type, with no version in force: only that.
    const type = await shop.post('/api/v1/consent', { policyType: 'data_processing', userReference: 'v', consentGiven: true });
    expect(type.json().error).toMatchObject({ code: 'NO_ACTIVE_POLICY', message: 'no active data_processing version' });
    const typeAsPurpose = await shop.post('/api/v1/consent', { purpose: 'data_processing', userReference: 'v', consentGiven: true });
    expect(typeAsPurpose.json().error).toMatchObject({
      code: 'NO_ACTIVE_POLICY',
      message: 'no active version for purpose data_processing',
    });
  });

  it('reads nothing, and its refusals carry no CORS header', async () => {
    const id = ((await admin.get('/api/v1/consent/search')).json().data[0] as { id: string }).id;
    for (const url of [
      `/api/v1/consent/${id}`,
      '/api/v1/consent/search',
      '/api/v1/policies',
      '/api/v1/consent/user/visitor-1',
      `/api/v1/consent/${id}/proof`,
    ]) {
      const res = await shop.get(url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error.details).toMatchObject({ keyScope: 'publishable' });
      expect(res.headers['access-control-allow-origin'], url).toBeUndefined();
    }
    const batch = await shop.post('/api/v1/consent/batch', { consents: [] });
    expect(batch.statusCode).toBe(403);
  });

  it('answers preflight for the record route only, and only for allowed origins', async () => {
    const preflight = (url: string, origin: string) =>
      t.app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-api-key' },
      });
    const ok = await preflight('/api/v1/consent', SHOP);
    expect(ok.statusCode).toBe(204);
    expect(ok.headers).toMatchObject({
      'access-control-allow-origin': SHOP,
      'access-control-allow-methods': 'POST',
      'access-control-allow-headers': expect.stringContaining('x-api-key'),
    });
    expect((await preflight('/v1/consent', SHOP)).statusCode).toBe(204);
    const refused = await preflight('/api/v1/consent', OTHER);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    // Another route serves no preflight: 405, its methods in Allow, and no CORS header.
    const other = await preflight('/api/v1/consent/search', SHOP);
    expect(other.statusCode).toBe(405);
    expect(other.headers.allow).toBe('GET, HEAD');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    // A secret key's answers carry no CORS header, whatever the Origin.
    const adminAnswer = await admin.get('/api/v1/policies', { origin: SHOP });
    expect(adminAnswer.statusCode).toBe(200);
    expect(adminAnswer.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('publishable keys › refused', () => {
  it('from another origin, or with no origin at all', async () => {
    const body = { purpose: 'newsletter', userReference: 'visitor-x', consentGiven: true };
    const before = (await admin.get('/api/v1/consent/search')).json().pagination.total as number;
    const evil = await browserClient(t.app, pk, OTHER).post('/api/v1/consent', body);
    expect(evil.statusCode).toBe(403);
    expect(evil.json().error).toMatchObject({ code: 'FORBIDDEN', details: { origin: OTHER } });
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
    const server = await t.app.inject({ method: 'POST', url: '/api/v1/consent', headers: { 'x-api-key': pk }, payload: body });
    expect(server.statusCode).toBe(403);
    // A secret is no way around it: a pk_ key never authenticates with one.
    const withSecret = await t.app.inject({
      method: 'POST',
      url: '/api/v1/consent',
      headers: { 'x-api-key': pk, 'x-api-secret': 'cs_x' },
      payload: body,
    });
    expect(withSecret.statusCode).toBe(403);
    expect((await admin.get('/api/v1/consent/search')).json().pagination.total).toBe(before);
  });

  it('from another origin: counted against the address, as a wrong key is, and no use of the key', async () => {
    const key = (await admin.post('/api/v1/keys', { scope: 'publishable', origins: [SHOP] })).json().data.apiKey as string;
    const body = { purpose: 'newsletter', userReference: 'visitor-y', consentGiven: true };
    const first = await browserClient(t.app, key, OTHER).post('/api/v1/consent', body);
    const second = await browserClient(t.app, key, OTHER).post('/api/v1/consent', body);
    expect([first.statusCode, second.statusCode]).toEqual([403, 403]);
    const left = (r: typeof first) => r.headers['x-ratelimit-remaining'];
    expect(left(first)).toMatch(/^\d+$/);
    expect(Number(left(second))).toBe(Number(left(first)) - 1);
    // The key was never used: no write of its lastUsedAt is started (the old code's showed here).
    const listed = (await admin.get('/api/v1/keys')).json().data.find((k: { apiKey: string }) => k.apiKey === key);
    expect(listed.lastUsedAt).toBeNull();
  });

  it('beyond its own budget, 429 the page can read, while its tenant’s keys go on', async () => {
    const key = (await admin.post('/api/v1/keys', { scope: 'publishable', origins: [SHOP], perMinute: 3 })).json().data.apiKey as string;
    const page = browserClient(t.app, key, SHOP);
    const codes: number[] = [];
    let last;
    for (let i = 0; i < 5; i++) {
      last = await page.post('/api/v1/consent', { purpose: 'newsletter', userReference: `burst-${i}`, consentGiven: true });
      codes.push(last.statusCode);
    }
    expect(codes).toEqual([201, 201, 201, 429, 429]);
    expect(last!.json().error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(last!.headers['access-control-allow-origin']).toBe(SHOP);
    expect(last!.headers['retry-after']).toBeDefined();
    // Its budget is its own: the tenant's keys, and its other publishable key, go on.
    expect((await admin.get('/api/v1/consent/search')).statusCode).toBe(200);
    expect(
      (await shop.post('/api/v1/consent', { purpose: 'newsletter', userReference: 'after-burst', consentGiven: true })).statusCode,
    ).toBe(201);
  });

  it("no more than its tenant's own budget, whatever it was issued with", async () => {
    const free = client(t.app, await t.tenant('free', { planLimits: true }));
    const issued = await free.post('/api/v1/keys', { scope: 'publishable', origins: [SHOP], perMinute: 100_000 });
    expect(issued.statusCode, issued.body).toBe(201);
    const page = browserClient(t.app, issued.json().data.apiKey as string, SHOP);
    const codes: number[] = [];
    let last;
    for (let i = 0; i < 12; i++) {
      last = await page.post('/api/v1/consent', { purpose: 'newsletter', userReference: `free-${i}`, consentGiven: true });
      codes.push(last.statusCode);
    }
    // The free plan's 10 a minute and 100 a day.
    expect(codes.filter((c) => c === 429)).toHaveLength(2);
    expect(last!.headers['x-ratelimit-limit']).toBe('10');
    expect(last!.headers['x-ratelimit-daily-limit']).toBe('100');
  });

  it("its tenant's publishable keys share one budget of the tenant's size: more keys buy no more", async () => {
    const free = client(t.app, await t.tenant('free', { planLimits: true }));
    const pages = [];
    for (let k = 0; k < 3; k++) {
      const issued = await free.post('/api/v1/keys', { scope: 'publishable', origins: [SHOP], perMinute: 100_000 });
      expect(issued.statusCode, issued.body).toBe(201);
      pages.push(browserClient(t.app, issued.json().data.apiKey as string, SHOP));
    }
    const codes: number[] = [];
    for (const [k, page] of pages.entries()) {
      for (let i = 0; i < 6; i++) {
        codes.push(
          (await page.post('/api/v1/consent', { purpose: 'newsletter', userReference: `pool-${k}-${i}`, consentGiven: true })).statusCode,
        );
      }
    }
    // The free plan's 10 a minute, across the three keys (the tenant has no newsletter: each allowed one is answered 4xx).
    expect(codes.filter((c) => c !== 429)).toHaveLength(10);
    expect(codes.filter((c) => c === 429)).toHaveLength(8);
    // The tenant's own keys keep their budget, apart from the pages'.
    expect((await free.get('/api/v1/consent/search')).statusCode).toBe(200);
  });

  it('a request the shared budget refuses spends none of the key’s own: once the tenant has room again, the key goes on', async () => {
    const creds = await t.tenant('free', { planLimits: true });
    const free = client(t.app, creds);
    const issue = async (perMinute: number) =>
      browserClient(
        t.app,
        (await free.post('/api/v1/keys', { scope: 'publishable', origins: [SHOP], perMinute })).json().data.apiKey as string,
        SHOP,
      );
    const small = await issue(2);
    const busy = await issue(60);
    const send = (page: typeof small, i: number) =>
      page.post('/api/v1/consent', { purpose: 'newsletter', userReference: `shared-${i}`, consentGiven: true });
    // Another key uses up the tenant's 10 a minute.
    for (let i = 0; i < 10; i++) expect((await send(busy, i)).statusCode).not.toBe(429);
    for (let i = 0; i < 3; i++) {
      const refused = await send(small, 100 + i);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['x-ratelimit-limit']).toBe('10');
    }
    // The operator raises the tenant's limits: the small key has spent nothing of its 2.
    await t.service.tenants.update(creds.tenantId, { limits: { perMinute: 100 } });
    expect((await send(small, 200)).statusCode).not.toBe(429);
    expect((await send(small, 201)).statusCode).not.toBe(429);
    const own = await send(small, 202);
    expect(own.statusCode).toBe(429);
    expect(own.headers['x-ratelimit-limit']).toBe('2');
  });

  it('before its key is known (a wrong key, an address refused for too many), answers the page can read on an allowed origin', async () => {
    const page = browserClient(t.app, 'pk_000000000000000000000000', SHOP);
    const wrong = await page.post('/api/v1/consent', { purpose: 'newsletter', userReference: 'v-wrong', consentGiven: true });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['access-control-allow-origin']).toBe(SHOP);
    expect(String(wrong.headers['access-control-expose-headers'])).toMatch(/x-ratelimit-daily-remaining/);
    const elsewhere = await browserClient(t.app, 'pk_000000000000000000000000', OTHER).post('/api/v1/consent', {});
    expect(elsewhere.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('once revoked: 401, and its origins lose their preflight', async () => {
    const extra = (await admin.post('/api/v1/keys', { scope: 'publishable', origins: ['https://gone.example.org'] })).json().data
      .apiKey as string;
    const preflight = () =>
      t.app.inject({
        method: 'OPTIONS',
        url: '/api/v1/consent',
        headers: { origin: 'https://gone.example.org', 'access-control-request-method': 'POST' },
      });
    expect((await preflight()).statusCode).toBe(204);
    expect((await admin.delete(`/api/v1/keys/${extra}`)).statusCode).toBe(200);
    expect((await preflight()).statusCode).toBe(403);
    const res = await browserClient(t.app, extra, 'https://gone.example.org').post('/api/v1/consent', {
      purpose: 'newsletter',
      userReference: 'v',
      consentGiven: true,
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('publishable keys › the SDK', () => {
  it('is an ES module under 4 KB gzipped, loadable cross-origin from allowed origins only', async () => {
    const res = await t.app.inject({ url: '/sdk/consent-ledger.js', headers: { origin: SHOP } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['access-control-allow-origin']).toBe(SHOP);
    expect(res.body).toMatch(/export function consentLedger/);
    expect(gzipSync(res.rawPayload).length).toBeLessThan(4096);
    const other = await t.app.inject({ url: '/sdk/consent-ledger.js', headers: { origin: OTHER } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    // It parses and exports what the docs say.
    const sdk = await import(`data:text/javascript;base64,${res.rawPayload.toString('base64')}`);
    expect(typeof sdk.consentLedger).toBe('function');
    expect(() => sdk.consentLedger({ publishableKey: 'ck_not-publishable' })).toThrow(TypeError);
  });
});
