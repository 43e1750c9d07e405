import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, listedAdminKey, startTestService, type TestService } from '../support/service.js';

/**
 * docs/contract.md "Identity, tenants, keys": the operator's admin API, enabled only by ADMIN_TOKEN,
 * behind `Authorization: Bearer <ADMIN_TOKEN>`.
 */

const ADMIN_TOKEN = 'admin-e2e-token-0123456789abcdef';
const API_KEY = /^ck_[0-9A-Za-z]{24}$/;
const API_SECRET = /^cs_[0-9A-Za-z]{40}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const expectErrorEnvelope = (res: { statusCode: number; json(): unknown }, status: number, code: string) => {
  expect(res.statusCode).toBe(status);
  const body = res.json() as { success: boolean; error: { code: string; message: string }; meta: { timestamp: string } };
  expect(body.success).toBe(false);
  expect(body.error.code).toBe(code);
  expect(body.error.message).toEqual(expect.any(String));
  expect(Number.isNaN(Date.parse(body.meta.timestamp))).toBe(false);
  return body;
};

describe('admin API › when ADMIN_TOKEN is not set › the routes do not exist', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
  });
  afterAll(() => t?.close());

  it.each([
    ['POST', '/admin/v1/tenants'],
    ['GET', '/admin/v1/tenants'],
    ['PATCH', '/admin/v1/tenants/00000000-0000-4000-8000-000000000000'],
    ['POST', '/admin/v1/tenants/00000000-0000-4000-8000-000000000000/keys'],
    ['DELETE', '/admin/v1/tenants/00000000-0000-4000-8000-000000000000/keys/ck_000000000000000000000000'],
  ] as const)('%s %s answers 404, even with a bearer token', async (method, url) => {
    const res = await t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      ...(method === 'POST' || method === 'PATCH' ? { payload: { name: 'x', plan: 'pro' } } : {}),
    });
    expectErrorEnvelope(res, 404, 'NOT_FOUND');
    expect(await t.service.tenants.isEmpty()).toBe(true);
  });
});

describe('admin API › when ADMIN_TOKEN is set', () => {
  let t: TestService;
  const admin = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, token = ADMIN_TOKEN) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const createTenant = async (name: string, plan = 'starter') => {
    const res = await admin('POST', '/admin/v1/tenants', { name, plan });
    expect(res.statusCode).toBe(201);
    return res.json().data as { tenantId: string; name: string; plan: string; apiKey: string; apiSecret: string };
  };

  beforeAll(async () => {
    t = await startTestService({ ADMIN_TOKEN });
  });
  afterAll(() => t?.close());

  describe('admin API › when the bearer token is missing or wrong › answers 401 and changes nothing', () => {
    it.each([
      ['no Authorization header', undefined],
      ['an empty bearer', 'Bearer '],
      ['a wrong token', 'Bearer not-the-admin-token-0123456789'],
      ['the token with a suffix', `Bearer ${ADMIN_TOKEN}x`],
      ['the token as Basic auth', `Basic ${ADMIN_TOKEN}`],
      ['the bare token', ADMIN_TOKEN],
    ])('%s', async (_label, authorization) => {
      const before = (await t.service.tenants.list()).length;
      for (const [method, url, payload] of [
        ['GET', '/admin/v1/tenants', undefined],
        ['POST', '/admin/v1/tenants', { name: 'intruder', plan: 'enterprise' }],
      ] as const) {
        const res = await t.app.inject({
          method,
          url,
          headers: authorization === undefined ? {} : { authorization },
          ...(payload ? { payload } : {}),
        });
        const body = expectErrorEnvelope(res, 401, 'UNAUTHORIZED');
        expect(JSON.stringify(body)).not.toContain(ADMIN_TOKEN);
      }
      expect((await t.service.tenants.list()).length).toBe(before);
    });

    it('accepts the Bearer scheme in any letter case, as HTTP defines it', async () => {
      for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
        const res = await t.app.inject({ method: 'GET', url: '/admin/v1/tenants', headers: { authorization: `${scheme} ${ADMIN_TOKEN}` } });
        expect(res.statusCode).toBe(200);
      }
    });

    it("a tenant's API key and secret are not admin credentials", async () => {
      const creds = await createTenant('not-an-operator');
      const res = await client(t.app, creds).get('/admin/v1/tenants');
      expectErrorEnvelope(res, 401, 'UNAUTHORIZED');
    });
  });

  describe('admin API › when an operator creates a tenant › it answers the credentials once', () => {
    it('answers 201 {tenantId, name, plan, apiKey, apiSecret} in the documented formats, and the key works', async () => {
      const res = await admin('POST', '/admin/v1/tenants', { name: 'Acme Corp', plan: 'pro' });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body.success).toBe(true);
      expect(Number.isNaN(Date.parse(body.meta.timestamp))).toBe(false);
      expect(Object.keys(body.data).sort()).toEqual(['apiKey', 'apiSecret', 'expiresAt', 'keyName', 'name', 'plan', 'scope', 'tenantId']);
      expect(body.data).toMatchObject({ name: 'Acme Corp', plan: 'pro' });
      expect(body.data.tenantId).toMatch(UUID);
      expect(body.data.apiKey).toMatch(API_KEY);
      expect(body.data.apiSecret).toMatch(API_SECRET);

      const api = client(t.app, body.data);
      expect((await api.get('/api/v1/policies')).statusCode).toBe(200);
    });

    it('issues distinct keys and secrets to every tenant', async () => {
      const a = await createTenant('distinct-a');
      const b = await createTenant('distinct-b');
      expect(new Set([a.tenantId, b.tenantId]).size).toBe(2);
      expect(new Set([a.apiKey, b.apiKey]).size).toBe(2);
      expect(new Set([a.apiSecret, b.apiSecret]).size).toBe(2);
    });

    it('stores no secret in clear: no column of control.api_keys holds it', async () => {
      const created = await createTenant('hashed-secrets');
      const extra = (await admin('POST', `/admin/v1/tenants/${created.tenantId}/keys`)).json().data as {
        apiKey: string;
        apiSecret: string;
      };
      const rows = await sql<Record<string, unknown>>`SELECT * FROM control.api_keys WHERE tenant_id = ${created.tenantId}::uuid`.execute(
        t.service.store.db,
      );
      expect(rows.rows).toHaveLength(2);
      for (const row of rows.rows) {
        for (const value of Object.values(row)) {
          const text = value instanceof Date ? value.toISOString() : String(value);
          for (const secret of [created.apiSecret, extra.apiSecret]) {
            expect(text).not.toContain(secret);
            // Nor the secret without its prefix.
            expect(text).not.toContain(secret.slice(3));
          }
        }
      }
      // Nor anywhere else in the control schema.
      const tenants = await sql<Record<string, unknown>>`SELECT * FROM control.tenants WHERE id = ${created.tenantId}::uuid`.execute(
        t.service.store.db,
      );
      expect(JSON.stringify(tenants.rows)).not.toContain(created.apiSecret.slice(3));
    });

    it.each([
      ['no body fields', {}, ['name', 'plan']],
      ['an unknown plan', { name: 'x', plan: 'gold' }, ['plan']],
      ['an empty name', { name: '', plan: 'pro' }, ['name']],
      ['a name over 200 characters', { name: 'n'.repeat(201), plan: 'pro' }, ['name']],
      ['a number for a name', { name: 42, plan: 'pro' }, ['name']],
      ['an unknown field', { name: 'x', plan: 'pro', apiSecret: 'cs_mine' }, []],
    ])('rejects %s with 400 VALIDATION_ERROR and creates nothing', async (_label, payload, fields) => {
      const before = (await t.service.tenants.list()).length;
      const res = await admin('POST', '/admin/v1/tenants', payload);
      const body = expectErrorEnvelope(res, 400, 'VALIDATION_ERROR');
      const named = JSON.stringify(body.error);
      for (const f of fields) expect(named).toContain(f);
      expect((await t.service.tenants.list()).length).toBe(before);
    });

    it('rejects a body that is not JSON with 415', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/admin/v1/tenants',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/plain' },
        payload: 'name=x&plan=pro',
      });
      expectErrorEnvelope(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });
  });

  describe('admin API › when an operator lists tenants › keys show, secrets never', () => {
    it('lists every tenant with its plan, limits and keys, and no secret or hash', async () => {
      const created = await createTenant('listed', 'business');
      const second = (await admin('POST', `/admin/v1/tenants/${created.tenantId}/keys`)).json().data as {
        apiKey: string;
        apiSecret: string;
      };
      const res = await admin('GET', '/admin/v1/tenants');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.success).toBe(true);
      const listed = (body.data as { tenantId: string }[]).find((x) => x.tenantId === created.tenantId);
      expect(listed).toEqual({
        tenantId: created.tenantId,
        name: 'listed',
        plan: 'business',
        limits: { perMinute: 600, perDay: 200_000 },
        createdAt: expect.any(String),
        keys: [listedAdminKey(created.apiKey), listedAdminKey(second.apiKey)],
      });
      expect(res.body).not.toContain(created.apiSecret);
      expect(res.body).not.toContain(second.apiSecret);
      // No field of any tenant or key is a secret or a hash, whatever its name.
      const fieldNames = (value: unknown): string[] =>
        value && typeof value === 'object' ? Object.entries(value).flatMap(([k, v]) => [k, ...fieldNames(v)]) : [];
      expect(fieldNames(body.data).filter((k) => /secret|hash/i.test(k))).toEqual([]);
    });
  });

  describe('admin API › when an operator changes a tenant › plan and limits follow', () => {
    it('changes the plan, sets its own limits and clears them back to the plan', async () => {
      const created = await createTenant('upgraded', 'starter');
      const planned = await admin('PATCH', `/admin/v1/tenants/${created.tenantId}`, { plan: 'enterprise' });
      expect(planned.statusCode).toBe(200);
      // Enterprise has the business limits until an operator sets its own.
      expect(planned.json().data).toMatchObject({
        tenantId: created.tenantId,
        plan: 'enterprise',
        limits: { perMinute: 600, perDay: 200_000 },
      });

      const limited = await admin('PATCH', `/admin/v1/tenants/${created.tenantId}`, { limits: { perMinute: 5_000, perDay: 9_000_000 } });
      expect(limited.statusCode).toBe(200);
      expect(limited.json().data).toMatchObject({ plan: 'enterprise', limits: { perMinute: 5_000, perDay: 9_000_000 } });

      const one = await admin('PATCH', `/admin/v1/tenants/${created.tenantId}`, { limits: { perDay: null } });
      expect(one.json().data.limits).toEqual({ perMinute: 5_000, perDay: 200_000 });
      // limits: null puts both of the plan's back, as docs/limits.md says.
      const both = await admin('PATCH', `/admin/v1/tenants/${created.tenantId}`, { limits: null });
      expect(both.statusCode, both.body).toBe(200);
      expect(both.json().data.limits).toEqual({ perMinute: 600, perDay: 200_000 });
      await admin('PATCH', `/admin/v1/tenants/${created.tenantId}`, { limits: { perMinute: 5_000 } });

      const listed = ((await admin('GET', '/admin/v1/tenants')).json().data as { tenantId: string }[]).find(
        (x) => x.tenantId === created.tenantId,
      );
      expect(listed).toMatchObject({ plan: 'enterprise', limits: { perMinute: 5_000, perDay: 200_000 } });

      // The tenant's own requests see the new plan: a free tenant cannot export CSV.
      const api = client(t.app, created);
      expect((await api.get('/api/v1/consent/export')).statusCode).toBe(200);
      await admin('PATCH', `/admin/v1/tenants/${created.tenantId}`, { plan: 'free', limits: { perMinute: null, perDay: null } });
      expectErrorEnvelope(await api.get('/api/v1/consent/export'), 403, 'PLAN_RESTRICTED');
      const freeTenant = ((await admin('GET', '/admin/v1/tenants')).json().data as { tenantId: string }[]).find(
        (x) => x.tenantId === created.tenantId,
      );
      expect(freeTenant).toMatchObject({ plan: 'free', limits: { perMinute: 10, perDay: 100 } });
    });

    it.each([
      ['an unknown plan', { plan: 'platinum' }],
      ['a zero limit', { limits: { perMinute: 0 } }],
      ['a negative limit', { limits: { perDay: -5 } }],
      ['a fractional limit', { limits: { perMinute: 1.5 } }],
      ['a string limit', { limits: { perMinute: 'lots' } }],
      ['an unknown limit', { limits: { perHour: 10 } }],
      ['an unknown field', { name: 'renamed' }],
    ])('rejects %s with 400 and changes nothing', async (_label, payload) => {
      const created = await createTenant('unchanged', 'pro');
      const res = await admin('PATCH', `/admin/v1/tenants/${created.tenantId}`, payload);
      expectErrorEnvelope(res, 400, 'VALIDATION_ERROR');
      expect(await t.service.tenants.get(created.tenantId)).toMatchObject({
        name: 'unchanged',
        plan: 'pro',
        limits: { perMinute: 300, perDay: 50_000 },
      });
    });

    it('answers 404 for a tenant that does not exist, and 400 for an id that is not one', async () => {
      expectErrorEnvelope(
        await admin('PATCH', '/admin/v1/tenants/00000000-0000-4000-8000-000000000000', { plan: 'pro' }),
        404,
        'NOT_FOUND',
      );
      expectErrorEnvelope(await admin('PATCH', '/admin/v1/tenants/not-a-uuid', { plan: 'pro' }), 400, 'VALIDATION_ERROR');
    });
  });

  describe('admin API › keys with a scope', () => {
    it('issues an admin key by default, a read or write key when asked, and refuses another scope', async () => {
      const created = await createTenant('scoped', 'pro');
      expect(created).toMatchObject({ scope: 'admin' });
      const read = await admin('POST', `/admin/v1/tenants/${created.tenantId}/keys`, { scope: 'read' });
      expect(read.statusCode, read.body).toBe(201);
      expect(read.json().data).toMatchObject({ scope: 'read' });
      const reader = client(t.app, read.json().data);
      expect((await reader.get('/api/v1/consent/search')).statusCode).toBe(200);
      expect((await reader.post('/api/v1/policies', { policyType: 'custom', version: '1.0.0', title: 't', content: 'c' })).statusCode).toBe(
        403,
      );
      expectErrorEnvelope(await admin('POST', `/admin/v1/tenants/${created.tenantId}/keys`, { scope: 'owner' }), 400, 'VALIDATION_ERROR');
      const listed = (await admin('GET', '/admin/v1/tenants'))
        .json()
        .data.find((x: { tenantId: string }) => x.tenantId === created.tenantId);
      expect(listed.keys.map((k: { scope: string }) => k.scope)).toEqual(['admin', 'read']);
    });
  });

  describe('admin API › when an operator issues and revokes keys › revocation is immediate', () => {
    it('issues another key for the same tenant; revoking one refuses it at once and leaves the other working', async () => {
      const created = await createTenant('rotating', 'starter');
      const res = await admin('POST', `/admin/v1/tenants/${created.tenantId}/keys`);
      expect(res.statusCode).toBe(201);
      const issued = res.json().data;
      expect(Object.keys(issued).sort()).toEqual(['apiKey', 'apiSecret', 'expiresAt', 'keyName', 'name', 'plan', 'scope', 'tenantId']);
      expect(issued).toMatchObject({ tenantId: created.tenantId, name: 'rotating', plan: 'starter' });
      expect(issued.apiKey).toMatch(API_KEY);
      expect(issued.apiSecret).toMatch(API_SECRET);
      expect(issued.apiKey).not.toBe(created.apiKey);

      const oldKey = client(t.app, created);
      const newKey = client(t.app, issued);
      // Both keys act as the same tenant: what one writes, the other reads.
      const published = await oldKey.post('/api/v1/policies', {
        policyType: 'terms_of_service',
        version: '1.0.0',
        title: 'Terms',
        content: 'Be nice.',
      });
      expect(published.statusCode).toBe(201);
      expect((await newKey.get(`/api/v1/policies/${published.json().data.id}`)).statusCode).toBe(200);

      // Warm the key cache, then revoke: the very next request is refused.
      expect((await oldKey.get('/api/v1/policies')).statusCode).toBe(200);
      const revoked = await admin('DELETE', `/admin/v1/tenants/${created.tenantId}/keys/${created.apiKey}`);
      expect(revoked.statusCode).toBe(200);
      expect(revoked.json().success).toBe(true);
      expectErrorEnvelope(await oldKey.get('/api/v1/policies'), 401, 'UNAUTHORIZED');
      expect((await newKey.get('/api/v1/policies')).statusCode).toBe(200);

      const listed = (
        (await admin('GET', '/admin/v1/tenants')).json().data as {
          tenantId: string;
          keys: { apiKey: string; revokedAt: string | null }[];
        }[]
      ).find((x) => x.tenantId === created.tenantId)!;
      expect(listed.keys.find((k) => k.apiKey === created.apiKey)?.revokedAt).toEqual(expect.any(String));
      expect(listed.keys.find((k) => k.apiKey === issued.apiKey)?.revokedAt).toBeNull();

      // Revoking twice is a 404: there is no such active key any more.
      expectErrorEnvelope(await admin('DELETE', `/admin/v1/tenants/${created.tenantId}/keys/${created.apiKey}`), 404, 'NOT_FOUND');
    });

    it("cannot revoke another tenant's key through the wrong tenant id", async () => {
      const a = await createTenant('key-owner');
      const b = await createTenant('not-the-owner');
      expectErrorEnvelope(await admin('DELETE', `/admin/v1/tenants/${b.tenantId}/keys/${a.apiKey}`), 404, 'NOT_FOUND');
      expect((await client(t.app, a).get('/api/v1/policies')).statusCode).toBe(200);
    });

    it('answers 404 for keys of a tenant that does not exist, and 400 for a malformed id', async () => {
      expectErrorEnvelope(await admin('POST', '/admin/v1/tenants/00000000-0000-4000-8000-000000000000/keys'), 404, 'NOT_FOUND');
      expectErrorEnvelope(await admin('POST', '/admin/v1/tenants/nope/keys'), 400, 'VALIDATION_ERROR');
      expectErrorEnvelope(
        await admin('DELETE', '/admin/v1/tenants/00000000-0000-4000-8000-000000000000/keys/ck_000000000000000000000000'),
        404,
        'NOT_FOUND',
      );
    });
  });
});
