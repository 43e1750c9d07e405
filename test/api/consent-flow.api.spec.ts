import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';

describe('consent API › a tenant records, reads, verifies and withdraws', () => {
  let t: TestService;
  let api: Client;
  beforeAll(async () => {
    t = await startTestService();
    api = client(t.app, await t.tenant());
  });
  afterAll(() => t?.close());

  it('records a consent and answers the spec fields', async () => {
    const policyVersionId = await publishPolicy(api);
    const res = await api.post(
      '/api/v1/consent',
      { policyVersionId, userReference: 'user-1', consentGiven: true },
      { 'user-agent': 'ua-test' },
    );
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(Object.keys(body.data).sort()).toEqual(['consentGiven', 'consentHash', 'id', 'policyVersionId', 'timestamp', 'userReference']);
    expect(body.meta.timestamp).toBe(body.data.timestamp);
    expect(body.data.consentHash).toMatch(/^[0-9a-f]{64}$/);

    const got = (await api.get(`/v1/consent/${body.data.id}`)).json().data;
    expect(got.userAgent).toBe('ua-test');
    expect(got.ipAddress).toBe('127.0.0.1');
    expect(got.policyDetails).toMatchObject({ title: 'Privacy policy', type: 'privacy_policy' });

    const verified = (await api.get(`/api/v1/consent/${body.data.id}/verify`)).json().data;
    expect(verified).toMatchObject({ valid: true, storedHash: body.data.consentHash, computedHash: body.data.consentHash });

    const listed = (await api.get('/api/v1/consent/search?userReference=user-1')).json();
    expect(listed.pagination).toEqual({ page: 1, limit: 20, total: 1, pages: 1 });
    expect(listed.data[0].id).toBe(body.data.id);

    const withdrawn = await api.post(`/api/v1/consent/${body.data.id}/withdraw`, { reason: 'changed my mind' });
    expect(withdrawn.statusCode).toBe(200);
    expect(withdrawn.json().data.status).toBe('withdrawn');
    const again = await api.post(`/api/v1/consent/${body.data.id}/withdraw`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('CONSENT_NOT_WITHDRAWABLE');
    expect((await api.get(`/api/v1/consent/${body.data.id}/verify`)).json().data.valid).toBe(true);
  });
});
