import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerDb } from '../../src/ledger/postgres/ledger.table.js';
import { client, startTestService, type Client, type TestService } from '../support/service.js';

let t: TestService;

/** Each scenario gets a tenant of its own, so lists and "active" answers are its alone. */
async function freshClient(): Promise<{ api: Client; tenantId: string }> {
  const creds = await t.tenant('enterprise');
  return { api: client(t.app, creds), tenantId: creds.tenantId };
}

const sha256 = (s: string) => createHash('sha256').update(Buffer.from(s, 'utf8')).digest('hex');

const policy = (over: Record<string, unknown> = {}) => ({
  policyType: 'privacy_policy',
  version: '1.0.0',
  title: 'Privacy policy',
  content: 'We keep your data safe.',
  ...over,
});

async function create(
  api: Client,
  over: Record<string, unknown> = {},
  prefix = '/api/v1',
): Promise<Record<string, unknown> & { id: string }> {
  const res = await api.post(`${prefix}/policies`, policy(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

/** The tenant's policy events, in ledger order (its log also holds its configuration's). */
async function eventTypes(tenantId: string): Promise<string[]> {
  const rows = await ledgerDb(t.service.store.db)
    .selectFrom('ledger.events')
    .select('event_type')
    .where('tenant_id', '=', tenantId)
    .where('stream_id', 'like', 'policy-%')
    .orderBy('global_position')
    .execute();
  return rows.map((r) => r.event_type);
}

beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t?.close());

describe.each(['/api/v1', '/v1'])('policies (%s)', (prefix) => {
  describe('policies › when a version is published', () => {
    it('answers 201 with content, its SHA-256, isActive true and effectiveDate defaulting to now', async () => {
      const { api } = await freshClient();
      const content = 'Données personnelles — 個人情報 😀\r\n';
      const before = Date.now();
      const res = await api.post(`${prefix}/policies`, policy({ content }));
      const after = Date.now();
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json();
      expect(body.success).toBe(true);
      expect(Number.isNaN(Date.parse(body.meta.timestamp))).toBe(false);
      const d = body.data;
      expect(Object.keys(d).sort()).toEqual([
        'consentValidFor',
        'content',
        'contentHash',
        'createdAt',
        'effectiveDate',
        'id',
        'isActive',
        'policyType',
        'purpose',
        'requiresReconsent',
        'title',
        'updatedAt',
        'version',
      ]);
      expect(d).toMatchObject({
        policyType: 'privacy_policy',
        purpose: 'privacy_policy',
        version: '1.0.0',
        title: 'Privacy policy',
        content,
        isActive: true,
      });
      expect(d.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(d.contentHash).toBe(sha256(content));
      expect(d.contentHash).not.toBe(createHash('sha256').update(Buffer.from(content, 'latin1')).digest('hex'));
      const effective = Date.parse(d.effectiveDate);
      expect(effective).toBeGreaterThanOrEqual(before);
      expect(effective).toBeLessThanOrEqual(after);
      expect(d.effectiveDate).toBe(d.createdAt);
      expect(d.effectiveDate).toMatch(/Z$/);
    });

    it('keeps a given effectiveDate, normalized to UTC', async () => {
      const { api } = await freshClient();
      const d = await create(api, { effectiveDate: '2024-05-01T12:00:00+02:00' }, prefix);
      expect(d.effectiveDate).toBe('2024-05-01T10:00:00.000Z');
    });

    it('refuses the same (type, version) with 409 POLICY_VERSION_EXISTS, also after a delete', async () => {
      const { api, tenantId } = await freshClient();
      const first = await create(api, {}, prefix);
      const dup = await api.post(`${prefix}/policies`, policy({ title: 'Another title', content: 'Other' }));
      expect(dup.statusCode).toBe(409);
      expect(dup.json()).toMatchObject({ success: false, error: { code: 'POLICY_VERSION_EXISTS' } });
      // Another type, or another version, is fine.
      await create(api, { policyType: 'cookie_policy' }, prefix);
      await create(api, { version: '1.0.1' }, prefix);
      expect((await api.delete(`${prefix}/policies/${first.id}`)).statusCode).toBe(200);
      const events = (await eventTypes(tenantId)).length;
      const again = await api.post(`${prefix}/policies`, policy());
      expect(again.statusCode).toBe(409);
      expect(again.json().error.code).toBe('POLICY_VERSION_EXISTS');
      expect((await eventTypes(tenantId)).length).toBe(events);
    });

    it('when 10 publish the same (type, version) at once › exactly one is created', async () => {
      const { api, tenantId } = await freshClient();
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => api.post(`${prefix}/policies`, policy({ title: `racer ${i}` }))),
      );
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, ...Array(9).fill(409)]);
      expect(await eventTypes(tenantId)).toEqual(['PolicyVersionPublished']);
    });

    it('is the same version for every tenant: another tenant may publish the same (type, version)', async () => {
      const a = await freshClient();
      const b = await freshClient();
      const pa = await create(a.api, {}, prefix);
      const pb = await create(b.api, {}, prefix);
      expect(pa.id).not.toBe(pb.id);
      // And neither sees the other's.
      expect((await a.api.get(`${prefix}/policies/${pb.id}`)).statusCode).toBe(404);
      expect((await b.api.patch(`${prefix}/policies/${pa.id}`, { isActive: false })).statusCode).toBe(404);
      expect((await b.api.delete(`${prefix}/policies/${pa.id}`)).statusCode).toBe(404);
      expect((await a.api.get(`${prefix}/policies/${pa.id}`)).json().data.isActive).toBe(true);
    });
  });

  describe('policies › when listing', () => {
    let api: Client;
    let all: Record<string, unknown>[];
    /** Newest first; versions published in the same millisecond in id order, so pages are stable. */
    const newestFirst = () =>
      [...all]
        .sort((a, b) =>
          a.createdAt === b.createdAt ? (String(a.id) < String(b.id) ? -1 : 1) : String(a.createdAt) > String(b.createdAt) ? -1 : 1,
        )
        .map((p) => p.id);
    beforeAll(async () => {
      ({ api } = await freshClient());
      all = [];
      for (let i = 1; i <= 5; i++) all.push(await create(api, { version: `1.${i}.0` }, prefix));
      all.push(await create(api, { policyType: 'terms_of_service', version: '2.0.0' }, prefix));
      all.push(await create(api, { policyType: 'terms_of_service', version: '2.1.0' }, prefix));
      for (const p of [all[1]!, all[6]!]) expect((await api.patch(`${prefix}/policies/${p.id}`, { isActive: false })).statusCode).toBe(200);
    });

    it('answers every version without content, newest first, with pagination', async () => {
      const res = await api.get(`${prefix}/policies`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.pagination).toEqual({ page: 1, limit: 20, total: 7, pages: 1 });
      expect(body.data).toHaveLength(7);
      for (const item of body.data) {
        expect(item).not.toHaveProperty('content');
        expect(Object.keys(item).sort()).toEqual([
          'consentValidFor',
          'contentHash',
          'createdAt',
          'effectiveDate',
          'id',
          'isActive',
          'policyType',
          'purpose',
          'requiresReconsent',
          'title',
          'updatedAt',
          'version',
        ]);
      }
      expect(body.data.map((p: { id: string }) => p.id)).toEqual(newestFirst());
    });

    it.each([
      ['policyType=privacy_policy', 5],
      ['type=terms_of_service', 2],
      ['isActive=true', 5],
      ['is_active=false', 2],
      ['isActive=false&policyType=terms_of_service', 1],
      ['type=privacy_policy&is_active=true', 4],
      ['policyType=cookie_policy', 0],
    ])('filters by %s', async (query, count) => {
      const body = (await api.get(`${prefix}/policies?${query}`)).json();
      expect(body.pagination.total).toBe(count);
      expect(body.data).toHaveLength(count);
      const q = new URLSearchParams(query);
      const type = q.get('policyType') ?? q.get('type');
      const active = q.get('isActive') ?? q.get('is_active');
      for (const p of body.data) {
        if (type) expect(p.policyType).toBe(type);
        if (active) expect(String(p.isActive)).toBe(active);
      }
    });

    it.each([
      ['isActive=true&is_active=false', 'is_active'],
      ['policyType=privacy_policy&type=terms_of_service', 'type'],
    ])('refuses two spellings of one filter that disagree (%s)', async (query, field) => {
      const res = await api.get(`${prefix}/policies?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details.errors).toEqual([{ field, message: expect.stringMatching(/^is another spelling of/) }]);
      // Saying the same twice is fine.
      expect((await api.get(`${prefix}/policies?isActive=true&is_active=true`)).json().pagination.total).toBe(5);
    });

    it('pages through with page and limit', async () => {
      const seen: string[] = [];
      for (let page = 1; page <= 4; page++) {
        const body = (await api.get(`${prefix}/policies?limit=2&page=${page}`)).json();
        expect(body.pagination).toEqual({ page, limit: 2, total: 7, pages: 4 });
        expect(body.data).toHaveLength(page < 4 ? 2 : 1);
        seen.push(...body.data.map((p: { id: string }) => p.id));
      }
      expect(seen).toEqual(newestFirst());
      const beyond = (await api.get(`${prefix}/policies?limit=2&page=5`)).json();
      expect(beyond.data).toEqual([]);
      expect(beyond.pagination).toEqual({ page: 5, limit: 2, total: 7, pages: 4 });
    });

    it('answers an empty list with pages 0 for a tenant with none', async () => {
      const { api: empty } = await freshClient();
      expect((await empty.get(`${prefix}/policies`)).json()).toMatchObject({
        data: [],
        pagination: { page: 1, limit: 20, total: 0, pages: 0 },
      });
    });
  });

  describe('policies › when getting one', () => {
    it('answers it with content and updatedAt', async () => {
      const { api } = await freshClient();
      const created = await create(api, { content: 'Full text.' }, prefix);
      const res = await api.get(`${prefix}/policies/${created.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual(created);
    });

    it('answers 404 NOT_FOUND for an unknown id', async () => {
      const { api } = await freshClient();
      const res = await api.get(`${prefix}/policies/${randomUUID()}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    });
  });

  describe('policies › when asking for the active version of a type', () => {
    it('picks the active version with the latest effectiveDate not in the future', async () => {
      const { api } = await freshClient();
      await create(api, { policyType: 'cookie_policy', version: '1.0.0', effectiveDate: '2020-01-01T00:00:00Z' }, prefix);
      const current = await create(
        api,
        { policyType: 'cookie_policy', version: '2.0.0', effectiveDate: '2023-01-01T00:00:00Z', content: 'v2' },
        prefix,
      );
      await create(api, { policyType: 'cookie_policy', version: '3.0.0', effectiveDate: '2999-01-01T00:00:00Z' }, prefix);
      const newerInactive = await create(
        api,
        { policyType: 'cookie_policy', version: '2.5.0', effectiveDate: '2024-01-01T00:00:00Z' },
        prefix,
      );
      await api.patch(`${prefix}/policies/${newerInactive.id}`, { isActive: false });
      const newerDeleted = await create(
        api,
        { policyType: 'cookie_policy', version: '2.6.0', effectiveDate: '2024-06-01T00:00:00Z' },
        prefix,
      );
      await api.delete(`${prefix}/policies/${newerDeleted.id}`);
      // Another type's newer version does not count.
      await create(api, { policyType: 'custom', version: '9.0.0' }, prefix);

      const res = await api.get(`${prefix}/policies/active/cookie_policy`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toEqual(current);
    });

    it('breaks a tie on effectiveDate by the highest version, numerically (1.10.0 > 1.9.0)', async () => {
      const { api } = await freshClient();
      const effectiveDate = '2022-02-02T00:00:00Z';
      await create(api, { policyType: 'marketing_consent', version: '1.9.0', effectiveDate }, prefix);
      const highest = await create(api, { policyType: 'marketing_consent', version: '1.10.0', effectiveDate }, prefix);
      await create(api, { policyType: 'marketing_consent', version: '1.2.0', effectiveDate }, prefix);
      await create(api, { policyType: 'marketing_consent', version: '0.99.99', effectiveDate }, prefix);
      expect((await api.get(`${prefix}/policies/active/marketing_consent`)).json().data.id).toBe(highest.id);
    });

    it('follows activation: deactivating the current one falls back, reactivating brings it back', async () => {
      const { api } = await freshClient();
      const older = await create(api, { policyType: 'data_processing', version: '1.0.0', effectiveDate: '2021-01-01T00:00:00Z' }, prefix);
      const newer = await create(api, { policyType: 'data_processing', version: '2.0.0', effectiveDate: '2022-01-01T00:00:00Z' }, prefix);
      const active = async () => (await api.get(`${prefix}/policies/active/data_processing`)).json().data.id;
      expect(await active()).toBe(newer.id);
      await api.put(`${prefix}/policies/${newer.id}`, { isActive: false });
      expect(await active()).toBe(older.id);
      await api.patch(`${prefix}/policies/${newer.id}`, { isActive: true });
      expect(await active()).toBe(newer.id);
    });

    it('answers 404 NO_ACTIVE_POLICY when none is active and in effect', async () => {
      const { api } = await freshClient();
      const none = await api.get(`${prefix}/policies/active/terms_of_service`);
      expect(none.statusCode).toBe(404);
      expect(none.json()).toMatchObject({ success: false, error: { code: 'NO_ACTIVE_POLICY' } });
      // Only a future one, or only an inactive one: still none.
      await create(api, { policyType: 'terms_of_service', version: '1.0.0', effectiveDate: '2999-01-01T00:00:00Z' }, prefix);
      const inactive = await create(
        api,
        { policyType: 'terms_of_service', version: '0.1.0', effectiveDate: '2020-01-01T00:00:00Z' },
        prefix,
      );
      await api.patch(`${prefix}/policies/${inactive.id}`, { isActive: false });
      expect((await api.get(`${prefix}/policies/active/terms_of_service`)).json().error.code).toBe('NO_ACTIVE_POLICY');
    });
  });

  describe('policies › when updating isActive', () => {
    it.each(['PUT', 'PATCH'] as const)('%s deactivates and reactivates, answering the updated version', async (method) => {
      const { api, tenantId } = await freshClient();
      const created = await create(api, {}, prefix);
      const send = (isActive: boolean) => api.inject({ method, url: `${prefix}/policies/${created.id}`, payload: { isActive } });

      const off = await send(false);
      expect(off.statusCode).toBe(200);
      const offData = off.json().data;
      expect(offData).toMatchObject({
        id: created.id,
        isActive: false,
        content: created.content,
        contentHash: created.contentHash,
        createdAt: created.createdAt,
      });
      expect(Date.parse(offData.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt as string));
      expect((await api.get(`${prefix}/policies/${created.id}`)).json().data).toEqual(offData);

      const on = await send(true);
      expect(on.statusCode).toBe(200);
      expect(on.json().data).toMatchObject({ id: created.id, isActive: true });

      // Setting what is already set answers 200 and records nothing.
      const events = (await eventTypes(tenantId)).length;
      expect((await send(true)).json().data.isActive).toBe(true);
      expect((await eventTypes(tenantId)).length).toBe(events);
      expect(await eventTypes(tenantId)).toEqual(['PolicyVersionPublished', 'PolicyVersionDeactivated', 'PolicyVersionActivated']);
    });

    it('recording consent against an inactive version → 422 POLICY_VERSION_INACTIVE, and again once reactivated it works', async () => {
      const { api, tenantId } = await freshClient();
      const p = await create(api, {}, prefix);
      await api.patch(`${prefix}/policies/${p.id}`, { isActive: false });
      const events = (await eventTypes(tenantId)).length;
      const res = await api.post(`${prefix}/consent`, { policyVersionId: p.id, userReference: 'u', consentGiven: true });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ success: false, error: { code: 'POLICY_VERSION_INACTIVE' } });
      expect((await eventTypes(tenantId)).length).toBe(events);
      await api.patch(`${prefix}/policies/${p.id}`, { isActive: true });
      expect((await api.post(`${prefix}/consent`, { policyVersionId: p.id, userReference: 'u', consentGiven: true })).statusCode).toBe(201);
    });
  });

  describe('policies › when a version is deleted', () => {
    it('answers 200 {message}; the version leaves lists and gets, its consents keep their details and verify', async () => {
      const { api, tenantId } = await freshClient();
      const keep = await create(api, { version: '1.0.0' }, prefix);
      const gone = await create(api, { version: '2.0.0', title: 'To be deleted', content: 'Old text' }, prefix);
      const consent = (await api.post(`${prefix}/consent`, { policyVersionId: gone.id, userReference: 'kept', consentGiven: true })).json()
        .data;

      const res = await api.delete(`${prefix}/policies/${gone.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().success).toBe(true);
      expect(Object.keys(res.json().data)).toEqual(['message']);
      expect(typeof res.json().data.message).toBe('string');

      expect((await api.get(`${prefix}/policies/${gone.id}`)).statusCode).toBe(404);
      for (const q of ['', '?isActive=false', '?isActive=true', '?policyType=privacy_policy']) {
        const ids = (await api.get(`${prefix}/policies${q}`)).json().data.map((p: { id: string }) => p.id);
        expect(ids, q).not.toContain(gone.id);
      }
      expect((await api.get(`${prefix}/policies`)).json().pagination.total).toBe(1);
      expect((await api.get(`${prefix}/policies/active/privacy_policy`)).json().data.id).toBe(keep.id);

      const got = (await api.get(`${prefix}/consent/${consent.id}`)).json().data;
      expect(got.policyDetails).toMatchObject({
        title: 'To be deleted',
        type: 'privacy_policy',
        version: '2.0.0',
        contentHash: gone.contentHash,
      });
      const verified = (await api.get(`${prefix}/consent/${consent.id}/verify`)).json().data;
      expect(verified).toMatchObject({ valid: true, storedHash: consent.consentHash, computedHash: consent.consentHash });

      // Nothing more can happen to it.
      const recorded = await api.post(`${prefix}/consent`, { policyVersionId: gone.id, userReference: 'late', consentGiven: true });
      expect(recorded.statusCode).toBe(422);
      expect(recorded.json().error.code).toBe('POLICY_VERSION_INACTIVE');
      const batch = await api.post(`${prefix}/consent/batch`, {
        consents: [{ policyVersionId: gone.id, userReference: 'late', consentGiven: true }],
      });
      expect(batch.statusCode).toBe(400);
      expect((await api.patch(`${prefix}/policies/${gone.id}`, { isActive: true })).statusCode).toBe(404);
      expect((await api.put(`${prefix}/policies/${gone.id}`, { isActive: false })).statusCode).toBe(404);
      const events = (await eventTypes(tenantId)).length;
      const twice = await api.delete(`${prefix}/policies/${gone.id}`);
      expect(twice.statusCode).toBe(404);
      expect(twice.json().error.code).toBe('NOT_FOUND');
      expect((await eventTypes(tenantId)).length).toBe(events);
    });
  });
});
