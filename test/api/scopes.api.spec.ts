import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyScope } from '../../src/tenants/key-scopes.js';
import { browserClient, client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';

const ORIGIN = 'https://shop.example.com';

/**
 * Issue 19, keys with roles: every operation of the OpenAPI document, called with a key of each
 * scope, is refused with 403 FORBIDDEN exactly when its documented scopes (`x-scopes`) leave the
 * key's out, before anything is read or written; existing keys are admin keys.
 */

let t: TestService;
let tenantId: string;
const keys = {} as Record<KeyScope, Client>;
let consentId: string;
let policyId: string;

interface Operation {
  method: string;
  path: string;
  scopes: KeyScope[];
}

beforeAll(async () => {
  t = await startTestService();
  const admin = await t.tenant('enterprise');
  tenantId = admin.tenantId;
  keys.admin = client(t.app, admin);
  for (const scope of ['write', 'read'] as const) keys[scope] = client(t.app, await t.service.tenants.createKey(tenantId, { scope }));
  const pk = await t.service.tenants.createPublishableKey(tenantId, { origins: [ORIGIN], perMinute: 100_000 });
  keys.publishable = browserClient(t.app, pk.apiKey, ORIGIN);
  policyId = await publishPolicy(keys.admin);
  const res = await keys.admin.post('/api/v1/consent', { policyVersionId: policyId, userReference: 'scoped-user', consentGiven: true });
  consentId = res.json().data.id as string;
}, 60_000);
afterAll(() => t?.close());

async function operations(): Promise<Operation[]> {
  const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json() as {
    paths: Record<string, Record<string, { 'x-scopes'?: KeyScope[] }>>;
  };
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    path.startsWith('/api/v1/')
      ? Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, scopes: op['x-scopes']! }))
      : [],
  );
}

/** A concrete URL for a documented path: the tenant's own record and policy where ids are asked. */
const urlOf = (path: string) =>
  path
    .replace(
      '{id}',
      path.startsWith('/api/v1/policies')
        ? policyId
        : path.startsWith('/api/v1/webhooks')
          ? '00000000-0000-4000-8000-000000000000'
          : consentId,
    )
    .replace('{userReference}', 'scoped-user')
    .replace('{policyType}', 'privacy_policy')
    .replace('{key}', 'no-such-purpose');

describe('keys with roles › every operation, with each scope', () => {
  it('documents the scopes of every operation', async () => {
    const ops = await operations();
    expect(ops.length).toBeGreaterThan(30);
    for (const op of ops) expect(op.scopes, `${op.method} ${op.path}`).toEqual(expect.arrayContaining(['admin']));
    const of = (method: string, path: string) => ops.find((o) => o.method === method && o.path === path)!.scopes;
    expect(of('POST', '/api/v1/consent')).toEqual(['admin', 'write', 'publishable']);
    expect(of('POST', '/api/v1/consent/batch')).toEqual(['admin', 'write']);
    expect(of('GET', '/api/v1/consent/{id}')).toEqual(['admin', 'read']);
    expect(of('GET', '/api/v1/policies/active/{policyType}')).toEqual(['admin', 'write', 'read']);
    expect(of('POST', '/api/v1/policies')).toEqual(['admin']);
    expect(of('GET', '/api/v1/webhooks')).toEqual(['admin']);
  });

  it.each(['read', 'write', 'admin', 'publishable'] as const)(
    'a %s key: 403 FORBIDDEN exactly where the document leaves its scope out',
    async (scope) => {
      const ops = await operations();
      const before = (await keys.admin.get('/api/v1/consent/search')).json().pagination.total as number;
      const wrong: string[] = [];
      // Refusals first: an allowed call (an erasure, a withdrawal) must not change what the others see.
      const ordered = [...ops.filter((o) => !o.scopes.includes(scope)), ...ops.filter((o) => o.scopes.includes(scope))];
      for (const op of ordered) {
        const allowed = op.scopes.includes(scope);
        if (allowed && scope === 'admin' && op.method !== 'GET') continue; // admin writes are the other suites' business
        const res = await keys[scope].inject({
          method: op.method as 'GET',
          url: urlOf(op.path),
          payload: op.method === 'GET' ? undefined : {},
        });
        const forbidden = res.statusCode === 403 && (res.json() as { error?: { code?: string } }).error?.code === 'FORBIDDEN';
        if (forbidden === allowed) wrong.push(`${op.method} ${op.path}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        if (!allowed) expect(res.json().error.details).toEqual({ requiredScopes: op.scopes, keyScope: scope });
      }
      expect(wrong).toEqual([]);
      // Nothing a refused call asked for was done.
      if (scope === 'read') expect((await keys.admin.get('/api/v1/consent/search')).json().pagination.total).toBe(before);
    },
  );

  it('a write key records and withdraws but reads nothing back; a read key reads but records nothing', async () => {
    const recorded = await keys.write.post('/api/v1/consent', { policyVersionId: policyId, userReference: 'w-1', consentGiven: true });
    expect(recorded.statusCode, recorded.body).toBe(201);
    const id = recorded.json().data.id as string;
    expect((await keys.write.get(`/api/v1/consent/${id}`)).statusCode).toBe(403);
    expect((await keys.read.get(`/api/v1/consent/${id}`)).statusCode).toBe(200);
    const refused = await keys.read.post('/api/v1/consent', { policyVersionId: policyId, userReference: 'r-1', consentGiven: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toMatch(/needs a key with scope admin or write or publishable; this key's scope is read/);
    expect((await keys.write.post(`/api/v1/consent/${id}/withdraw`, {})).statusCode).toBe(200);
  });

  it("a write key withdrawing another key's records is told what it withdrew, not the records", async () => {
    const metadata = { email: 'w-2@example.com' };
    const other = await keys.admin.post(
      '/api/v1/consent',
      { policyVersionId: policyId, userReference: 'w-2', consentGiven: true, metadata, ipAddress: '203.0.113.9', userAgent: 'Visitor/1' },
      { 'idempotency-key': 'w-2-first' },
    );
    expect(other.statusCode, other.body).toBe(201);
    const id = other.json().data.id as string;
    const byId = await keys.write.post(`/api/v1/consent/${id}/withdraw`, { reason: 'asked by phone' });
    expect(byId.statusCode, byId.body).toBe(200);
    expect(byId.json().data).toEqual({ id, status: 'withdrawn', withdrawnAt: expect.any(String), withdrawalReason: 'asked by phone' });
    // By purpose: one per record withdrawn, nothing more.
    const second = await keys.admin.post('/api/v1/consent', {
      policyVersionId: policyId,
      userReference: 'w-2',
      consentGiven: true,
      metadata,
    });
    const standing = await keys.write.post('/api/v1/consent/user/w-2/withdraw', { policyType: 'privacy_policy' });
    expect(standing.statusCode, standing.body).toBe(200);
    expect(standing.json().data).toEqual({
      userReference: 'w-2',
      withdrawn: [{ id: second.json().data.id, status: 'withdrawn', withdrawnAt: expect.any(String), withdrawalReason: null }],
    });
    // An admin key is answered the record, as the spec says.
    const third = await keys.admin.post('/api/v1/consent', {
      policyVersionId: policyId,
      userReference: 'w-2',
      consentGiven: true,
      metadata,
    });
    const full = await keys.admin.post(`/api/v1/consent/${third.json().data.id}/withdraw`, {});
    expect(full.json().data).toMatchObject({ userReference: 'w-2', metadata, status: 'withdrawn' });
  });
});
