import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentLedgerClient, type ConsentLedgerClient } from '../../client/index.js';
import { startTestService, type TestService } from '../support/service.js';

/**
 * Issue 19, the typed client (client/, docs/client.md): generated from docs/openapi.json, used
 * against the service listening on a real port, over real HTTP, as the README shows it. The
 * compiler checks every path, body and answer below (`npm run check`).
 */

let t: TestService;
let ledger: ConsentLedgerClient;
let baseUrl: string;

beforeAll(async () => {
  t = await startTestService();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const { apiKey, apiSecret } = await t.tenant('pro');
  ledger = consentLedgerClient({ baseUrl, apiKey, apiSecret });
}, 60_000);
afterAll(() => t?.close());

describe('typed client › against a running service', () => {
  it('publishes a policy, records a decision by purpose, reads, verifies and searches it', async () => {
    const purpose = await ledger.POST('/api/v1/purposes', {
      body: { key: 'newsletter', name: 'Newsletter', description: 'Monthly news', legalBasis: 'consent', consentValidFor: 'P24M' },
    });
    expect(purpose.response.status).toBe(201);
    const policy = await ledger.POST('/api/v1/policies', {
      body: {
        policyType: 'marketing_consent',
        purpose: 'newsletter',
        version: '1.0.0',
        title: 'Newsletter',
        content: 'One email a month.',
      },
    });
    expect(policy.error).toBeUndefined();
    expect(policy.data!.data.id).toMatch(/^[0-9a-f-]{36}$/);

    const recorded = await ledger.POST('/api/v1/consent', {
      body: { purpose: 'newsletter', userReference: 'client-user', consentGiven: true, metadata: { source: 'client' } },
      headers: { 'Idempotency-Key': 'client-1' },
    });
    expect(recorded.response.status).toBe(201);
    const id = (recorded.data!.data as { id: string }).id;

    const record = await ledger.GET('/api/v1/consent/{id}', { params: { path: { id } } });
    expect(record.data!.data).toMatchObject({ id, userReference: 'client-user', purpose: 'newsletter', consentGiven: true });
    // Typed as the JSON answer, though the route also answers JSON-LD (format=iso27560): no cast.
    expect(record.data!.data.status).toBe('active');
    const verified = await ledger.GET('/api/v1/consent/{id}/verify', { params: { path: { id } } });
    expect(verified.data!.data.valid).toBe(true);
    // The public receipt check answers a page to browsers; to the client, its JSON (of a record put on paper).
    const receipt = await ledger.POST('/api/v1/consent/{id}/pdf', { params: { path: { id } }, parseAs: 'arrayBuffer' });
    expect(receipt.response.status).toBe(200);
    const consentHash = (recorded.data!.data as { consentHash: string }).consentHash;
    const checked = await ledger.GET('/verify/{consentId}', { params: { path: { consentId: id }, query: { hash: consentHash } } });
    expect(checked.error).toBeUndefined();
    expect(checked.data!.data.valid).toBe(true);
    const found = await ledger.GET('/api/v1/consent/search', { params: { query: { purpose: 'newsletter', limit: 10 } } });
    expect(found.data!.pagination.total).toBe(1);
    // A route answering JSON or CSV answers the client its JSON envelope, typed as such.
    const audit = await ledger.GET('/api/v1/audit-log', { params: { query: { action: 'policy.published' } } });
    expect(audit.data!.data.map((e) => e.action)).toEqual(['policy.published']);
    const reconsent = await ledger.GET('/api/v1/consent/reconsent', { params: { query: { purpose: 'newsletter' } } });
    expect(reconsent.data!.pagination.total).toBe(0);
    // Another form asked by format= is that form, not the envelope: read as docs/client.md says.
    const standard = await ledger.GET('/api/v1/consent/{id}', { params: { path: { id }, query: { format: 'iso27560' } }, parseAs: 'json' });
    expect(standard.response.headers.get('content-type')).toMatch(/^application\/ld\+json/);
    expect((standard.data as unknown as Record<string, unknown>)['@context']).toBeDefined();
    const csv = await ledger.GET('/api/v1/audit-log', { params: { query: { format: 'csv' } }, parseAs: 'text' });
    expect(csv.data as unknown as string).toMatch(/^"?\w/);
    expect(csv.response.headers.get('content-type')).toMatch(/^text\/csv/);
  });

  it('answers refusals as the typed error envelope, with the rate-limit headers', async () => {
    const missing = await ledger.GET('/api/v1/consent/{id}', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error!.error.code).toBe('NOT_FOUND');
    expect(missing.response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    const bad = await ledger.POST('/api/v1/consent', { body: { userReference: 'x', consentGiven: true } });
    expect(bad.response.status).toBe(400);
    expect(bad.error!.error.code).toBe('VALIDATION_ERROR');
    const stranger = consentLedgerClient({ baseUrl, apiKey: 'ck_000000000000000000000000', apiSecret: 'cs_wrong' });
    expect((await stranger.GET('/api/v1/consent/search')).error!.error.code).toBe('UNAUTHORIZED');
  });
});
