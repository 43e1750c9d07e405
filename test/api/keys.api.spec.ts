import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../support/process.js';
import { client, startTestService, type Client, type TestService } from '../support/service.js';

/**
 * Issue 19: a tenant manages its own keys with an admin key: issue one of a scope with a name and
 * an expiry, list them with their last use (never a secret), revoke one.
 */

let t: TestService;
let admin: Client;
let other: Client;

beforeAll(async () => {
  t = await startTestService();
  admin = client(t.app, await t.tenant('pro'));
  other = client(t.app, await t.tenant('pro'));
}, 60_000);
afterAll(() => t?.close());

interface Key {
  apiKey: string;
  name: string | null;
  scope: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}
const keys = async (c: Client = admin) => (await c.get('/api/v1/keys')).json().data as Key[];

describe('keys › a tenant manages its own', () => {
  it('issues a named read key with an expiry, lists it with its last use and no secret, and revokes it at once', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const res = await admin.post('/api/v1/keys', { name: 'auditor 2027', scope: 'read', expiresAt });
    expect(res.statusCode, res.body).toBe(201);
    const issued = res.json().data as Key & { apiSecret: string };
    expect(issued).toMatchObject({ name: 'auditor 2027', scope: 'read', expiresAt });
    expect(issued.apiSecret).toMatch(/^cs_/);

    const listed = (await keys()).find((k) => k.apiKey === issued.apiKey)!;
    expect(listed).toMatchObject({ name: 'auditor 2027', scope: 'read', expiresAt, lastUsedAt: null, revokedAt: null });
    const body = (await admin.get('/api/v1/keys')).body;
    expect(body).not.toContain(issued.apiSecret);
    expect(body).not.toMatch(/secret|hash/i);

    // A call it refused is no use of the key: "last used" stays as it was.
    const wrong = `${issued.apiSecret.slice(0, -4)}${issued.apiSecret.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    expect((await client(t.app, { ...issued, apiSecret: wrong }).get('/api/v1/consent/search')).statusCode).toBe(401);
    expect((await keys()).find((k) => k.apiKey === issued.apiKey)!.lastUsedAt).toBeNull();
    const auditor = client(t.app, issued);
    expect((await auditor.get('/api/v1/consent/search')).statusCode).toBe(200);
    const used = await waitUntil(async () => (await keys()).find((k) => k.apiKey === issued.apiKey)!.lastUsedAt, { what: 'lastUsedAt' });
    expect(Math.abs(Date.parse(used) - Date.now())).toBeLessThan(60_000);
    // A read key manages no keys.
    expect((await auditor.get('/api/v1/keys')).statusCode).toBe(403);
    expect((await auditor.post('/api/v1/keys', {})).statusCode).toBe(403);

    expect((await admin.delete(`/api/v1/keys/${issued.apiKey}`)).statusCode).toBe(200);
    expect((await auditor.get('/api/v1/consent/search')).statusCode).toBe(401);
    expect((await keys()).find((k) => k.apiKey === issued.apiKey)!.revokedAt).not.toBeNull();
  });

  it('a key stops working when it expires', async () => {
    const res = await admin.post('/api/v1/keys', { scope: 'write', expiresAt: new Date(Date.now() + 1_500).toISOString() });
    expect(res.statusCode, res.body).toBe(201);
    const short = client(t.app, res.json().data);
    expect((await short.get('/api/v1/policies')).statusCode).toBe(200);
    await waitUntil(async () => (await short.get('/api/v1/policies')).statusCode === 401, { what: 'the key to expire', timeoutMs: 10_000 });
  });

  it('an empty body issues an admin key; bad input is a 400 and issues nothing; another tenant cannot revoke it', async () => {
    const before = (await keys()).length;
    for (const body of [{ scope: 'owner' }, { expiresAt: '2001-01-01T00:00:00Z' }, { expiresAt: 'tomorrow' }, { name: '' }, { other: 1 }]) {
      const res = await admin.post('/api/v1/keys', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    expect((await keys()).length).toBe(before);
    const res = await admin.post('/api/v1/keys');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ scope: 'admin', name: null, expiresAt: null });
    expect((await other.delete(`/api/v1/keys/${res.json().data.apiKey as string}`)).statusCode).toBe(404);
    expect((await keys(other)).map((k) => k.apiKey)).not.toContain(res.json().data.apiKey);
  });
});
