import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IssuedCredentials } from '../../src/tenants/tenants.service.js';
import { client, publishPolicy, startTestService, type TestService } from '../support/service.js';

/**
 * docs/contract.md "Identity, tenants, keys" and "Errors": every /api/v1 and /v1 route needs
 * X-API-Key + X-API-Secret; a missing, unknown or revoked key or a wrong secret is 401
 * UNAUTHORIZED in the error envelope, and the answer never gives the secret back.
 */

const UNKNOWN_KEY = 'ck_AAAAAAAAAAAAAAAAAAAAAAAA';
const WRONG_SECRET = 'cs_WrongWrongWrongWrongWrongWrongWrongWrong';

const expectUnauthorized = (res: LightMyRequestResponse, ...mustNotContain: string[]) => {
  expect(res.statusCode).toBe(401);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(body).toEqual({
    success: false,
    error: { code: 'UNAUTHORIZED', message: expect.any(String) },
    meta: { timestamp: expect.any(String) },
  });
  expect(Number.isNaN(Date.parse(body.meta.timestamp))).toBe(false);
  for (const s of mustNotContain) {
    expect(res.body).not.toContain(s);
    expect(JSON.stringify(res.headers)).not.toContain(s);
  }
};

describe('auth › API keys', () => {
  let t: TestService;
  let tenant: IssuedCredentials;
  let other: IssuedCredentials;
  let policyId: string;

  beforeAll(async () => {
    t = await startTestService();
    tenant = await t.tenant('starter');
    other = await t.tenant('starter');
    policyId = await publishPolicy(client(t.app, tenant));
  });
  afterAll(() => t?.close());

  const as = (headers: Record<string, string>, url = '/api/v1/policies') => t.app.inject({ method: 'GET', url, headers });

  describe('auth › when the key and secret are valid › the request goes through', () => {
    it.each(['/api/v1/policies', '/v1/policies'])('GET %s answers 200', async (url) => {
      const res = await as({ 'x-api-key': tenant.apiKey, 'x-api-secret': tenant.apiSecret }, url);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.map((p: { id: string }) => p.id)).toContain(policyId);
    });
  });

  describe('auth › when the credentials are missing or wrong › answers 401 UNAUTHORIZED', () => {
    const cases: [string, () => Record<string, string>][] = [
      ['no key and no secret', () => ({})],
      ['a key without a secret', () => ({ 'x-api-key': tenant.apiKey })],
      ['a secret without a key', () => ({ 'x-api-secret': tenant.apiSecret })],
      ['an empty key and secret', () => ({ 'x-api-key': '', 'x-api-secret': '' })],
      ['an unknown key', () => ({ 'x-api-key': UNKNOWN_KEY, 'x-api-secret': tenant.apiSecret })],
      ['a wrong secret', () => ({ 'x-api-key': tenant.apiKey, 'x-api-secret': WRONG_SECRET })],
      ['the secret of another key', () => ({ 'x-api-key': tenant.apiKey, 'x-api-secret': other.apiSecret })],
      ['the secret in place of the key', () => ({ 'x-api-key': tenant.apiSecret, 'x-api-secret': tenant.apiKey })],
      ['the right secret with a character more', () => ({ 'x-api-key': tenant.apiKey, 'x-api-secret': `${tenant.apiSecret}x` })],
      ['the right secret cut short', () => ({ 'x-api-key': tenant.apiKey, 'x-api-secret': tenant.apiSecret.slice(0, -1) })],
      ['the right secret in another case', () => ({ 'x-api-key': tenant.apiKey, 'x-api-secret': tenant.apiSecret.toUpperCase() })],
      ['a very long secret', () => ({ 'x-api-key': tenant.apiKey, 'x-api-secret': `cs_${'a'.repeat(10_000)}` })],
      ['the credentials as a bearer token', () => ({ authorization: `Bearer ${tenant.apiKey}:${tenant.apiSecret}` })],
    ];

    it.each(cases)('%s', async (_label, headers) => {
      const sent = headers();
      for (const url of ['/api/v1/policies', '/v1/policies', `/api/v1/policies/${policyId}`, '/api/v1/consent/search']) {
        // The presented secret (and the real one) never comes back, in the body or a header.
        expectUnauthorized(
          await as(sent, url),
          ...Object.values(sent).filter((v) => v.length > 0 && !v.startsWith('ck_')),
          tenant.apiSecret,
        );
      }
    });

    it('refuses before reading the body: an invalid write without credentials is 401, not 400, and records nothing', async () => {
      const before = await t.service.ledger.headPosition();
      for (const [url, payload] of [
        ['/api/v1/consent', { nonsense: true }],
        ['/api/v1/policies', { policyType: 'privacy_policy', version: '9.9.9', title: 'Sneaky', content: 'x' }],
        ['/v1/consent/batch', { consents: [] }],
      ] as const) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: { 'x-api-key': tenant.apiKey, 'x-api-secret': WRONG_SECRET },
          payload,
        });
        expectUnauthorized(res, WRONG_SECRET, tenant.apiSecret);
      }
      expect(await t.service.ledger.headPosition()).toEqual(before);
    });
  });

  describe('auth › when a key is revoked › it is refused like an unknown one', () => {
    it('answers 401 with the same envelope as an unknown key, while the tenant’s other key still works', async () => {
      const spare = await t.service.tenants.createKey(tenant.tenantId);
      const doomed = await t.service.tenants.createKey(tenant.tenantId);
      const doomedHeaders = { 'x-api-key': doomed.apiKey, 'x-api-secret': doomed.apiSecret };
      expect((await as(doomedHeaders)).statusCode).toBe(200);

      await t.service.tenants.revokeKey(tenant.tenantId, doomed.apiKey);
      const revoked = await as(doomedHeaders);
      expectUnauthorized(revoked, doomed.apiSecret);
      const unknown = await as({ 'x-api-key': UNKNOWN_KEY, 'x-api-secret': doomed.apiSecret });
      // Nothing tells a revoked key from one that never existed.
      expect(revoked.json().error.message).toBe(unknown.json().error.message);

      expect((await as({ 'x-api-key': spare.apiKey, 'x-api-secret': spare.apiSecret })).statusCode).toBe(200);
      expect((await as({ 'x-api-key': tenant.apiKey, 'x-api-secret': tenant.apiSecret })).statusCode).toBe(200);
    });
  });

  describe('auth › when a route is public › it needs no key', () => {
    it.each([
      ['/health', 'ok'],
      ['/ready', 'ready'],
    ])('GET %s answers 200 without credentials', async (url, status) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ success: true, data: { status }, meta: { timestamp: expect.any(String) } });
    });

    it('GET /health ignores wrong credentials rather than refusing them', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/health',
        headers: { 'x-api-key': UNKNOWN_KEY, 'x-api-secret': WRONG_SECRET },
      });
      expect(res.statusCode).toBe(200);
    });
  });
});
